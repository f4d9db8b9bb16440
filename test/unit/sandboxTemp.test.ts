/**
 * Issue 27.2 for temp files: srt hands every sandbox the same TMPDIR (/tmp/claude) and leaves the
 * rest of /tmp readable, so one sandboxed server reads what another keeps in its temp folder, and
 * what any other program of the user keeps in /tmp. The attackers are two `escapee` fixtures run
 * sandboxed side by side; the victim files are one server's own temp file and a file another
 * process writes to /tmp. Unsandboxed, the same reads succeed (proof they are tried).
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxPort } from '../../src/core';
import { createTestHost, fixtureServer, node, repoRoot, text, waitForState } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

type Call = (server: string, tool: string, args: Record<string, unknown>) => Promise<{ isError: boolean; text: string }>;

describe('sandbox: temp files are each server\'s own (issue 27.2)', function () {
  this.timeout(90_000);
  let dir: string;
  let other: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-temp-'));
    for (const d of ['home', 'root', 'storage']) mkdirSync(path.join(dir, d));
    // Another program's temp file, straight in /tmp.
    other = path.join(os.tmpdir(), `mcp-other-program-${process.pid}-${Date.now()}.txt`);
    writeFileSync(other, 'OTHER-PROGRAM-SECRET');
  });
  afterEach(() => { rmSync(dir, { recursive: true, force: true }); rmSync(other, { force: true }); });

  async function withServers(sandbox: boolean, fn: (call: Call) => Promise<void>): Promise<void> {
    const port: SandboxPort = {
      runtime: process.execPath, cli: srtCli, storageDir: path.join(dir, 'storage'), protectedPaths: [path.join(dir, 'storage')], ripgrep: findRipgrep(),
      sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => true, allowUnsandboxed: () => false,
    };
    const t = createTestHost({ variables: { workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: path.join(dir, 'home'), env: process.env }, sandbox: port });
    t.roots.set(path.join(dir, 'root'));
    const decl = { ...node(fixtureServer('escapee')), ...sandbox ? { sandbox: true } : {} };
    try {
      await t.host.apply({ a: decl, b: decl });
      for (const name of ['a', 'b']) await waitForState(t.host.require(name), 'running', 30_000);
      await fn(async (server, tool, args) => { const r = await t.host.require(server).callTool(tool, args); return { isError: r.isError === true, text: text(r) }; });
    } finally { await t.host.shutdown(); }
  }

  /** Server a keeps a file in its temp folder, and one in srt's shared /tmp/claude; b tries to read them and /tmp. */
  async function attack(call: Call): Promise<Record<string, { isError: boolean; text: string }>> {
    const cwd = path.join(dir, 'root');
    const kept = await call('a', 'run', { command: 'sh', args: ['-c', 'echo A-TEMP-SECRET > "${TMPDIR:-/tmp}/a-secret" && echo "${TMPDIR:-/tmp}/a-secret"'], cwd });
    assert.equal(kept.isError, false, kept.text);
    const shared = path.join('/tmp/claude', `a-${process.pid}-${Date.now()}`);
    await call('a', 'run', { command: 'sh', args: ['-c', `mkdir -p /tmp/claude && echo A-SHARED-SECRET > ${shared}`], cwd });
    const own = await call('a', 'read-file', { path: kept.text.trim() });
    const result = {
      own, otherServer: await call('b', 'read-file', { path: kept.text.trim() }),
      otherProgram: await call('b', 'read-file', { path: other }), shared: await call('b', 'read-file', { path: shared }),
    };
    // Unsandboxed, the fixture's temp file lies in the real /tmp.
    for (const f of [shared, kept.text.trim()]) rmSync(f, { force: true });
    return result;
  }

  it('unsandboxed, one server reads the other\'s temp file and another program\'s file in /tmp (proof it tries)', async () => {
    await withServers(false, async call => {
      const r = await attack(call);
      assert.match(r.otherServer.text, /A-TEMP-SECRET/);
      assert.match(r.otherProgram.text, /OTHER-PROGRAM-SECRET/);
    });
  });

  it('sandboxed, each server has a temp folder of its own: the other server and other programs\' temp files are unreadable', async () => {
    await withServers(true, async call => {
      const r = await attack(call);
      assert.match(r.own.text, /A-TEMP-SECRET/, 'a server reads its own temp files');
      for (const [what, read] of Object.entries({ otherServer: r.otherServer, otherProgram: r.otherProgram, shared: r.shared })) {
        assert.equal(read.isError, true, `${what}: ${read.text}`);
        assert.doesNotMatch(read.text, /SECRET/, what);
      }
    });
  });
});

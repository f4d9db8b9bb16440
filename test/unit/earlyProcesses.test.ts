/**
 * Servers started before the host loaded (core/connection/earlyProcesses.ts): which declarations start
 * early (none that needs a question, the sandbox, development mode, a file read or Workspace Trust), and
 * that the host then runs exactly that process, never a second one; one that no longer matches, crashed
 * or was never taken is stopped. Real processes throughout (server-everything, `ps` for what is running).
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { EarlyProcesses, startEarlyProcesses, type VariableContext } from '../../src/core';
import { createTestHost, everythingBin, isAlive, marker, processesWith, repoRoot, text, waitFor, waitForState } from './helpers';

const ctx = (trusted = true): VariableContext => ({ workspaceFolders: [{ name: 'main', path: repoRoot }], trusted, userHome: os.homedir(), env: process.env });

describe('early processes (servers started while the host loads)', function () {
  this.timeout(60_000);
  const pools: EarlyProcesses[] = [];
  const pool = () => { const p = new EarlyProcesses(); pools.push(p); return p; };
  afterEach(async () => { await Promise.all(pools.splice(0).map(p => p.release())); });

  it('starts only the local servers whose start asks nothing and rewrites nothing', async () => {
    const m = marker();
    const everything = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [everythingBin, 'stdio', m], ...extra });
    const early = pool();
    await startEarlyProcesses({
      plain: everything(),
      withEnv: everything({ env: { GREETING: '${env:HOME}' }, cwd: '${workspaceFolder}' }),
      needsInput: everything({ env: { TOKEN: '${input:token}' } }),
      disabled: everything({ disabled: true }),
      sandboxed: everything({ sandbox: true }),
      developed: everything({ dev: { watch: 'src/**/*.js' } }),
      withEnvFile: everything({ envFile: '.env' }),
      remote: { url: 'http://127.0.0.1:9/mcp' },
      broken: { command: 42 },
    }, ctx(), false, early);
    assert.deepEqual(early.started.map(s => s.server).sort(), ['plain', 'withEnv']);
    assert.equal(processesWith(m).length, 2);
  });

  it('starts nothing that waits for Workspace Trust, and nothing at all when every server is sandboxed', async () => {
    const m = marker();
    const decls = {
      home: { command: process.execPath, args: [everythingBin, 'stdio', m] },
      folder: { command: process.execPath, args: [everythingBin, 'stdio', m], cwd: '${workspaceFolder}' },
      relative: { command: './node_modules/.bin/mcp-server-everything', args: [m] },
    };
    const untrusted = pool();
    await startEarlyProcesses(decls, ctx(false), false, untrusted);
    assert.deepEqual(untrusted.started.map(s => s.server), ['home']);
    const sandboxAll = pool();
    await startEarlyProcesses(decls, ctx(), true, sandboxAll);
    assert.deepEqual(sandboxAll.started, []);
  });

  it('the host runs the process started early for the same declaration: one process, working', async () => {
    const m = marker();
    const raw = { everything: { command: process.execPath, args: [everythingBin, 'stdio', m], env: { EARLY: 'yes' } } };
    const early = pool();
    await startEarlyProcesses(raw, ctx(), false, early);
    const [started] = early.started;
    assert.ok(started?.pid, 'spawned early');
    const { host, loggers } = createTestHost({ earlyProcesses: early });
    try {
      await host.apply(raw);
      const conn = host.require('everything');
      await waitForState(conn, 'running');
      assert.equal(conn.pid, started.pid, 'the host runs the early process');
      assert.deepEqual(processesWith(m), [started.pid], 'and no second one');
      assert.equal(text(await conn.callTool('echo', { message: 'hi' })), 'Echo: hi');
      assert.match(loggers.get('everything')!.text(), new RegExp(`Took over the process started while MCP Host was loading \\(pid ${started.pid}\\)`));
      // A restart spawns anew: the early process is handed over once.
      await conn.restart();
      await waitForState(conn, 'running');
      assert.notEqual(conn.pid, started.pid);
      await waitFor(() => !isAlive(started.pid!), 'the first process to be gone');
    } finally { await host.shutdown(); }
  });

  it('stops the early process when the host would start something else (settings changed meanwhile)', async () => {
    const m = marker();
    const early = pool();
    await startEarlyProcesses({ everything: { command: process.execPath, args: [everythingBin, 'stdio', m], env: { VERSION: '1' } } }, ctx(), false, early);
    const earlyPid = early.started[0].pid!;
    const { host } = createTestHost({ earlyProcesses: early });
    try {
      await host.apply({ everything: { command: process.execPath, args: [everythingBin, 'stdio', m], env: { VERSION: '2' } } });
      const conn = host.require('everything');
      await waitForState(conn, 'running');
      assert.notEqual(conn.pid, earlyPid);
      await waitFor(() => !isAlive(earlyPid), 'the early process to be stopped');
      assert.deepEqual(processesWith(m), [conn.pid]);
    } finally { await host.shutdown(); }
  });

  it('hands over no process that already exited, nor a command that does not exist: the host reports as usual', async () => {
    const early = pool();
    // Exits at once: `node -e` with a script that ends.
    await startEarlyProcesses({
      quits: { command: process.execPath, args: ['-e', 'process.exit(3)'] },
      missing: { command: path.join(os.tmpdir(), `no-such-server-${process.pid}`) },
    }, ctx(), false, early);
    assert.deepEqual(early.started.map(s => s.server).sort(), ['missing', 'quits']);
    const quitsPid = early.started.find(s => s.server === 'quits')!.pid!;
    await waitFor(() => !isAlive(quitsPid), 'the quitting process to exit');
    // Let the 'exit' and 'error' events arrive before the host asks.
    await new Promise(r => setTimeout(r, 50));
    assert.equal(early.take('quits', { command: process.execPath, args: ['-e', 'process.exit(3)'], env: {} }), undefined);
    const { host } = createTestHost({ earlyProcesses: early });
    try {
      await host.apply({ missing: { command: path.join(os.tmpdir(), `no-such-server-${process.pid}`) } });
      const conn = host.require('missing');
      await waitForState(conn, 'error');
      assert.match(conn.message ?? '', /command not found/);
    } finally { await host.shutdown(); }
  });

  it('release() stops every process no server took, and nothing starts after it', async () => {
    const m = marker();
    const early = pool();
    await startEarlyProcesses({ a: { command: process.execPath, args: [everythingBin, 'stdio', m] }, b: { command: process.execPath, args: [everythingBin, 'stdio', m, 'b'] } }, ctx(), false, early);
    const pids = early.started.map(s => s.pid!);
    assert.equal(pids.length, 2);
    await early.release();
    assert.deepEqual(pids.filter(isAlive), [], 'still running after release()');
    await startEarlyProcesses({ c: { command: process.execPath, args: [everythingBin, 'stdio', m] } }, ctx(), false, early);
    assert.equal(early.started.length, 2, 'a start after release()');
    assert.deepEqual(processesWith(m), []);
  });
});

/**
 * The 2026 `server/discover` probe of a stdio server (SECURITY.md "Server processes"): a server that
 * dies on the probe is a failure of that start, not a 2025-era answer, so its start-up (with whatever
 * side effects it has) runs once per attempt; a 2025-era server that really exits on a request before
 * `initialize` still starts, with `initialize` on its next start; and a start that times out while
 * the probe waits leaves no process behind.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTestHost, fixtureServer, marker, node, processesWith, waitFor, waitForState } from './helpers';

describe('era probe: a server that dies on server/discover', function () {
  this.timeout(60_000);
  let dir: string;
  let startLog: string;
  beforeEach(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-era-probe-')); startLog = path.join(dir, 'starts'); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const starts = () => { try { return readFileSync(startLog, 'utf8').split('\n').filter(Boolean).length; } catch { return 0; } };
  const noRestart = { restart: { maxRestarts: 0, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 50 } };

  it('attacker: a server that dies at start runs its start-up once, not again for initialize', async () => {
    const { host } = createTestHost({}, noRestart);
    try {
      void host.apply({ dies: { ...node(fixtureServer('crashing')), env: { FIXTURE_CRASH_ON_START: '1', FIXTURE_START_LOG: startLog } } });
      const conn = await waitFor(() => host.get('dies'), 'the server declared');
      await waitForState(conn, 'error');
      assert.match(conn.message ?? '', /exited with code 3/);
      await new Promise(r => setTimeout(r, 500));
      assert.equal(starts(), 1, 'one start-up for one attempt');
    } finally { await host.shutdown(); }
  });

  it('attacker: with automatic restarts, each attempt spawns the server once', async () => {
    const { host } = createTestHost({}, { restart: { maxRestarts: 2, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 50 } });
    try {
      void host.apply({ dies: { ...node(fixtureServer('crashing')), env: { FIXTURE_CRASH_ON_START: '1', FIXTURE_START_LOG: startLog } } });
      const conn = await waitFor(() => host.get('dies'), 'the server declared');
      await waitFor(() => conn.state === 'error' && /automatic restarts/.test(conn.message ?? ''), 'the restart budget spent', 20_000);
      await new Promise(r => setTimeout(r, 500));
      assert.equal(starts(), 3, 'the first start and two restarts, one process each');
    } finally { await host.shutdown(); }
  });

  it('a 2025-era server that exits on the probe still runs: its next start uses initialize, and later ones remember it', async () => {
    const { host, loggers } = createTestHost();
    try {
      void host.apply({ old: { ...node(fixtureServer('crashing')), env: { FIXTURE_EXIT_ON_DISCOVER: '1', FIXTURE_START_LOG: startLog } } });
      const conn = await waitFor(() => host.get('old'), 'the server declared');
      await waitForState(conn, 'running');
      assert.equal(conn.protocolVersion, '2025-11-25');
      assert.equal(starts(), 2, 'the start that died on the probe, then the one with initialize');
      assert.ok(loggers.get('old')!.lines.some(l => /server\/discover/.test(l.message) && /initialize/.test(l.message)), 'the log says why it starts again');
      await conn.restart();
      assert.equal(conn.state, 'running', conn.message);
      assert.equal(starts(), 3, 'a later start goes straight to initialize');
    } finally { await host.shutdown(); }
  });

  for (const protocol of [undefined, '2026-07-28'] as const) {
    it(`a start that times out while the probe waits ("protocol": ${protocol ?? '(auto)'}) leaves no process of the server`, async () => {
      const m = marker();
      const { host } = createTestHost({}, noRestart);
      try {
        void host.apply({
          mute: {
            ...node(fixtureServer('hanging'), m), startTimeout: 2, ...(protocol ? { protocol } : {}),
            env: { FIXTURE_HANG_DISCOVER: '1', FIXTURE_HANG_INIT: '1', FIXTURE_IGNORE_SIGTERM: '1' },
          },
        });
        await waitFor(() => processesWith(m).length || undefined, 'the server process spawned');
        const conn = host.require('mute');
        await waitForState(conn, 'error', 20_000);
        assert.match(conn.message ?? '', /Did not start within 2 s/);
        await waitFor(() => processesWith(m).length === 0, `the probed process gone (left: ${processesWith(m).join(', ')})`, 5000);
      } finally { await host.shutdown(); }
      assert.deepEqual(processesWith(m), []);
    });
  }
});

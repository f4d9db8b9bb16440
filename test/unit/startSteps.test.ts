/**
 * The start's steps (src/core/connection/start/), each cancelled by a stop while it runs: the process
 * is gone (or never spawned) and nothing the cancelled step finishes changes the state. The handshake
 * step's cancellation is in lifecycle.test.ts ("stop, restart and dispose during a start…").
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import { StartAttempt, StartCancelled } from '../../src/core/connection/start/attempt';
import { createTestHost, fixtureServer, marker, node, processesWith, repoRoot, text, waitFor, waitForState } from './helpers';

describe('start steps: each one cancelled by a stop', function () {
  this.timeout(30_000);

  it('the attempt: cancel ends what it owns once, owning after cancel ends it at once, check() throws', async () => {
    const attempt = new StartAttempt();
    const closed: string[] = [];
    const release = attempt.own(async () => { closed.push('a'); });
    attempt.own(async () => { closed.push('b'); })();
    assert.doesNotThrow(() => attempt.check());
    await Promise.all([attempt.cancel(), attempt.cancel()]);
    assert.deepEqual(closed, ['a'], 'a released one is not closed; an owned one once');
    release();
    attempt.own(async () => { closed.push('late'); });
    await new Promise(r => setImmediate(r));
    assert.deepEqual(closed, ['a', 'late']);
    assert.throws(() => attempt.check(), StartCancelled);
    assert.equal(attempt.signal.aborted, true);
  });

  it('prepare (an input still being asked for): stop, then the answer comes: nothing is spawned, the state stays stopped', async () => {
    const m = marker();
    const answers: Array<(v: string) => void> = [];
    const { host: current } = createTestHost({
      variables: {
        workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: os.homedir(), env: process.env,
        resolveInput: () => new Promise<string>(r => { answers.push(r); }),
      },
    });
    void current.apply({ s: { ...node(fixtureServer('crashing'), m), env: { TOKEN: '${input:token}' } } });
    await waitFor(() => answers.length === 1, 'the input asked for');
    const conn = current.require('s');
    try {
      assert.equal(conn.state, 'starting');
      const states: string[] = [];
      conn.onDidChangeState(e => states.push(e.state));
      await conn.stop();
      answers[0]('secret');
      await new Promise(r => setTimeout(r, 500));
      assert.deepEqual(processesWith(m), [], 'the cancelled start spawned nothing');
      assert.deepEqual(states, ['stopped']);
      // The next start asks again and runs.
      await Promise.all([conn.start(), waitFor(() => answers.length === 2, 'asked again').then(() => answers[1]('secret'))]);
      await waitForState(conn, 'running');
      assert.equal(text(await conn.callTool('echo', { text: 'ok' })), 'ok');
    } finally { await current.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });

  it('catalogues (the server is listing its tools): stop leaves no process and no running state', async () => {
    const m = marker();
    const { host } = createTestHost();
    const applied = host.apply({ p: { ...node(fixtureServer('paginated'), m), env: { FIXTURE_TOOLS: '2000', FIXTURE_PAGE_SIZE: '1' } } });
    const conn = host.require('p');
    try {
      await waitFor(() => conn.pid !== undefined || undefined, 'the client wired (catalogues loading)');
      assert.equal(conn.state, 'starting');
      const states: string[] = [];
      conn.onDidChangeState(e => states.push(e.state));
      await conn.stop();
      await applied;
      await waitFor(() => processesWith(m).length === 0, 'the process gone', 2000);
      await new Promise(r => setTimeout(r, 300));
      assert.deepEqual(states, ['stopped']);
    } finally { await host.shutdown(); }
  });
});

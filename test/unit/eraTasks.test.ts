/**
 * The tasks extension of 2026-07-28 (io.modelcontextprotocol/tasks) against the era2026 fixture
 * (test/fixtures/servers/era2026Tasks.ts): a tool call that comes back as a task is followed to its
 * end, its status reaches `onTaskStatus`, its input requests reach the elicitation port, cancelling
 * reaches the server as `tasks/cancel`. The hostile half: a task that never ends, polls asked for
 * without pause, and `tasks/get` answers that lie about the task's id, status or result.
 */
import * as assert from 'node:assert/strict';
import type { ElicitationHandler } from '../../src/core';
import { MIN_POLL_MS } from '../../src/core/connection/taskPolling';
import { TASK_HANDOFF_CODE, TaskHandoff } from '../../src/core/connection/taskHandoff';
import { createTestHost, fixtureServer, node, text } from './helpers';

interface TaskLog { cancelled: string[]; polls: Record<string, number>; minGapMs: number | null; updates: unknown[] }

describe('tasks extension (2026-07-28)', function () {
  this.timeout(60_000);

  async function withEra<T>(run: (s: ReturnType<ReturnType<typeof createTestHost>['host']['require']>, asked: string[]) => Promise<T>, opts: { protocol?: string; maxTotalTimeoutMs?: number } = {}): Promise<T> {
    const asked: string[] = [];
    const elicitation: ElicitationHandler = async (server, params) => {
      asked.push(`${server.name}:${params.message}`);
      return { action: 'accept', content: { name: 'Ada' } };
    };
    const { host } = createTestHost({ elicitation }, opts.maxTotalTimeoutMs ? { maxTotalTimeoutMs: opts.maxTotalTimeoutMs } : {});
    try {
      await host.apply({ era: { ...node(fixtureServer('era2026')), ...(opts.protocol ? { protocol: opts.protocol } : {}) } });
      const s = host.require('era');
      assert.equal(s.state, 'running', s.message);
      return await run(s, asked);
    } finally { await host.shutdown(); }
  }
  const taskLog = async (s: { callTool(name: string, args?: Record<string, unknown>): Promise<{ content?: unknown[] }> }) => JSON.parse(text(await s.callTool('task-log', {}))) as TaskLog;

  it('a tool call answered with a task is polled to its end; each status reaches onTaskStatus', () => withEra(async s => {
    assert.equal(s.protocolVersion, '2026-07-28');
    const statuses: string[] = [];
    const r = await s.callTool('slow-task', { polls: 3, label: 'a' }, { onTaskStatus: t => statuses.push(`${t.status}:${t.statusMessage ?? ''}`) });
    assert.equal(text(r), 'DONE a after 3 polls');
    assert.deepEqual(statuses, ['working:a: working (0/3)', 'working:a: working (1/3)', 'working:a: working (2/3)', 'completed:a: completed (3/3)']);
  }));

  it('the same tool on a 2025-11-25 connection (no tasks extension) answers at once, without a task', () => withEra(async s => {
    assert.equal(s.protocolVersion, '2025-11-25');
    const statuses: string[] = [];
    assert.equal(text(await s.callTool('slow-task', { label: 'b' }, { onTaskStatus: t => statuses.push(t.status) })), 'DONE b at once');
    assert.deepEqual(statuses, []);
  }, { protocol: '2025-11-25' }));

  it('a task\'s input request goes to the elicitation port and its answer to the server with tasks/update', () => withEra(async (s, asked) => {
    const statuses: string[] = [];
    assert.equal(text(await s.callTool('ask-task', {}, { onTaskStatus: t => statuses.push(t.status) })), 'Hello, Ada!');
    assert.deepEqual(asked, ['era:Who runs this task?'], 'asked once, although the request was seen on more than one poll');
    assert.ok(statuses.includes('input_required'), statuses.join());
    assert.deepEqual((await taskLog(s)).updates, [{ name: { action: 'accept', content: { name: 'Ada' } } }]);
  }));

  it('cancelling the call sends tasks/cancel; a server asking to be polled without pause is polled at most every MIN_POLL_MS', () => withEra(async s => {
    const ac = new AbortController();
    let seen = 0;
    const call = s.callTool('endless-task', { label: 'c' }, { signal: ac.signal, onTaskStatus: () => { if (++seen === 4) ac.abort(); } });
    await assert.rejects(call, (e: Error) => e.name === 'AbortError' || /aborted|cancel/i.test(e.message));
    const log = await taskLog(s);
    assert.deepEqual(log.cancelled, ['c']);
    assert.equal(log.polls.c, 3, 'no poll after the cancel');
    // pollIntervalMs 0 asks for a busy loop; the host waits its floor (minus a timer's millisecond of jitter).
    assert.ok(log.minGapMs !== null && log.minGapMs >= MIN_POLL_MS - 5, `polls ${log.minGapMs} ms apart`);
  }));

  it('a task that never ends is cancelled when the host\'s total request time runs out', () => withEra(async s => {
    await assert.rejects(s.callTool('endless-task', { label: 'd' }), /era: the task "[0-9a-f-]+" did not finish within 1\.5 s, the longest a request may take; it was cancelled\./);
    assert.deepEqual((await taskLog(s)).cancelled, ['d']);
  }, { maxTotalTimeoutMs: 1500 }));

  it('tasks/get answers that lie about the task (another id, an unknown status, completed without a result) are errors, and the task is cancelled', () => withEra(async s => {
    await assert.rejects(s.callTool('lying-task', { lie: 'other-id' }), /era: tasks\/get for task "[0-9a-f-]+" answered with another task \("[0-9a-f-]+"\)\./);
    await assert.rejects(s.callTool('lying-task', { lie: 'bad-status' }), /era: The answer to tasks\/get is not a valid task: unknown status "exploded"\./);
    await assert.rejects(s.callTool('lying-task', { lie: 'no-result' }), /era: The answer to tasks\/get is not a valid task: status "completed" without "result"\./);
    assert.deepEqual((await taskLog(s)).cancelled, ['lying-other-id', 'lying-bad-status', 'lying-no-result']);
  }));

  it('a server cannot forge the transport\'s task handoff: an error with the handoff code but not its key is no task', () => {
    const handoff = new TaskHandoff();
    handoff.active = true;
    handoff.sent({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'x' } });
    // The server's own error with our code and a plausible payload passes through untouched and redeems nothing.
    const forged = { jsonrpc: '2.0' as const, id: 7, error: { code: TASK_HANDOFF_CODE, message: 'task', data: { 'mcp-host/task': 'guess' } } };
    assert.equal(handoff.received(forged), forged);
    assert.equal(handoff.take(Object.assign(new Error('x'), forged.error)), undefined);
    // A task answer to a call we did not send (or a second answer to one) is not swapped either.
    const stray = { jsonrpc: '2.0' as const, id: 8, result: { resultType: 'task', taskId: 't' } };
    assert.equal(handoff.received(stray), stray);
    // The real thing: swapped once, redeemed once.
    handoff.sent({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'x' } });
    const swapped = handoff.received({ jsonrpc: '2.0', id: 9, result: { resultType: 'task', taskId: 't9' } });
    assert.ok('error' in swapped);
    const err = Object.assign(new Error(swapped.error.message), swapped.error);
    assert.deepEqual(handoff.take(err), { resultType: 'task', taskId: 't9' });
    assert.equal(handoff.take(err), undefined);
  });
});

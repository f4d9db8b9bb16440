/** The host: apply() diffs, problems beside running servers, parallel start, clean shutdown. */
import * as assert from 'node:assert/strict';
import { createTestHost, everythingBin, fixtureServer, marker, node, processesWith, text } from './helpers';

describe('host', function () {
  this.timeout(30_000);

  it('runs the good servers and reports the broken ones by name and field', async () => {
    const { host } = createTestHost();
    try {
      const r = await host.apply({
        good: node(fixtureServer('crashing')),
        broken: { command: 'node', args: [1, {}] },
        unknownVar: { command: 'node', args: ['${nope}'] },
      });
      assert.deepEqual(host.servers.map(s => s.name), ['good']);
      assert.equal(host.require('good').state, 'running');
      assert.deepEqual(r.problems.map(p => [p.server, p.field]), [['broken', 'args[1]'], ['unknownVar', 'args[0]']]);
      assert.deepEqual(host.problems, r.problems);
      assert.throws(() => host.require('broken'), /broken: no server with this name is configured \(configured: good\)/);
    } finally { await host.shutdown(); }
  });

  it('restarts only the servers whose declaration changed', async () => {
    const { host } = createTestHost();
    try {
      const a = node(fixtureServer('crashing'));
      const b = node(fixtureServer('crashing'), '--b');
      await host.apply({ a, b, c: node(fixtureServer('crashing')) });
      const pids = Object.fromEntries(host.servers.map(s => [s.name, s.pid]));
      const r = await host.apply({ a, b: { ...b, args: [...b.args, '--changed'] }, d: node(fixtureServer('crashing')) });
      assert.deepEqual(r.restarted, ['b']);
      assert.deepEqual(r.started, ['d']);
      assert.deepEqual(r.stopped, ['c']);
      assert.equal(host.require('a').pid, pids.a, 'unchanged server kept its process');
      assert.notEqual(host.require('b').pid, pids.b);
      assert.deepEqual(host.servers.map(s => s.name).sort(), ['a', 'b', 'd']);
    } finally { await host.shutdown(); }
  });

  it('keeps disabled servers stopped and starts them when enabled', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ a: { ...node(fixtureServer('crashing')), disabled: true } });
      assert.equal(host.require('a').state, 'stopped');
      await host.apply({ a: node(fixtureServer('crashing')) });
      assert.equal(host.require('a').state, 'running');
      await host.apply({ a: { ...node(fixtureServer('crashing')), disabled: true } });
      assert.equal(host.require('a').state, 'stopped');
    } finally { await host.shutdown(); }
  });

  it('waits for a starting server before sending a request', async () => {
    const { host } = createTestHost();
    try {
      const applied = host.apply({ a: node(fixtureServer('crashing')) });
      const s = host.require('a');
      assert.equal(s.state, 'starting');
      assert.equal(text(await s.callTool('echo', { text: 'early' })), 'early');
      await applied;
    } finally { await host.shutdown(); }
  });

  it('leaves no child process behind after shutdown', async () => {
    const { host } = createTestHost();
    const m = marker();
    let grandchild = 0;
    try {
    await host.apply({
      // server-everything reads its first argument as the transport name.
      e: node(everythingBin, 'stdio', m),
      c: { ...node(fixtureServer('crashing'), m), env: { FIXTURE_SPAWN_GRANDCHILD: '1' } },
      h: { ...node(fixtureServer('hanging'), m), env: { FIXTURE_IGNORE_SIGTERM: '1' } },
    });
    assert.deepEqual(host.servers.map(s => s.state), ['running', 'running', 'running']);
    assert.equal(processesWith(m).length, 3, 'three servers');
    grandchild = (JSON.parse(text(await host.require('c').callTool('pid', {}))) as { grandchildPid: number }).grandchildPid;
    } finally {
      await host.shutdown();
    }
    assert.deepEqual(processesWith(m), [], 'no server process remains');
    assert.throws(() => process.kill(grandchild, 0), 'grandchild is gone');
  });
});

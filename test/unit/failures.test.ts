/** Crashes, hangs, noise and bad input: each stays inside its server while the host keeps going. */
import * as assert from 'node:assert/strict';
import { createTestHost, fixtureServer, isAlive, marker, node, processesWith, text, waitFor, waitForState } from './helpers';
import { LogLevel } from '../../src/core';

describe('failures: crashes', function () {
  this.timeout(30_000);

  it('restarts a crashed server automatically and it serves again', async () => {
    const { host, loggers } = createTestHost();
    try {
      await host.apply({ c: node(fixtureServer('crashing')) });
      const s = host.require('c');
      const pid1 = s.pid;
      const states: string[] = [];
      s.onDidChangeState(e => states.push(e.state));
      await assert.rejects(s.callTool('crash', { code: 7 }), /c: tools\/call failed: the process exited with code 7/);
      await waitForState(s, 'running');
      assert.deepEqual(states, ['starting', 'running']);
      assert.notEqual(s.pid, pid1);
      assert.equal(text(await s.callTool('echo', { text: 'back' })), 'back');
      // A sentence in words, not "Server the process exited …" (issue 30 item 10).
      assert.match(loggers.get('c')!.text(), /^warn The process exited with code 7; restarting in \d+ ms \(attempt 1 of 3\)$/m);
    } finally { await host.shutdown(); }
  });

  it('rejects a request in flight at once when the server dies mid-request', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ c: { ...node(fixtureServer('crashing')), timeout: 20 } });
      const s = host.require('c');
      const t0 = Date.now();
      await assert.rejects(s.callTool('crash-later', { ms: 200, code: 2 }), (e: Error) => {
        assert.match(e.message, /^c: tools\/call failed: the process exited with code 2 before the server answered/);
        return true;
      });
      assert.ok(Date.now() - t0 < 5000, 'did not wait for the 20 s timeout');
    } finally { await host.shutdown(); }
  });

  it('stops restarting after the budget and stays in error until started by hand', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ c: { ...node(fixtureServer('crashing')), env: { FIXTURE_CRASH_ON_START: '1' } } });
      const s = host.require('c');
      await waitForState(s, 'error');
      assert.match(s.message!, /Stopped after 3 automatic restarts within 60 s \(last: exited during initialization: the process exited with code 3\)/);
      // A manual start resets the budget and tries again.
      const p = s.start();
      assert.equal(s.state, 'starting');
      await p;
      await waitForState(s, 'error');
    } finally { await host.shutdown(); }
  });

  it('kills the rest of the process group when the server dies by kill -9 (no orphans)', async () => {
    const { host } = createTestHost();
    const m = marker();
    try {
      await host.apply({ c: { ...node(fixtureServer('crashing'), m), env: { FIXTURE_SPAWN_GRANDCHILD: '1' } } });
      const s = host.require('c');
      const { pid, grandchildPid } = JSON.parse(text(await s.callTool('pid', {}))) as { pid: number; grandchildPid: number };
      assert.ok(isAlive(pid) && isAlive(grandchildPid));
      // The attacker's (or the OOM killer's) move: the leader dies without a chance to clean up.
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !isAlive(grandchildPid), 'the crashed server\'s grandchild gone', 10_000);
      await waitForState(s, 'running');
      assert.notEqual(s.pid, pid);
    } finally { await host.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });

  it('a call made while a crashed server restarts waits for the restart and gets the restarted server\'s answer', async () => {
    const { host } = createTestHost({}, { restart: { maxRestarts: 3, windowMs: 60_000, baseDelayMs: 300, maxDelayMs: 300 } });
    try {
      await host.apply({ c: node(fixtureServer('crashing')) });
      const s = host.require('c');
      await assert.rejects(s.callTool('crash', {}));
      assert.equal(s.state, 'starting');
      assert.equal(s.tool('echo'), undefined, 'the catalogue is empty until the restart lists it again');
      assert.equal(text(await s.callTool('echo', { text: 'after restart' })), 'after restart');
      assert.equal(s.state, 'running');
    } finally { await host.shutdown(); }
  });

  it('a call made while a crashed server restarts fails after its timeout saying the server is restarting', async () => {
    // A restart far off: the call's own timeout must end the wait, with words that say why.
    const { host } = createTestHost({}, { restart: { maxRestarts: 3, windowMs: 60_000, baseDelayMs: 20_000, maxDelayMs: 20_000 } });
    try {
      await host.apply({ c: { ...node(fixtureServer('crashing')), timeout: 0.5, startTimeout: 15 } });
      const s = host.require('c');
      await assert.rejects(s.callTool('crash', {}));
      assert.equal(s.state, 'starting');
      await assert.rejects(s.callTool('echo', { text: 'x' }), (e: Error) => {
        assert.match(e.message, /^c: cannot send tools\/call: the server is still restarting after 500 ms \(the process exited with code 1; restarting in 20 s \(attempt 1 of 3\)\)\.$/);
        return true;
      });
      const ac = new AbortController();
      const p = s.readResource('x://y', { signal: ac.signal });
      ac.abort();
      await assert.rejects(p, /^Error: c: resources\/read was cancelled$|c: resources\/read was cancelled/);
      assert.equal(s.state, 'starting');
    } finally { await host.shutdown(); }
  });

  it('kills the whole process tree on stop', async () => {
    const { host } = createTestHost();
    const m = marker();
    try {
      await host.apply({ c: { ...node(fixtureServer('crashing'), m), env: { FIXTURE_SPAWN_GRANDCHILD: '1' } } });
      const s = host.require('c');
      const { pid, grandchildPid } = JSON.parse(text(await s.callTool('pid', {}))) as { pid: number; grandchildPid: number };
      assert.ok(isAlive(pid) && isAlive(grandchildPid));
      await s.stop();
      assert.equal(s.state, 'stopped');
      await waitFor(() => !isAlive(pid) && !isAlive(grandchildPid), 'server and grandchild gone', 5000);
    } finally { await host.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });
});

describe('failures: hangs and timeouts', function () {
  this.timeout(30_000);

  it('times out a hanging request, cancels it on the server, and keeps the connection', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ h: { ...node(fixtureServer('hanging')), timeout: 0.3, startTimeout: 15 } });
      const s = host.require('h');
      await assert.rejects(s.callTool('hang', {}), /h: tools\/call timed out after 300 ms; the request was cancelled/);
      const ac = new AbortController();
      const p = s.callTool('hang', {}, { signal: ac.signal, timeoutMs: 10_000 });
      setTimeout(() => ac.abort(), 100);
      // The caller's cancel is not a timeout.
      await assert.rejects(p, (e: Error) => { assert.equal(e.message, 'h: tools/call was cancelled'); return true; });
      await waitFor(async () => (JSON.parse(text(await s.callTool('cancelled-count', {}))) as { hangCancelled: number }).hangCancelled === 2, 'both cancellations seen by the server');
      assert.equal(s.state, 'running');
    } finally { await host.shutdown(); }
  });

  it('lets progress reset the timeout', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ h: { ...node(fixtureServer('hanging')), timeout: 0.4, startTimeout: 15 } });
      const s = host.require('h');
      let n = 0;
      const r = await s.callTool('slow', { ms: 1200, progressEvery: 100 }, { onprogress: () => n++ });
      assert.ok(!r.isError);
      assert.ok(n >= 5, `progress seen ${n} times`);
      await assert.rejects(s.callTool('slow', { ms: 1200 }), /timed out/);
    } finally { await host.shutdown(); }
  });

  it('gives up on a server that never answers initialize and kills it', async () => {
    const { host } = createTestHost({}, { startTimeoutMs: 1500 });
    const m = marker();
    try {
      await host.apply({ h: { ...node(fixtureServer('hanging'), m), env: { FIXTURE_HANG_INIT: '1' } } });
      const s = host.require('h');
      assert.equal(s.state, 'error');
      assert.match(s.message!, /Did not start within 1\.5 s \(no answer to initialize\); the server was stopped/);
      await waitFor(() => processesWith(m).length === 0, 'hung server killed', 5000);
    } finally { await host.shutdown(); }
  });

  it('bounds the start by the declared startTimeout or timeout, not the host default, and never cancels initialize', async function () {
    // The host default is 60 s: only the declared values can end these starts within the test's timeout.
    this.timeout(20_000);
    const { host, loggers } = createTestHost({}, { startTimeoutMs: 60_000 }, LogLevel.Trace);
    const m = marker();
    try {
      const hang = { ...node(fixtureServer('hanging'), m), env: { FIXTURE_HANG_INIT: '1' } };
      await host.apply({ byTimeout: { ...hang, timeout: 0.5 }, byStartTimeout: { ...hang, timeout: 600, startTimeout: 0.4 } });
      assert.equal(host.require('byTimeout').state, 'error');
      assert.match(host.require('byTimeout').message!, /^Did not start within 500 ms \(no answer to initialize\); the server was stopped\./);
      assert.equal(host.require('byStartTimeout').state, 'error');
      assert.match(host.require('byStartTimeout').message!, /^Did not start within 400 ms /);
      for (const name of ['byTimeout', 'byStartTimeout']) {
        const trace = loggers.get(name)!.text();
        assert.match(trace, /→ \{"method":"initialize"/, 'the trace shows what the host sent');
        // Spec (cancellation): the initialize request must not be cancelled by the client.
        assert.doesNotMatch(trace, /notifications\/cancelled/);
      }
      await waitFor(() => processesWith(m).length === 0, 'hung servers killed', 5000);
    } finally { await host.shutdown(); }
  });

  it('escalates to SIGKILL for a server that ignores SIGTERM', async () => {
    const { host } = createTestHost();
    const m = marker();
    try {
      await host.apply({ h: { ...node(fixtureServer('hanging'), m), env: { FIXTURE_IGNORE_SIGTERM: '1' } } });
      assert.equal(processesWith(m).length, 1);
      await host.require('h').stop();
      assert.deepEqual(processesWith(m), []);
    } finally { await host.shutdown(); }
  });
});

describe('failures: noise, logs and environment', function () {
  this.timeout(30_000);

  it('logs garbage stdout lines and stderr floods while the connection survives', async () => {
    const { host, loggers } = createTestHost();
    try {
      await host.apply({ n: { ...node(fixtureServer('noisy')), env: { FIXTURE_STDERR_LINES: '3000' } } });
      const s = host.require('n');
      assert.equal(s.state, 'running', s.message);
      await s.callTool('garbage', {});
      assert.equal(s.state, 'running');
      const log = loggers.get('n')!;
      await waitFor(() => log.text().includes('stderr-marker'), 'stderr marker');
      assert.ok(log.lines.filter(l => l.message.startsWith('[stderr]')).length >= 3000, 'every stderr line is logged');
      assert.ok(log.lines.filter(l => l.message.startsWith('[stderr]')).every(l => l.level === 'info'), 'stderr is output, not errors');
      assert.ok(log.lines.some(l => l.level === 'warn' && /\[stdout\] ignored a line that is not JSON-RPC/.test(l.message)));
    } finally { await host.shutdown(); }
  });

  it('maps notifications/message levels and follows the logger level with logging/setLevel', async () => {
    const { host, loggers } = createTestHost({}, {}, LogLevel.Info);
    try {
      await host.apply({ n: { ...node(fixtureServer('noisy')), env: { FIXTURE_STDERR_LINES: '0' } } });
      const s = host.require('n');
      const log = loggers.get('n')!;
      await waitFor(async () => text(await s.callTool('get-log-level', {})).includes('info'), 'level info sent at start');
      await s.callTool('log', { level: 'warning', message: 'careful', logger: 'fx' });
      await s.callTool('log', { level: 'error', message: 'broken' });
      await waitFor(() => log.text().includes('broken'), 'messages');
      assert.ok(log.lines.some(l => l.level === 'warn' && l.message === '[fx] careful'));
      assert.ok(log.lines.some(l => l.level === 'error' && l.message.endsWith('broken')));
      log.setLevel(LogLevel.Error);
      await waitFor(async () => text(await s.callTool('get-log-level', {})).includes('error'), 'level follows the logger');
    } finally { await host.shutdown(); }
  });

  it('gives stdio servers a minimal environment plus what they declare, and the declared cwd', async () => {
    const { host } = createTestHost();
    process.env.MCP_HOST_TEST_EDITOR_SECRET = 'should-not-leak';
    try {
      await host.apply({ n: { ...node(fixtureServer('noisy')), env: { FIXTURE_STDERR_LINES: '0', DECLARED: 'yes', HOME: null }, cwd: 'test' } });
      const s = host.require('n');
      const env = JSON.parse(text(await s.callTool('env', {}))) as Record<string, string>;
      assert.equal(env.DECLARED, 'yes');
      assert.equal(env.MCP_HOST_TEST_EDITOR_SECRET, undefined, 'editor environment is not inherited');
      assert.equal(env.HOME, undefined, 'null removes a default variable');
      assert.ok(env.PATH);
      assert.match(text(await s.callTool('cwd', {})), /\/test$/);
    } finally {
      delete process.env.MCP_HOST_TEST_EDITOR_SECRET;
      await host.shutdown();
    }
  });

  it('reports a command that does not exist without retrying', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ missing: { command: 'definitely-not-a-command-xyz' } });
      const s = host.require('missing');
      assert.equal(s.state, 'error');
      assert.match(s.message!, /command not found/);
      assert.equal(s.message, 'Could not start "definitely-not-a-command-xyz": command not found. Check that it is installed and on PATH.');
      await assert.rejects(s.callTool('x'), /missing: cannot send tools\/call: the server failed: Could not start "definitely-not-a-command-xyz": command not found/);
    } finally { await host.shutdown(); }
  });

  it('says which part of the launch is wrong: a missing cwd is not a missing command, an oversized argument list is named', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({
        noCwd: { ...node(fixtureServer('noisy')), cwd: '/nonexistent-mcp-host-dir' },
        hugeArgs: node(fixtureServer('noisy'), 'x'.repeat(300_000)),
      });
      const noCwd = host.require('noCwd');
      assert.equal(noCwd.state, 'error');
      assert.equal(noCwd.message, `Could not start "${process.execPath}": the working directory (cwd) "/nonexistent-mcp-host-dir" does not exist.`);
      const huge = host.require('hugeArgs');
      assert.equal(huge.state, 'error');
      assert.match(huge.message!, /^Could not start ".*": its arguments and environment are too long for the system \(2 arguments, about \d+ KB with the environment\)\. Shorten "args" or "env"\.$/);
      assert.doesNotMatch(huge.message!, /E2BIG|Could not start: Could not start/);
    } finally { await host.shutdown(); }
  });
});

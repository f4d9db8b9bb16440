/**
 * The start's steps (src/core/connection/start/), each cancelled by a stop while it runs: the process
 * is gone (or never spawned) and nothing the cancelled step finishes changes the state. The handshake
 * step's cancellation is in lifecycle.test.ts ("stop, restart and dispose during a start…").
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import { HeadlessUserAgent, MemorySecretStore, type AuthPort, type AuthUserAgent, type HostPorts } from '../../src/core';
import { StartAttempt, StartCancelled } from '../../src/core/connection/start/attempt';
import { createTestHost, fixtureServer, marker, node, processesWith, repoRoot, startHttpFixture, text, waitFor, waitForState } from './helpers';

/** An HTTP endpoint that takes every request and never answers: what is open is whatever the start left open. */
async function silentServer(answer?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean) {
  const open = new Set<http.IncomingMessage>();
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.method ?? '');
    if (answer?.(req, res)) return;
    open.add(req);
    req.socket.once('close', () => open.delete(req));
  });
  await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, open, seen, close: () => { server.closeAllConnections(); return new Promise(r => server.close(r)); } };
}


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

  it('open transport (Streamable HTTP: the server took the request and never answers): stop closes the connection, no late state', async () => {
    const silent = await silentServer();
    const { host } = createTestHost({}, { startTimeoutMs: 60_000 });
    const applied = host.apply({ h: { type: 'http', url: silent.url } });
    const conn = host.require('h');
    try {
      await waitFor(() => silent.open.size > 0, 'the first request in flight');
      const states: string[] = [];
      conn.onDidChangeState(e => states.push(e.state));
      await conn.stop();
      await applied;
      await waitFor(() => silent.open.size === 0, 'every request the start made closed', 3000);
      await new Promise(r => setTimeout(r, 300));
      assert.deepEqual(states, ['stopped']);
    } finally { await host.shutdown(); await silent.close(); }
  });

  it('open transport (the fallback to legacy SSE: its event stream opened, no endpoint sent yet): stop closes it, no late state', async () => {
    // Streamable HTTP refused with 405, as a 2024 server does; the SSE GET then hangs without an `endpoint` event.
    const silent = await silentServer((req, res) => {
      if (req.method === 'GET') { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.flushHeaders(); return false; }
      res.writeHead(405).end();
      return true;
    });
    const { host } = createTestHost({}, { startTimeoutMs: 60_000 });
    const applied = host.apply({ h: { type: 'http', url: silent.url } });
    const conn = host.require('h');
    try {
      await waitFor(() => silent.seen.includes('GET') && silent.open.size > 0, 'the SSE stream open');
      const states: string[] = [];
      conn.onDidChangeState(e => states.push(e.state));
      await conn.stop();
      await applied;
      await waitFor(() => silent.open.size === 0, 'the SSE stream closed', 3000);
      await new Promise(r => setTimeout(r, 300));
      assert.deepEqual(states, ['stopped']);
    } finally { await host.shutdown(); await silent.close(); }
  });

  it('wait for sign-in (the person never finishes): stop ends the wait, the state stays stopped, and a sign-in later still works', async () => {
    let child: ChildProcess | undefined;
    const fixture = await startHttpFixture('oauth', [], {});
    child = fixture.child;
    const headless = new HeadlessUserAgent();
    const asked: unknown[] = [];
    let finish = false;
    const person: AuthUserAgent = {
      openChannel: async (server, preferred) => {
        const channel = await headless.openChannel(server, preferred);
        return { ...channel, authorize: async r => { asked.push(r); if (!finish) await new Promise(() => {}); return channel.authorize(r); } };
      },
    };
    const auth: AuthPort = { userAgent: person, clientMetadata: { client_name: 'MCP Host tests' }, store: new MemorySecretStore() };
    const { host } = createTestHost({ auth } as Partial<HostPorts>);
    try {
      await host.apply({ o: { type: 'http', url: fixture.url } });
      const conn = host.require('o');
      assert.equal(conn.needsSignIn, true);
      const signIn = conn.signIn().then(() => 'settled', () => 'settled');
      await waitFor(() => asked.length === 1, 'the person asked to sign in');
      const states: string[] = [];
      conn.onDidChangeState(e => states.push(e.state));
      await conn.stop();
      assert.equal(await Promise.race([signIn, new Promise(r => setTimeout(() => r('still waiting'), 3000))]), 'settled', 'the sign-in wait ended with the stop');
      await new Promise(r => setTimeout(r, 300));
      assert.deepEqual(states, ['stopped']);
      finish = true;
      await conn.signIn();
      assert.equal(conn.state, 'running', conn.message);
    } finally { await host.shutdown(); child?.kill(); }
  });

  it('handshake timer: a legacy SSE server that opens its stream and never names an endpoint ends in a timeout, not a start that never ends', async () => {
    const silent = await silentServer((req, res) => {
      if (req.method === 'GET') { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.flushHeaders(); return false; }
      res.writeHead(405).end();
      return true;
    });
    const { host } = createTestHost({}, { startTimeoutMs: 1500 });
    try {
      await host.apply({ h: { type: 'http', url: silent.url } });
      const conn = host.require('h');
      assert.equal(conn.state, 'error');
      assert.match(conn.message ?? '', /Did not start within/);
      await waitFor(() => silent.open.size === 0, 'the SSE stream closed', 3000);
    } finally { await host.shutdown(); await silent.close(); }
  });
});


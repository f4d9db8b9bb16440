/**
 * The gateway's sessions are bounded (attacker tests): a client with a valid token that opens
 * sessions and never ends them (the SDK client's `close()` sends no DELETE) must not make the window
 * hold a server-side session for each, and must not cost another client its sessions.
 */
import * as assert from 'node:assert/strict';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { startGateway, type Gateway, type GatewayEndpoint, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger, text, waitFor } from './helpers';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const heapAfterGc = async (): Promise<number> => {
  for (let i = 0; i < 4; i++) { gc(); await new Promise(r => setImmediate(r)); }
  return process.memoryUsage().heapUsed;
};

const WINDOW = { id: 'window-flood', label: 'Window', kind: 'window' as const };
const OTHER = { id: 'window-other', label: 'Other window', kind: 'window' as const };

/** Opens a session and walks away from it, as a client that never sends DELETE does. */
async function abandon(endpoint: GatewayEndpoint): Promise<void> {
  const c = await connect(endpoint);
  await c.close();
}

async function abandonMany(endpoint: GatewayEndpoint, n: number, parallel = 16): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: parallel }, async () => { while (next++ < n) await abandon(endpoint); }));
}

const sessionOf = (c: Client) => (c.transport as StreamableHTTPClientTransport).sessionId;

describe('gateway sessions are bounded (attacker tests)', function () {
  this.timeout(300_000);
  let host: McpHost;
  const gateways: Gateway[] = [];
  const clients: Client[] = [];

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({ echo: node(fixtureServer('crashing')), slow: node(fixtureServer('hanging')) });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map(c => c.close().catch(() => undefined)));
    for (const g of gateways.splice(0)) g.dispose();
  });
  after(async () => { await host.shutdown(); });

  const gatewayWith = async (sessionLimits?: Parameters<typeof startGateway>[0]['sessionLimits']) => {
    const g = await startGateway({ host, logger: new RecordingLogger(), ...(sessionLimits ? { sessionLimits } : {}) });
    gateways.push(g);
    return g;
  };
  const open = async (endpoint: GatewayEndpoint) => { const c = await connect(endpoint); clients.push(c); return c; };

  it('2,000 sessions opened and abandoned keep the heap bounded, and an active session survives them (shipped limits)', async () => {
    const gateway = await gatewayWith();
    const endpoint = gateway.endpoint('echo', WINDOW);
    const active = await open(endpoint);
    const id = sessionOf(active);
    await abandonMany(endpoint, 10);
    const baseline = await heapAfterGc();
    for (let round = 0; round < 4; round++) {
      await abandonMany(endpoint, 500);
      assert.match(text(await active.callTool({ name: 'echo', arguments: { text: `still here ${round}` } })), new RegExp(`still here ${round}`));
    }
    const grown = (await heapAfterGc()) - baseline;
    // Unbounded, 2,000 sessions hold ≈ 160 MB (≈ 80 kB each); the bound keeps at most 128 of a client.
    assert.ok(grown < 24 * 1024 * 1024, `the heap grew by ${(grown / 1048576).toFixed(1)} MB over 2,000 abandoned sessions`);
    assert.equal(sessionOf(active), id, 'the active session is the one it opened');
  });

  it('refuses a new session with a clear error once all of a client\'s sessions are in use; DELETE frees one; other clients are not affected', async () => {
    const gateway = await gatewayWith({ perClient: 3, total: 5 });
    const endpoint = gateway.endpoint('slow', WINDOW);
    const hangs = async () => JSON.parse(text(await host.require('slow').callTool('cancelled-count'))) as { hangStarted: number };
    const started = (await hangs()).hangStarted;
    // Each of these sessions has a call in flight: in use, so never replaced by a new one.
    const held = [await open(endpoint), await open(endpoint), await open(endpoint)];
    for (const c of held) void c.callTool({ name: 'hang', arguments: {} }, { timeout: 600_000 }).catch(() => undefined);
    await waitFor(async () => (await hangs()).hangStarted >= started + 3, 'the three calls to be running');
    await assert.rejects(connect(endpoint), (e: Error) => /Window has 3 MCP sessions open and in use/.test(e.message) && /HTTP DELETE/.test(e.message));
    for (const c of held) assert.ok((await c.listTools()).tools.length > 0, 'a held session still answers');
    // Another client has its own bound, up to the gateway's total.
    const other = gateway.endpoint('slow', OTHER);
    const others = [await open(other), await open(other)];
    for (const c of others) void c.callTool({ name: 'hang', arguments: {} }, { timeout: 600_000 }).catch(() => undefined);
    await waitFor(async () => (await hangs()).hangStarted >= started + 5, 'the other client\'s calls to be running');
    await assert.rejects(connect(other), /gateway has 5 MCP sessions open, the most it serves at once/);
    // A client that ends a session properly gets a place for the next one.
    await (held[0].transport as StreamableHTTPClientTransport).terminateSession();
    const again = await open(endpoint);
    assert.ok((await again.listTools()).tools.length > 0);
  });

  it('closes a session that has nothing in flight after the idle time, and keeps one with an open stream', async () => {
    const gateway = await gatewayWith({ idleMs: 300 });
    const endpoint = gateway.endpoint('echo', WINDOW);
    const active = await open(endpoint);
    const idle = await connect(endpoint);
    const sid = sessionOf(idle);
    await idle.close();
    const probe = () => fetch(endpoint.url, {
      method: 'POST',
      headers: { ...endpoint.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid!, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    }).then(async r => { await r.body?.cancel(); return r.status; });
    assert.equal(await probe(), 200, 'the abandoned session answers until it expires');
    // Each probe is a use of the session, so it is probed only after a silence longer than the idle time.
    let status = 200;
    for (let quiet = 600; status !== 404 && quiet < 20_000; quiet *= 2) {
      await new Promise(r => setTimeout(r, quiet));
      status = await probe();
    }
    assert.equal(status, 404, 'the abandoned session expired');
    assert.match(text(await active.callTool({ name: 'echo', arguments: { text: 'alive' } })), /alive/);
  });
});

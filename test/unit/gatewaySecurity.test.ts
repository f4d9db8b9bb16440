/**
 * The gateway is nobody else's door. Each test plays an attacker against a real gateway over real
 * HTTP: another local process without the token, a web page (Origin, DNS rebinding), a replayed
 * token of a closed window or a revoked agent, another client's session, an oversized body.
 */
import * as assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { startGateway, type Gateway, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger, waitFor } from './helpers';

interface RawResponse { status: number; headers: Record<string, string | string[] | undefined>; body: string }

/** A request exactly as an attacker writes it (any Host, any header, a chunked body). */
function raw(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'POST', headers: opts.headers, setHost: !opts.headers?.host }, res => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.body !== undefined) {
      if (opts.chunked) { const b = Buffer.from(opts.body); for (let i = 0; i < b.length; i += 65_536) req.write(b.subarray(i, i + 65_536)); }
      else req.write(opts.body);
    }
    req.end();
  });
}

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const WINDOW = { id: 'window-a', label: 'Window A', kind: 'window' as const };

describe('gateway security (attacker tests)', function () {
  this.timeout(60_000);
  let host: McpHost;
  let gateway: Gateway;
  let logger: RecordingLogger;

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({ echo: node(fixtureServer('crashing')), other: node(fixtureServer('crashing')), slow: node(fixtureServer('hanging')) });
    logger = new RecordingLogger();
    gateway = await startGateway({ host, logger, maxRequestBodyBytes: 64 * 1024, approve: async () => true });
  });
  after(async () => { gateway.dispose(); await host.shutdown(); });

  const bearer = (headers: Record<string, string>) => headers.Authorization;

  it('binds to 127.0.0.1 only, behind a secret path per client', () => {
    const e = gateway.endpoint('echo', WINDOW);
    assert.match(e.url, /^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/echo$/);
    const again = gateway.endpoint('other', WINDOW);
    assert.equal(new URL(again.url).pathname.split('/')[1], new URL(e.url).pathname.split('/')[1], 'one window keeps one credential');
    const b = gateway.endpoint('echo', { id: 'window-b', label: 'Window B', kind: 'window' });
    assert.notEqual(bearer(b.headers), bearer(e.headers));
    assert.notEqual(new URL(b.url).pathname, new URL(e.url).pathname);
  });

  it('refuses another local process without the token, with a wrong token, or with another client\'s token', async () => {
    const a = gateway.endpoint('echo', WINDOW);
    const b = gateway.endpoint('echo', { id: 'window-b', label: 'Window B', kind: 'window' });
    assert.equal((await raw(a.url, { headers: MCP_HEADERS, body: INIT })).status, 401, 'no token');
    assert.equal((await raw(a.url, { headers: { ...MCP_HEADERS, authorization: 'Bearer guessed' }, body: INIT })).status, 401, 'wrong token');
    assert.equal((await raw(a.url, { headers: { ...MCP_HEADERS, authorization: bearer(b.headers) }, body: INIT })).status, 401, 'window B\'s token on window A\'s path');
    const origin = new URL(a.url).origin;
    assert.equal((await raw(`${origin}/echo`, { headers: { ...MCP_HEADERS, authorization: bearer(a.headers) }, body: INIT })).status, 401, 'the token without the path');
    assert.equal((await raw(a.url, { headers: { ...MCP_HEADERS, authorization: bearer(a.headers) }, body: INIT })).status, 200, 'the real client gets in');
  });

  it('refuses a web page: any Origin, a preflight, and sends no CORS header', async () => {
    const a = gateway.endpoint('echo', WINDOW);
    for (const o of ['https://evil.example', 'http://localhost:3000', 'http://127.0.0.1', 'null']) {
      const r = await raw(a.url, { headers: { ...MCP_HEADERS, authorization: bearer(a.headers), origin: o }, body: INIT });
      assert.equal(r.status, 403, `Origin ${o}`);
      assert.ok(!Object.keys(r.headers).some(h => h.startsWith('access-control-')), 'no CORS header');
    }
    const pre = await raw(a.url, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' } });
    assert.notEqual(pre.status, 200);
    assert.notEqual(pre.status, 204);
    assert.ok(!Object.keys(pre.headers).some(h => h.startsWith('access-control-')));
    const ok = await raw(a.url, { headers: { ...MCP_HEADERS, authorization: bearer(a.headers) }, body: INIT });
    assert.ok(!Object.keys(ok.headers).some(h => h.startsWith('access-control-')), 'no CORS header on a real answer either');
  });

  it('refuses a rebound DNS name (a Host header that is not our address)', async () => {
    const a = gateway.endpoint('echo', WINDOW);
    const port = new URL(a.url).port;
    for (const h of [`evil.example:${port}`, 'localhost', `127.0.0.1:${Number(port) + 1}`, `127.0.0.1.evil.example:${port}`]) {
      const r = await raw(a.url, { headers: { ...MCP_HEADERS, authorization: bearer(a.headers), host: h }, body: INIT });
      assert.equal(r.status, 421, `Host ${h}`);
    }
    const viaLocalhost = await raw(a.url, { headers: { ...MCP_HEADERS, authorization: bearer(a.headers), host: `localhost:${port}` }, body: INIT });
    assert.equal(viaLocalhost.status, 200);
  });

  it('refuses a replayed token of a closed window, and of a gateway that was disposed', async () => {
    const closing = { id: 'window-closing', label: 'Closing window', kind: 'window' as const };
    const e = gateway.endpoint('echo', closing);
    const c = await connect(e);
    await c.listTools();
    gateway.revoke(closing.id);
    await assert.rejects(c.listTools(), 'the closed window\'s session ended');
    await c.close().catch(() => undefined);
    assert.equal((await raw(e.url, { headers: { ...MCP_HEADERS, ...lower(e.headers) }, body: INIT })).status, 401, 'replayed after the window closed');
    // A new window's gateway on the same port does not know the old credentials.
    const first = await startGateway({ host, logger: new RecordingLogger() });
    const old = first.endpoint('echo', WINDOW);
    const port = Number(new URL(old.url).port);
    first.dispose();
    const second = await startGateway({ host, logger: new RecordingLogger(), port });
    try {
      assert.equal((await raw(old.url, { headers: { ...MCP_HEADERS, ...lower(old.headers) }, body: INIT })).status, 401, 'replayed against the next gateway');
    } finally { second.dispose(); }
  });

  it('refuses a revoked agent at once, even on its open session, and keeps an agent to its servers', async () => {
    const agent = gateway.issueAgentToken('Codex', ['echo', 'slow']);
    const headers = { Authorization: `Bearer ${agent.token}` };
    const c = await connect({ url: `${agent.url}echo`, headers });
    assert.ok((await c.listTools()).tools.length > 0);
    const other = await raw(`${agent.url}other`, { headers: { ...MCP_HEADERS, ...lower(headers) }, body: INIT });
    assert.equal(other.status, 404, 'a server the user did not give the agent');
    // A call in flight when the user revokes ends then, not when the tool would have finished.
    const s = await connect({ url: `${agent.url}slow`, headers });
    void s.callTool({ name: 'hang', arguments: {} }, { timeout: 600_000 }).catch(() => undefined);
    const counts = async () => JSON.parse(((await host.require('slow').callTool('cancelled-count')).content[0] as { text: string }).text) as { hangStarted: number; hangCancelled: number };
    await waitFor(async () => (await counts()).hangStarted > 0, 'the hang started');
    gateway.revoke(agent.id);
    await waitFor(async () => (await counts()).hangCancelled > 0, 'the revoked agent\'s call cancelled at the real server');
    assert.ok(!gateway.agents.some(a => a.id === agent.id));
    await assert.rejects(c.listTools());
    await c.close().catch(() => undefined);
    await s.close().catch(() => undefined);
    assert.equal((await raw(`${agent.url}echo`, { headers: { ...MCP_HEADERS, ...lower(headers) }, body: INIT })).status, 401);
  });

  it('does not let one client use another client\'s session', async () => {
    const a = gateway.endpoint('echo', WINDOW);
    const b = gateway.endpoint('echo', { id: 'window-b', label: 'Window B', kind: 'window' });
    const init = await raw(a.url, { headers: { ...MCP_HEADERS, ...lower(a.headers) }, body: INIT });
    const session = init.headers['mcp-session-id'];
    assert.ok(typeof session === 'string');
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const stolen = await raw(b.url, { headers: { ...MCP_HEADERS, ...lower(b.headers), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: list });
    assert.equal(stolen.status, 404);
  });

  it('bounds the request body, declared or streamed', async () => {
    const a = gateway.endpoint('echo', WINDOW);
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(200_000) } });
    // Declared: refused before a byte of the body is read (the attacker need not even send it).
    assert.equal((await raw(a.url, { headers: { ...MCP_HEADERS, ...lower(a.headers), 'content-length': String(big.length) } })).status, 413, 'Content-Length over the bound');
    const streamed = await raw(a.url, { headers: { ...MCP_HEADERS, ...lower(a.headers), 'transfer-encoding': 'chunked' }, body: big, chunked: true }).catch((e: Error) => ({ status: -1, body: e.message }));
    assert.ok(streamed.status === 413 || streamed.status === 400 || streamed.status === -1, `chunked body over the bound refused (${streamed.status})`);
    assert.notEqual(streamed.status, 200);
    assert.equal((await raw(a.url, { headers: { ...MCP_HEADERS, ...lower(a.headers) }, body: INIT })).status, 200, 'the gateway keeps serving');
  });

  it('reads a body once, whole and bounded: a streamed body over the bound is refused with 413 and its connection closed; what is no JSON gets the JSON-RPC parse error; text split inside a character arrives whole', async () => {
    const a = gateway.endpoint('echo', WINDOW);
    const auth = { ...MCP_HEADERS, ...lower(a.headers) };
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(200_000) } });
    const streamed = await raw(a.url, { headers: { ...auth, 'transfer-encoding': 'chunked' }, body: big, chunked: true }).catch((e: Error) => ({ status: -1, headers: {} as Record<string, string | string[] | undefined>, body: e.message }));
    assert.ok(streamed.status === 413 || streamed.status === -1, `a streamed body over the bound is refused (${streamed.status} ${streamed.body})`);
    if (streamed.status === 413) assert.equal(streamed.headers.connection, 'close');
    for (const body of ['not json', '', '{"jsonrpc": "2.0", "id": 1, "method": "initialize", ']) {
      const r = await raw(a.url, { headers: auth, body });
      assert.equal(r.status, 400, `${JSON.stringify(body)} → ${r.status} ${r.body}`);
      assert.equal((JSON.parse(r.body) as { error: { code: number } }).error.code, -32700, r.body);
    }
    // An initialize whose client name holds a character split across two writes of the body.
    const init = Buffer.from(INIT.replace('"attacker"', '"attacker ünïcödé 🐙"'));
    const at = init.indexOf(Buffer.from('🐙')) + 2;
    const r = await new Promise<RawResponse>((resolve, reject) => {
      const u = new URL(a.url);
      const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: auth }, res => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('error', reject);
      req.write(init.subarray(0, at));
      setTimeout(() => { req.end(init.subarray(at)); }, 20);
    });
    assert.equal(r.status, 200, r.body);
    assert.match(r.body, /"protocolVersion"/);
  });

  it('logs no token and no secret path', async () => {
    const e = gateway.endpoint('echo', WINDOW);
    const agent = gateway.issueAgentToken('Claude Code', ['echo']);
    const c = await connect(e);
    await c.callTool({ name: 'echo', arguments: { text: 'hi' } });
    await c.close();
    await raw(e.url, { headers: { ...MCP_HEADERS, authorization: 'Bearer wrong' }, body: INIT });
    await waitFor(() => logger.lines.length > 0, 'some log');
    const secrets = [bearer(e.headers).slice(7), new URL(e.url).pathname.split('/')[1], agent.token, new URL(agent.url).pathname.split('/')[1]];
    const all = [logger.text(), ...[...host.servers].map(s => JSON.stringify(s.message ?? ''))].join('\n');
    for (const s of secrets) assert.ok(!all.includes(s), 'a secret reached the log');
    gateway.revoke(agent.id);
  });
});

function lower(h: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}

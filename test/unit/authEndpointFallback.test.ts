/**
 * The 2025-03-26 endpoint fallback (a server without any OAuth metadata is its own authorization server:
 * /authorize, /token, /register at its origin; the conformance scenario auth/2025-03-26-oauth-endpoint-fallback
 * shows the sign-in). The attacker: a server whose protected resource metadata names an authorization server on
 * another origin that publishes no metadata (the fallback would send the user and the registration there), and a
 * metadata-less server where the policy pins the authorization servers. Real HTTP servers on loopback, the real
 * SDK flow through McpHost; each server records every request it gets.
 */
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeadlessUserAgent, LogLevel, MemorySecretStore, mergePolicies, type AuthorizationRequest, type AuthPort } from '../../src/core';
import { checkAuthorizationPage } from '../../src/core/auth/providerChecks';
import { createTestHost } from './helpers';

interface Legacy { readonly url: string; readonly origin: string; readonly requests: string[]; close(): Promise<void> }

/** An MCP endpoint that answers 401 and, like a 2025-03-26 server, the default OAuth endpoints; no metadata unless `prmNames`. */
async function legacyServer(host: string, prmNames?: string): Promise<Legacy> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${u.pathname}`);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => { res.writeHead(status, { 'content-type': 'application/json', ...headers }); res.end(JSON.stringify(body)); };
    if (prmNames && u.pathname.startsWith('/.well-known/oauth-protected-resource')) return json(200, { resource: `${origin}/mcp`, authorization_servers: [prmNames] });
    if (u.pathname === '/register') return json(201, { client_id: 'legacy-client', redirect_uris: [] });
    if (u.pathname === '/authorize') { const to = new URL(u.searchParams.get('redirect_uri')!); to.searchParams.set('code', 'c'); to.searchParams.set('state', u.searchParams.get('state') ?? ''); res.writeHead(302, { location: to.href }); return res.end(); }
    if (u.pathname === '/token') return json(200, { access_token: 'legacy-token', token_type: 'Bearer', expires_in: 3600 });
    if (u.pathname === '/mcp') return json(401, { error: 'unauthorized' }, { 'www-authenticate': prmNames ? `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"` : 'Bearer' });
    json(404, { error: 'not_found' });
  });
  await new Promise<void>(r => server.listen(0, host, r));
  const origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/mcp`, origin, requests, close: () => new Promise(r => server.close(() => r())) };
}

function authPort(): AuthPort & { requests: AuthorizationRequest[] } {
  const requests: AuthorizationRequest[] = [];
  return { userAgent: new HeadlessUserAgent({ onAuthorize: r => requests.push(r) }), clientMetadata: { client_name: 'MCP Host tests' }, store: new MemorySecretStore(), requests };
}

describe('oauth: the 2025-03-26 endpoint fallback stays on the server\'s own origin and under the policy (issue 32)', function () {
  this.timeout(30_000);
  const servers: Legacy[] = [];
  after(async () => { for (const s of servers) await s.close(); });

  it('attacker: protected resource metadata naming a metadata-less authorization server on another origin gets no registration, no authorization page, no token request', async () => {
    const elsewhere = await legacyServer('127.0.0.1');
    const server = await legacyServer('localhost', elsewhere.origin);
    servers.push(elsewhere, server);
    const auth = authPort();
    const { host } = createTestHost({ auth }, {}, LogLevel.Debug);
    try {
      await host.apply({ o: { type: 'http', url: server.url } });
      const s = host.require('o');
      await s.signIn();
      assert.equal(s.state, 'error');
      assert.match(s.message ?? '', /publishes no metadata \(RFC 8414 or OpenID discovery\), so PKCE support cannot be verified/);
      assert.equal(auth.requests.length, 0, 'the user is never sent there');
      assert.deepEqual(elsewhere.requests.filter(r => /\/(register|authorize|token)$/.test(r)), [], 'nothing reached the other origin\'s default endpoints');
    } finally { await host.shutdown(); }
  });

  it('attacker: a metadata-less server is refused when the policy pins the authorization servers, before anything is sent to it', async () => {
    const server = await legacyServer('127.0.0.1');
    servers.push(server);
    const auth = authPort();
    const policy = mergePolicies([{ label: '/etc/vscode/policy.json', values: { authorizationServers: ['https://login.corp.example'] } }]);
    const { host } = createTestHost({ auth, policy: () => policy }, {}, LogLevel.Debug);
    try {
      await host.apply({ o: { type: 'http', url: server.url } });
      const s = host.require('o');
      await s.signIn();
      assert.equal(s.state, 'error');
      assert.match(s.message ?? '', new RegExp(`refused by policy: the authorization server ${server.origin.replace(/[.:/]/g, '\\$&')}/? is not one of the allowed authorization servers`));
      assert.equal(auth.requests.length, 0);
      assert.deepEqual(server.requests.filter(r => /\/(register|authorize|token)$/.test(r)), []);
    } finally { await host.shutdown(); }
  });

  it('with the fallback, an authorization page on another origin than the server\'s is refused', () => {
    assert.doesNotThrow(() => checkAuthorizationPage('http://127.0.0.1:4000/', 'http://127.0.0.1:4000/authorize?x=1', 'http://127.0.0.1:4000/mcp'));
    for (const page of ['https://evil.example/authorize', 'http://127.0.0.1:4001/authorize', 'http://localhost:4000/authorize']) {
      assert.throws(() => checkAuthorizationPage('http://127.0.0.1:4000/', page, 'http://127.0.0.1:4000/mcp'), /publishes no authorization metadata, so its authorization page must be on its own origin/, page);
    }
  });
});

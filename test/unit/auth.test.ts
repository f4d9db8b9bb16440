/**
 * OAuth for HTTP servers: the core against the OAuth fixture (the SDK's server auth helpers), with
 * the headless user agent following the authorization redirect. No fake of the SDK anywhere.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import {
  HeadlessUserAgent, LogLevel, MemorySecretStore,
  type AuthorizationRequest, type AuthPort, type AuthUserAgent, type ClientCredentials, type HostPorts,
} from '../../src/core';
import { createTestHost, startHttpFixture, text, waitFor } from './helpers';

interface WhoAmI { clientId: string; scopes: string[]; resource?: string; stats: { registrations: number; authorizations: number; codeExchanges: number; refreshes: number; mcpRequests: number; rejectedTokens: number } }

describe('oauth', function () {
  this.timeout(30_000);
  const children: ChildProcess[] = [];
  after(() => { for (const c of children) c.kill(); });
  const start = async (env: Record<string, string> = {}) => { const s = await startHttpFixture('oauth', [], env); children.push(s.child); return s.url; };

  type TestAuthPort = AuthPort & { requests: AuthorizationRequest[]; store: MemorySecretStore };
  function authPort(store = new MemorySecretStore(), extra: Partial<Omit<AuthPort, 'store'>> = {}): TestAuthPort {
    const requests: AuthorizationRequest[] = [];
    return { userAgent: new HeadlessUserAgent({ onAuthorize: r => requests.push(r) }), clientMetadata: { client_name: 'MCP Host tests' }, ...extra, store, requests };
  }

  function hostWith(auth: AuthPort, level = LogLevel.Debug) {
    return createTestHost({ auth } as Partial<HostPorts>, {}, level);
  }

  const whoami = async (host: ReturnType<typeof hostWith>['host'], name = 'o') => JSON.parse(text(await host.require(name).callTool('whoami', {}))) as WhoAmI;

  it('an automatic start ends in "needs sign-in" without opening anything; signIn() authorizes (PRM, RFC 8414, DCR, PKCE, resource, scope) and connects', async () => {
    const url = await start();
    const auth = authPort();
    const { host, loggers } = hostWith(auth);
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      assert.equal(s.state, 'error');
      assert.equal(s.needsSignIn, true);
      assert.equal(s.message, 'needs sign-in');
      assert.equal(s.authStatus, 'needsSignIn');
      assert.equal(auth.requests.length, 0, 'no authorization during an automatic start');

      await s.signIn();
      assert.equal(s.state, 'running', s.message);
      assert.equal(s.needsSignIn, false);
      assert.equal(s.authStatus, 'signedIn');
      assert.equal(auth.requests.length, 1);
      const req = auth.requests[0];
      assert.equal(req.reason, 'signIn');
      const q = req.authorizationUrl.searchParams;
      assert.equal(q.get('code_challenge_method'), 'S256');
      assert.ok(q.get('code_challenge'));
      assert.equal(q.get('resource'), url, 'RFC 8707 resource = the MCP server');
      assert.equal(q.get('scope'), 'mcp:read', 'scope from the WWW-Authenticate challenge');
      assert.equal(q.get('state'), req.state);
      const me = await whoami(host);
      assert.deepEqual(me.scopes, ['mcp:read']);
      assert.equal(me.resource, url);
      assert.equal(me.stats.registrations, 1, 'dynamic client registration');
      assert.match(loggers.get('o')!.text(), /OAuth: registering a client dynamically/);
    } finally { await host.shutdown(); }
  });

  it('reuses stored tokens and the registration across hosts (a restart), and refreshes an expired token before use', async () => {
    // A 2 s lifetime is inside the session's 30 s expiry margin: the token counts as expired as soon as it
    // is issued, so every use refreshes it first (no waiting for a clock).
    const url = await start({ FIXTURE_TOKEN_TTL: '2' });
    const store = new MemorySecretStore();
    const first = hostWith(authPort(store));
    try {
      await first.host.apply({ o: { type: 'http', url } });
      await first.host.require('o').signIn();
      assert.equal(first.host.require('o').state, 'running');
    } finally { await first.host.shutdown(); }
    assert.ok([...store.values.keys()].some(k => k.startsWith('mcpHost.oauth/tokens/')), 'tokens stored');

    const auth = authPort(store);
    const second = hostWith(auth);
    try {
      await second.host.apply({ o: { type: 'http', url } });
      const s = second.host.require('o');
      assert.equal(s.state, 'running', `token reused without a sign-in (${s.message})`);
      assert.equal(auth.requests.length, 0);
      const before = await whoami(second.host);
      const after = await whoami(second.host);
      assert.equal(after.stats.refreshes, before.stats.refreshes + 1, 'refreshed once');
      assert.equal(after.stats.registrations, 1, 'registered once in total');
      assert.equal(after.stats.authorizations, 1, 'one browser round trip in total');
      assert.equal(auth.requests.length, 0);
    } finally { await second.host.shutdown(); }
  });

  it('refreshes after a 401 when the token expired earlier than announced', async () => {
    const url = await start();
    const { host, loggers } = hostWith(authPort());
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      await s.signIn();
      await s.callTool('expire-tokens', {});
      assert.equal(text(await s.callTool('echo', { text: 'after expiry' })), 'after expiry');
      const me = await whoami(host);
      assert.equal(me.stats.refreshes, 1);
      assert.equal(me.stats.authorizations, 1);
      assert.match(loggers.get('o')!.text(), /HTTP 401 from the server \(the access token was refused\)/);
    } finally { await host.shutdown(); }
  });

  it('when refresh is refused, a running server asks again (reason "reauthenticate") and recovers', async () => {
    const url = await start();
    const auth = authPort();
    const { host } = hostWith(auth);
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      await s.signIn();
      await s.callTool('revoke-refresh', {});
      await s.callTool('expire-tokens', {});
      assert.equal(text(await s.callTool('echo', { text: 'again' })), 'again');
      assert.deepEqual(auth.requests.map(r => r.reason), ['signIn', 'reauthenticate']);
    } finally { await host.shutdown(); }
  });

  it('steps up on 403 insufficient_scope with the union of scopes, once', async () => {
    const url = await start();
    const auth = authPort();
    const { host } = hostWith(auth);
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      await s.signIn();
      assert.equal(text(await s.callTool('admin-echo', { text: 'x' })), 'admin: x');
      assert.deepEqual(auth.requests.map(r => r.reason), ['signIn', 'stepUp']);
      assert.equal(auth.requests[1].scope, 'mcp:read mcp:admin');
      assert.deepEqual((await whoami(host)).scopes, ['mcp:read', 'mcp:admin']);
      assert.equal(text(await s.callTool('admin-echo', { text: 'y' })), 'admin: y');
      assert.equal(auth.requests.length, 2, 'the new token serves later calls');
    } finally { await host.shutdown(); }
  });

  it('limits step-ups: a scope the server keeps refusing fails the request with a clear error', async () => {
    const url = await start();
    const auth = authPort(undefined, { maxStepUps: 0 });
    const { host } = hostWith(auth);
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      await s.signIn();
      await assert.rejects(s.callTool('admin-echo', { text: 'x' }), /still requires more scopes \(mcp:read mcp:admin\) after 0 step-up/);
      assert.equal(auth.requests.length, 1);
      assert.equal(s.state, 'running', 'one refused request does not stop the server');
    } finally { await host.shutdown(); }
  });

  it('refuses to sign in when the authorization server does not list PKCE S256', async () => {
    const url = await start({ FIXTURE_NO_PKCE: '1' });
    const auth = authPort();
    const { host } = hostWith(auth);
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      await s.signIn();
      assert.equal(s.state, 'error');
      assert.equal(s.needsSignIn, true);
      assert.match(s.message ?? '', /does not list PKCE method S256/);
      assert.equal(auth.requests.length, 0, 'the user is never sent there');
    } finally { await host.shutdown(); }
  });

  it('rejects an authorization response whose state differs, and reports a denied authorization', async () => {
    for (const [env, pattern] of [[{ FIXTURE_BAD_STATE: '1' }, /different state/], [{ FIXTURE_DENY: '1' }, /needs sign-in \(the authorization was denied: the user said no\)/]] as const) {
      const url = await start(env);
      const { host } = hostWith(authPort());
      try {
        await host.apply({ o: { type: 'http', url } });
        const s = host.require('o');
        await s.signIn();
        assert.equal(s.state, 'error');
        assert.equal(s.needsSignIn, true);
        assert.match(s.message ?? '', pattern);
      } finally { await host.shutdown(); }
    }
  });

  it('refuses to sign in when the authorization server sends the user to a page that is not https (or http to this machine)', async () => {
    for (const [endpoint, pattern] of [
      ['file:///etc/passwd', /authorization page MCP Host does not open: only https links can be opened, not "file:" links/],
      ['vscode://some.other-extension/x', /authorization page MCP Host does not open: only https links can be opened, not "vscode:" links/],
      ['search-ms:query=x', /authorization page MCP Host does not open: only https links can be opened, not "search-ms:" links/],
      ['http://evil.example/authorize', /authorization page MCP Host does not open: http links are opened only to this machine; evil\.example needs https/],
      ['https://user:pw@evil.example/authorize', /authorization page MCP Host does not open: the link puts a user name or password before the host/],
      ['javascript:alert(1)', /published metadata MCP Host refuses \(authorization_endpoint: URL cannot use javascript:, data:, or vbscript: scheme\); refusing to sign in/],
    ] as const) {
      const url = await start({ FIXTURE_AUTHORIZATION_ENDPOINT: endpoint });
      const auth = authPort();
      const { host } = hostWith(auth);
      try {
        await host.apply({ o: { type: 'http', url } });
        const s = host.require('o');
        await s.signIn();
        assert.equal(s.state, 'error', endpoint);
        assert.match(s.message ?? '', pattern, endpoint);
        assert.equal(auth.requests.length, 0, `nothing was opened for ${endpoint}`);
        const me = await fetch(new URL('/.well-known/oauth-authorization-server', url)).then(r => r.json()) as { authorization_endpoint: string };
        assert.equal(me.authorization_endpoint, endpoint, 'the fixture really advertised it');
      } finally { await host.shutdown(); }
    }
  });

  it('RFC 9207: refuses a response without "iss" when the authorization server advertises it, accepts one with the right iss', async () => {
    const omit = await start({ FIXTURE_ISS: 'omit' });
    const refused = hostWith(authPort());
    try {
      await refused.host.apply({ o: { type: 'http', url: omit } });
      const s = refused.host.require('o');
      await s.signIn();
      assert.equal(s.state, 'error');
      assert.match(s.message ?? '', /the authorization response has no "iss" although the authorization server http:\/\/127\.0\.0\.1:\d+\/ advertises authorization_response_iss_parameter_supported/);
    } finally { await refused.host.shutdown(); }

    const send = await start({ FIXTURE_ISS: 'send' });
    const accepted = hostWith(authPort());
    try {
      await accepted.host.apply({ o: { type: 'http', url: send } });
      const s = accepted.host.require('o');
      await s.signIn();
      assert.equal(s.state, 'running', s.message);
    } finally { await accepted.host.shutdown(); }
  });

  it('registration order: a pre-registered client comes first; without DCR the user is asked for one', async () => {
    const url = await start({ FIXTURE_NO_DCR: '1' });
    const pre: ClientCredentials = { clientId: 'fixture-client', clientSecret: 'fixture-secret' };
    const withPre = hostWith(authPort(undefined, { preRegisteredClient: () => pre }));
    try {
      await withPre.host.apply({ o: { type: 'http', url } });
      await withPre.host.require('o').signIn();
      assert.equal(withPre.host.require('o').state, 'running', withPre.host.require('o').message);
      assert.equal((await whoami(withPre.host)).clientId, 'fixture-client');
    } finally { await withPre.host.shutdown(); }

    let asked = 0;
    const userAgent = new HeadlessUserAgent({ askForClient: async () => { asked++; return pre; } });
    const manual = hostWith(authPort(undefined, { userAgent }));
    try {
      await manual.host.apply({ o: { type: 'http', url } });
      await manual.host.require('o').signIn();
      assert.equal(manual.host.require('o').state, 'running', manual.host.require('o').message);
      assert.equal(asked, 1);
    } finally { await manual.host.shutdown(); }

    const none = hostWith(authPort());
    try {
      await none.host.apply({ o: { type: 'http', url } });
      await none.host.require('o').signIn();
      assert.match(none.host.require('o').message ?? '', /supports neither client ID metadata documents nor dynamic client registration/);
    } finally { await none.host.shutdown(); }
  });

  it('a person slower than the request timeout still signs in: the request waits outside its timeout and is sent again', async () => {
    const url = await start();
    const headless = new HeadlessUserAgent();
    const slow: AuthUserAgent = {
      openChannel: async (server, preferred) => {
        const channel = await headless.openChannel(server, preferred);
        return { ...channel, authorize: async r => { await new Promise(res => setTimeout(res, 1500)); return channel.authorize(r); } };
      },
    };
    const { host } = createTestHost({ auth: authPort(undefined, { userAgent: slow }) } as Partial<HostPorts>, { startTimeoutMs: 1000 });
    try {
      await host.apply({ o: { type: 'http', url, timeout: 1 } });
      const s = host.require('o');
      await s.signIn();
      assert.equal(s.state, 'running', s.message);
      assert.equal(text(await s.callTool('admin-echo', { text: 'slow step-up' })), 'admin: slow step-up');
    } finally { await host.shutdown(); }
  });

  it('signOut() deletes the tokens and the server needs a sign-in again', async () => {
    const url = await start();
    const auth = authPort();
    const { host } = hostWith(auth);
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      await s.signIn();
      assert.equal(await s.signOut(), true);
      await waitFor(() => s.state === 'error', 'restart after sign-out');
      assert.equal(s.needsSignIn, true);
      assert.ok(![...auth.store.values.keys()].some(k => k.startsWith('mcpHost.oauth/tokens/')), 'no tokens left');
      assert.ok([...auth.store.values.keys()].some(k => k.startsWith('mcpHost.oauth/client/')), 'the client registration stays');
    } finally { await host.shutdown(); }
  });

  it('concurrent requests that all get 401 share one authorization', async () => {
    const url = await start();
    const auth = authPort();
    const { host } = hostWith(auth);
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      await s.signIn();
      await s.callTool('revoke-refresh', {});
      await s.callTool('expire-tokens', {});
      const results = await Promise.all([1, 2, 3, 4, 5].map(i => s.callTool('echo', { text: `c${i}` })));
      assert.deepEqual(results.map(text), ['c1', 'c2', 'c3', 'c4', 'c5']);
      assert.equal(auth.requests.length, 2, 'one sign-in plus one re-authorization');
    } finally { await host.shutdown(); }
  });

  it('never writes tokens, codes or the client secret to the log, even at trace level', async () => {
    const url = await start({ FIXTURE_NO_DCR: '1' });
    const auth = authPort(undefined, { preRegisteredClient: () => ({ clientId: 'fixture-client', clientSecret: 'fixture-secret' }) });
    const { host, loggers } = hostWith(auth, LogLevel.Trace);
    try {
      await host.apply({ o: { type: 'http', url } });
      const s = host.require('o');
      await s.signIn();
      await s.callTool('expire-tokens', {});
      await s.callTool('echo', { text: 'x' });
      const values = [...auth.store.values.values()].flatMap(v => Object.values(JSON.parse(v) as Record<string, unknown>));
      const stored = JSON.stringify(values);
      const secrets = [...stored.matchAll(/"(at-[0-9a-f-]{36}|rt-[0-9a-f-]{36})"/g)].map(m => m[1]);
      assert.ok(secrets.length >= 2, 'found the stored tokens');
      const log = loggers.get('o')!.text();
      assert.ok(log.includes('→'), 'trace is on');
      for (const secret of [...secrets, 'fixture-secret', ...auth.requests.map(r => r.state)]) assert.ok(!log.includes(secret), `log contains ${secret.slice(0, 6)}…`);
    } finally { await host.shutdown(); }
  });

  it('a declared Authorization header disables OAuth: a 401 is a plain error', async () => {
    const url = await start();
    const { host } = hostWith(authPort());
    try {
      await host.apply({ o: { type: 'http', url, headers: { Authorization: 'Bearer not-a-token' } } });
      const s = host.require('o');
      assert.equal(s.state, 'error');
      assert.equal(s.needsSignIn, false);
      assert.equal(s.authStatus, undefined);
    } finally { await host.shutdown(); }
  });
});

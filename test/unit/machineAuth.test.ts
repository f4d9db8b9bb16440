/**
 * Authorization without a person (`auth` in a declaration) against a hostile fixture (real HTTP, the
 * SDK's own token requests): the secrets never reach a log even when the authorization server quotes
 * them, an ID-JAG meant for another authorization server or resource is not forwarded, and a DPoP
 * nonce loop ends.
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { LogLevel, MemorySecretStore, HeadlessUserAgent, parseServers, type HostPorts, type InputRequest } from '../../src/core';
import { runCli, workspace } from './cliRun';
import { createTestHost, startHttpFixture, text, waitFor } from './helpers';

interface Stats { tokenRequests: number; jwtBearerRequests: number; idpExchanges: number; mcpRequests: number; dpopChallenges: number }

describe('machine auth (auth in a declaration)', function () {
  this.timeout(30_000);
  const children: ChildProcess[] = [];
  after(() => { for (const c of children) c.kill(); });
  const start = async (env: Record<string, string>) => { const s = await startHttpFixture('machineAuth', [], env); children.push(s.child); return s.url; };
  const stats = async (url: string) => await (await fetch(new URL('/stats', url))).json() as Stats;

  function hostWith(inputs: Record<string, string>) {
    const asked: InputRequest[] = [];
    const t = createTestHost({
      auth: { store: new MemorySecretStore(), userAgent: new HeadlessUserAgent() },
      variables: { workspaceFolders: [], trusted: true, userHome: '/', env: {}, resolveInput: async (r: InputRequest) => { asked.push(r); return inputs[r.id]; } },
    } as Partial<HostPorts>, {}, LogLevel.Trace);
    return { ...t, asked, log: () => [...t.loggers.values()].map(l => l.text()).join('\n') };
  }
  const settled = (host: ReturnType<typeof hostWith>['host']) => waitFor(() => ['running', 'error', 'needsSignIn'].includes(host.require('m').state) && host.require('m'), 'the server to settle', 20_000);

  it('client_credentials: an automatic start gets a token with nobody present; the secret is asked for this server\'s origin only', async () => {
    const secret = `cs-${Math.random().toString(36).slice(2)}`;
    const url = await start({ FIXTURE_CLIENT_SECRET: secret });
    const { host, asked, log } = hostWith({ cs: secret });
    await host.apply({ m: { type: 'http', url, auth: { grant: 'client_credentials', clientId: 'svc', clientSecret: '${input:cs}' } } });
    const server = await settled(host);
    assert.equal(server.state, 'running', server.message);
    assert.equal(text(await server.callTool('whoami', {})), 'authorized with Bearer');
    assert.deepEqual(asked.map(a => [a.field, a.target?.value]), [['auth.clientSecret', new URL(url).origin]]);
    assert.ok(!log().includes(secret), 'the client secret is in the log');
    await host.shutdown();
  });

  it('an authorization server that quotes the client secret or the private key JWT assertion back gets neither into the log', async () => {
    const url = await start({ FIXTURE_ECHO_SECRET: '1' });
    const secret = `cs-${Math.random().toString(36).slice(2)}`;
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { host, log } = hostWith({ cs: secret, key: pem });
    await host.apply({
      m: { type: 'http', url, auth: { grant: 'client_credentials', clientId: 'svc', clientSecret: '${input:cs}' } },
      k: { type: 'http', url, auth: { grant: 'client_credentials', clientId: 'svc', privateKey: '${input:key}', tokenEndpointAuthMethod: 'private_key_jwt' } },
    });
    const server = await settled(host);
    await waitFor(() => ['error', 'needsSignIn'].includes(host.require('k').state), 'the key server to settle', 20_000);
    assert.notEqual(server.state, 'running');
    const text = log();
    assert.match(text, /rejected credentials/, 'the refusal is logged (so the test looks at the right text)');
    assert.ok((await stats(url)).tokenRequests >= 2);
    assert.ok(!text.includes(secret), `the client secret is in the log: ${text.split('\n').filter(l => l.includes(secret)).join(' / ')}`);
    assert.ok(!text.includes(Buffer.from(`svc:${secret}`).toString('base64')) && !text.includes(`svc:${secret}`), 'the Basic credentials are in the log');
    for (const line of pem.split('\n').filter(l => l.length > 20)) assert.ok(!text.includes(line), 'a line of the private key is in the log');
    assert.ok(!/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/.test(text), 'a signed client assertion is in the log');
    await host.shutdown();
  });

  for (const mode of ['other-audience', 'other-resource'] as const) {
    it(`enterprise: an ID-JAG the IdP issued for ${mode === 'other-audience' ? 'another authorization server' : 'another resource'} is refused, not sent to the authorization server`, async () => {
      const url = await start({ FIXTURE_JAG: mode });
      const { host } = hostWith({ cs: 'mcp-secret', idt: 'id-token-of-the-user' });
      const base = new URL(url).origin;
      await host.apply({ m: { type: 'http', url, auth: { grant: 'enterprise', clientId: 'mcp-client', clientSecret: '${input:cs}', enterprise: { idp: { issuer: `${base}/idp`, clientId: 'idp-client' }, idToken: '${input:idt}' } } } });
      const server = await settled(host);
      assert.notEqual(server.state, 'running');
      assert.match(server.message ?? '', mode === 'other-audience' ? /ID-JAG for the authorization server "https:\/\/other-as\.example\/"/ : /ID-JAG for the resource "https:\/\/other-mcp\.example\/mcp"/);
      const s = await stats(url);
      assert.ok(s.idpExchanges >= 1, 'the IdP was asked');
      assert.equal(s.jwtBearerRequests, 0, 'the ID-JAG was sent to the authorization server');
      await host.shutdown();
    });
  }

  it('enterprise: the right ID-JAG is exchanged for a token (control)', async () => {
    const url = await start({ FIXTURE_JAG: 'good' });
    const { host } = hostWith({ cs: 'mcp-secret', idt: 'id-token-of-the-user' });
    const base = new URL(url).origin;
    await host.apply({ m: { type: 'http', url, auth: { grant: 'enterprise', clientId: 'mcp-client', clientSecret: '${input:cs}', enterprise: { idp: { issuer: `${base}/idp`, clientId: 'idp-client' }, idToken: '${input:idt}' } } } });
    const server = await settled(host);
    assert.equal(server.state, 'running', server.message);
    assert.equal((await stats(url)).jwtBearerRequests, 1);
    await host.shutdown();
  });

  it('DPoP: a server that demands a new nonce on every request gets a bounded number of proofs, then the start fails', async () => {
    const url = await start({ FIXTURE_DPOP_NONCE_LOOP: '1' });
    const { host } = hostWith({ cs: 'secret' });
    await host.apply({ m: { type: 'http', url, auth: { grant: 'client_credentials', clientId: 'svc', clientSecret: '${input:cs}', dpop: true } } });
    const server = await settled(host);
    assert.notEqual(server.state, 'running');
    const before = await stats(url);
    assert.ok(before.dpopChallenges >= 1, 'the host presented a DPoP-bound token');
    assert.ok(before.dpopChallenges <= 8, `${before.dpopChallenges} nonce challenges were answered`);
    await new Promise(r => setTimeout(r, 1500));
    assert.equal((await stats(url)).dpopChallenges, before.dpopChallenges, 'the host goes on answering nonce challenges after the start failed');
    await host.shutdown();
  });

  it('the CLI uses the same declaration: client_credentials with the secret from its server-bound input variable', async () => {
    const secret = `cs-${Math.random().toString(36).slice(2)}`;
    const url = await start({ FIXTURE_CLIENT_SECRET: secret });
    const ws = workspace('mcp.json', { servers: { m: { type: 'http', url, auth: { grant: 'client_credentials', clientId: 'svc', clientSecret: '${input:cs}' } } } });
    const r = await runCli(['--yes', '--verbose', 'call', 'm', 'whoami', '{}'], ws, { MCP_HOST_INPUT_M__CS: secret });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'authorized with Bearer\n');
    assert.ok(!r.stderr.includes(secret) && !r.stdout.includes(secret), 'the client secret is in the CLI output');
    assert.equal((await stats(url)).tokenRequests, 1);
  });

  it('a secret written in settings instead of ${input:…} is refused with the field named', () => {
    const { problems } = parseServers({ m: { url: 'https://x.example/mcp', auth: { grant: 'client_credentials', clientId: 'svc', clientSecret: 'plain-secret' } } });
    assert.ok(problems.some(p => p.field === 'auth.clientSecret' && p.severity === 'error' && /\$\{input:/.test(p.message)), JSON.stringify(problems));
  });
});

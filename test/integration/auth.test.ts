/**
 * OAuth in a real VS Code: the OAuth fixture (SDK server auth helpers) behind a declared `http`
 * server. Sign-in goes through the product's own path: `mcpHost.signIn` → `vscode.env.openExternal`
 * of the authorization page (the test browser opens it; the fixture approves at once) → the
 * redirect to the `vscode.env.asExternalUri` callback → this extension's UriHandler. Tokens live in
 * SecretStorage. Here reuse is shown across a new server connection (the server removed and declared
 * again: new connection and OAuth session objects, only SecretStorage carries over); across a window
 * reload (a new extension host) in the 'reload' run (test/integration/reload/oauthReload.test.ts).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { setSetting, waitFor } from './helpers';
import { api, declareServers, fixture, readExtensionLogs, serverItems, textOf, waitState } from './mcpHost';

interface WhoAmI { scopes: string[]; redirectUri?: string; apiKeySha256?: string; stats: { registrations: number; authorizations: number; refreshes: number; codeExchanges: number } }

async function startFixture(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [fixture('oauth'), '--http', '0'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d; const m = /LISTENING (\d+)/.exec(out); if (m) resolve(Number(m[1])); });
    child.once('exit', c => reject(new Error(`oauth fixture exited with ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

describe('oauth sign-in', function () {
  this.timeout(90_000);
  let server: { url: string; child: ChildProcess };
  const whoami = async () => JSON.parse(textOf(await (await api()).callTool('secured', 'whoami'))) as WhoAmI;
  const item = async () => (await serverItems(await api())).find(i => i.label === 'secured')!;

  before(async () => { server = await startFixture({}); });
  after(async () => {
    await vscode.commands.executeCommand('mcpHost.signOut', 'secured').then(undefined, () => {});
    await declareServers(undefined);
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await setSetting('mcpHost.inputs', undefined);
    server?.child.kill();
  });

  const apiKey = `key-${Math.random().toString(36).slice(2)}${Date.now()}`;
  const declaration = () => ({ secured: { type: 'http', url: server.url, headers: { 'X-Api-Key': '${input:oauthApiKey}' } } });

  it('asks for the API key input, then shows "needs sign-in" with a Sign In action instead of opening the browser by itself', async () => {
    const a = await api();
    await setSetting('mcpHost.inputs', [{ id: 'oauthApiKey', type: 'promptString', description: 'API key for the OAuth fixture', password: true }]);
    const declared = declareServers(declaration());
    const box = await waitFor(() => a.testing!.quickInput.active as vscode.InputBox | undefined, 15_000, 'the input box');
    box.value = apiKey;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await declared;
    const s = a.host.require('secured');
    await waitState(s, 'error');
    assert.equal(s.needsSignIn, true);
    const shown = await item();
    assert.equal(shown.description, 'needs sign-in');
    assert.equal(shown.contextValue, 'server:error:needsSignIn', 'selects the inline Sign In action (package.json menus)');
  });

  it('signs in through the browser and the URI handler, and connects', async () => {
    const a = await api();
    const s = a.host.require('secured');
    await vscode.commands.executeCommand('mcpHost.signIn', 'secured');
    assert.equal(s.state, 'running', s.message);
    const me = await whoami();
    assert.deepEqual(me.scopes, ['mcp:read']);
    assert.equal(me.apiKeySha256, createHash('sha256').update(apiKey).digest('hex'), 'the API key header from the input reached the server');
    assert.equal(me.stats.authorizations, 1);
    assert.equal(me.stats.registrations, 1, 'registered dynamically');
    assert.match(me.redirectUri ?? '', /\/callback\?vscode-reqid=\d+&vscode-scheme=[^&]+&vscode-authority=mcp-host\.mcp-host&vscode-path=%2Foauth%2Fcallback$/, 'redirected through the workbench callback to the UriHandler');
    await waitFor(async () => (await item()).contextValue === 'server:running:signedIn', 5000, 'the Sign Out action');
  });

  it('reuses the token from SecretStorage for a new connection (no second sign-in)', async () => {
    await declareServers(undefined);
    const a = await declareServers(declaration());
    const s = a.host.require('secured');
    await waitState(s, 'running');
    const me = await whoami();
    assert.equal(me.stats.authorizations, 1, 'no new authorization');
  });

  it('refreshes an expired access token without asking', async () => {
    const before = await whoami();
    // The authorization server expires every access token now (MCP Host still thinks its token is valid):
    // the next request is refused with 401 and MCP Host refreshes instead of asking.
    assert.equal(textOf(await (await api()).callTool('secured', 'expire-tokens')), 'expired');
    const after = await whoami();
    assert.ok(after.stats.refreshes > before.stats.refreshes, 'a refresh happened');
    assert.equal(after.stats.authorizations, 1, 'still one browser sign-in');
  });

  it('never writes the tokens or the API key to any log file, nor a bearer token the server refuses', async () => {
    // The same input as a declared bearer token: the server refuses it (401), and the error must not show it.
    // A value is bound to the server and field it was given for: "bearer" asks, and the user reuses it.
    const hooks = (await api()).testing!;
    const before = hooks.quickInput.active;
    const declared = declareServers({ ...declaration(), bearer: { type: 'http', url: server.url, headers: { Authorization: 'Bearer ${input:oauthApiKey}' } } });
    const pick = await waitFor(() => { const i = hooks.quickInput.active; return i && i !== before && 'items' in i ? i as vscode.QuickPick<vscode.QuickPickItem> : undefined; }, 15_000, 'the prompt of "bearer"');
    for (let n = 0; !/^Use the value stored for "secured"/.test(pick.activeItems[0]?.label ?? ''); n++) {
      assert.ok(n < pick.items.length, `no reuse item in ${pick.items.map(i => i.label).join(' | ')}`);
      const current = pick.activeItems[0];
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await waitFor(() => pick.activeItems[0] !== current, 5_000, 'the highlight to move');
    }
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const a = await declared;
    const bearer = a.host.require('bearer');
    await waitState(bearer, 'error');
    assert.equal(bearer.needsSignIn, false, 'a declared Authorization header is not combined with OAuth');
    assert.match(bearer.message ?? '', /HTTP 401/);
    assert.ok(!(bearer.message ?? '').includes(apiKey), 'the error message does not show the token');
    assert.equal(a.host.require('secured').state, 'running', 'the OAuth server kept running');
    // Log channels flush to disk asynchronously: wait until the files hold the last lines this test caused.
    const logs = await waitFor(async () => {
      const l = await readExtensionLogs(a);
      const has = (name: string, line: RegExp) => [...l].some(([f, text]) => f.includes(name) && line.test(text));
      return has('secured', /OAuth: signed in/) && has('bearer', /401/) ? l : undefined;
    }, 15_000, 'the secured and bearer logs on disk');
    const serverLog = [...logs.keys()].find(f => f.includes('secured'));
    assert.ok(serverLog, 'the server log was read');
    assert.match(logs.get(serverLog)!, /OAuth: signed in/);
    const leaks = [...logs].filter(([, text]) => text.includes(apiKey) || /\b(at|rt)-[0-9a-f]{8}-[0-9a-f]{4}-/.test(text)).map(([f]) => f);
    assert.deepEqual(leaks, [], 'log files containing a token or the API key');
    assert.ok([...logs.keys()].some(f => f.includes('bearer')), 'the refused server\'s log was read');
    await declareServers(declaration());
  });

  it('signs out: the tokens are deleted and the server needs a sign-in again', async () => {
    const a = await api();
    const s = a.host.require('secured');
    await vscode.commands.executeCommand('mcpHost.signOut', 'secured');
    await waitState(s, 'error');
    assert.equal(s.needsSignIn, true);
    assert.equal((await item()).description, 'needs sign-in');
  });

  it('signs in again through a loopback redirect when the setting asks for it', async () => {
    const a = await api();
    const s = a.host.require('secured');
    await setSetting('mcpHost.oauth.redirect', 'loopback');
    try {
      await vscode.commands.executeCommand('mcpHost.signIn', 'secured');
      assert.equal(s.state, 'running', s.message);
      const me = await whoami();
      assert.match(me.redirectUri ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      assert.equal(me.stats.registrations, 2, 'registered again: the first registration knows only the URI handler redirect');
    } finally { await setSetting('mcpHost.oauth.redirect', undefined); }
  });
});

describe('oauth: a hostile authorization server', function () {
  this.timeout(60_000);
  const children: ChildProcess[] = [];
  after(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await declareServers(undefined);
    for (const c of children) c.kill();
  });

  it('cannot make sign-in open a file:, vscode:, javascript: or plain-http page: refused with the reason, nothing opened', async () => {
    const cases = [
      ['file:///etc/passwd', /only https links can be opened, not "file:" links/],
      ['vscode://some.other-extension/x', /only https links can be opened, not "vscode:" links/],
      ['javascript:alert(1)', /authorization_endpoint: URL cannot use javascript:/],
      ['http://evil.example/authorize', /http links are opened only to this machine; evil\.example needs https/],
    ] as const;
    const servers: Record<string, { type: 'http'; url: string }> = {};
    for (const [i, [endpoint]] of cases.entries()) {
      const s = await startFixture({ FIXTURE_AUTHORIZATION_ENDPOINT: endpoint });
      children.push(s.child);
      servers[`hostile${i}`] = { type: 'http', url: s.url };
    }
    const a = await declareServers(servers);
    for (const [i, [endpoint, reason]] of cases.entries()) {
      const s = a.host.require(`hostile${i}`);
      await waitState(s, 'error');
      assert.equal(s.needsSignIn, true, endpoint);
      // The command waits for its error notification to be dismissed: follow the server's state instead.
      void vscode.commands.executeCommand('mcpHost.signIn', `hostile${i}`);
      await waitFor(() => reason.test(s.message ?? ''), 15_000, `the refusal of ${endpoint} (message: ${s.message})`);
      assert.equal(s.state, 'error');
    }
    // Log channels flush to disk asynchronously: wait until every hostile server's file holds its refusal.
    const logs = await waitFor(async () => {
      const l = [...(await readExtensionLogs(a)).entries()].filter(([f]) => /hostile\d/.test(f.split('/').pop() ?? ''));
      return l.length === cases.length && l.every(([, text]) => /refusing to sign in/.test(text)) ? l : undefined;
    }, 15_000, 'the refusals in every hostile server\'s log on disk');
    assert.equal(logs.length, cases.length, 'every hostile server\'s log was read');
    for (const [file, text] of logs) {
      assert.match(text, /refusing to sign in/, file);
      assert.doesNotMatch(text, /OAuth: (opening the authorization page|sending the user to)/, `${file}: nothing was opened`);
    }
  });
});

/**
 * MCP Host's servers as native MCP servers of VS Code's own chat (issue 31): the definitions MCP Host
 * provides, VS Code's built-in MCP host starting them through MCP Host's gateway, their tools in
 * `vscode.lm.tools` under VS Code's own names and called with `vscode.lm.invokeTool`; a
 * 2026-07-28-only server reached that way; consent that VS Code asks exactly where MCP Host would;
 * the setting that turns the route off; a terminal agent's token refused after it is revoked.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { selectItems, setSetting, waitFor } from './helpers';
import { choose, items, nextPrompt } from './consentDriver';
import { declareServers, fixture, nodeServer, serverItems, waitState, type TestApi } from './mcpHost';
import { lmText as textOf, startInVsCode } from './nativeDriver';

const SERVERS = ['nativeEcho', 'modern2026', 'liar'] as const;
const mcpText = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).map(c => c.text ?? '').join('');

async function definitions(api: TestApi): Promise<vscode.McpHttpServerDefinition[]> {
  return (await api.testing.native.provideMcpServerDefinitions()) ?? [];
}

/** An SDK client where VS Code's built-in client connects: the same definition, uri and headers. */
async function connectLike(definition: { uri: vscode.Uri | string; headers: Record<string, string> }): Promise<Client> {
  const client = new Client({ name: 'native-test', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(definition.uri.toString()), { requestInit: { headers: definition.headers } }));
  return client;
}

describe('native MCP servers in VS Code\'s chat (the gateway)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let mark: string;
  const clients: Client[] = [];

  const declared = () => ({
    nativeEcho: nodeServer(fixture('crashing')),
    // A 2026-07-28-only server: it refuses the 2025 handshake that VS Code's own client speaks.
    modern2026: { ...nodeServer(fixture('era2026')), env: { ERA2026_ONLY: '1' } },
    liar: { ...nodeServer(fixture('liar')), env: { FIXTURE_MARK: mark } },
  });

  before(async () => {
    mark = path.join(os.tmpdir(), `mcp-host-native-mark-${process.pid}-${Date.now()}`);
    await setSetting('mcpHost.tools.autoApprove', ['nativeEcho/echo', 'modern2026/era', 'liar/peek']);
    // On by default; set here so the suite does not depend on the default.
    await setSetting('mcpHost.chat.nativeServers', true);
    api = await declareServers(declared());
    await Promise.all(SERVERS.map(name => waitState(api.host.require(name), 'running')));
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map(c => c.close().catch(() => undefined)));
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });
  after(async () => {
    await setSetting('mcpHost.chat.nativeServers', undefined);
    await declareServers(undefined);
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await fs.rm(mark, { force: true });
  });

  it('provides one HTTP definition per server: its name as label, a version from its declaration, the gateway on 127.0.0.1 with a bearer token', async () => {
    const defs = await definitions(api);
    for (const name of SERVERS) {
      const d = defs.find(x => x.label === name);
      assert.ok(d, `a definition for ${name}`);
      assert.equal(d.uri.scheme, 'http');
      assert.equal(d.uri.authority.split(':')[0], '127.0.0.1');
      assert.match(d.headers.Authorization ?? '', /^Bearer [A-Za-z0-9_-]{40,}$/);
      assert.match(d.version ?? '', /^[A-Za-z0-9_-]{16}$/);
    }
    const before = defs.find(x => x.label === 'nativeEcho')!.version;
    // A timeout is not part of the program (approvals stay), but it is part of the declaration.
    await declareServers({ ...declared(), nativeEcho: { ...nodeServer(fixture('crashing')), timeout: 30 } });
    await waitState(api.host.require('nativeEcho'), 'running');
    const after = (await definitions(api)).find(x => x.label === 'nativeEcho')!.version;
    assert.notEqual(after, before, 'a changed declaration has another version, so VS Code refreshes its cached tools');
  });

  it('a tool picked by name from vscode.lm.tools runs through vscode.lm.invokeTool on VS Code\'s native MCP path', async () => {
    const name = await startInVsCode('nativeEcho', 'echo');
    const info = vscode.lm.tools.find(t => t.name === name)!;
    assert.equal(info.description, 'Echo text back');
    const r = await vscode.lm.invokeTool(name, { input: { text: 'native hello' }, toolInvocationToken: undefined });
    assert.equal(textOf(r), 'native hello');
  });

  it('a 2026-07-28-only server\'s tool works through the native path (VS Code speaks 2025-11-25 to the gateway)', async () => {
    assert.equal(api.host.require('modern2026').protocolVersion, '2026-07-28');
    const name = await startInVsCode('modern2026', 'era');
    const r = await vscode.lm.invokeTool(name, { input: {}, toolInvocationToken: undefined });
    assert.equal(textOf(r), '2026-07-28');
  });

  it('VS Code\'s chat is shown readOnlyHint only where MCP Host would not ask, and no app UI (attacker: a server that calls its side effect read-only)', async () => {
    const liar = (await definitions(api)).find(d => d.label === 'liar')!;
    const c = await connectLike(liar);
    clients.push(c);
    const tools = (await c.listTools()).tools;
    const wipe = tools.find(t => t.name === 'wipe')!;
    assert.equal(wipe.annotations?.readOnlyHint, false, 'the server\'s own claim is not passed on: VS Code must confirm wipe');
    assert.equal(tools.find(t => t.name === 'peek')!.annotations?.readOnlyHint, true, 'peek is approved in mcpHost.tools.autoApprove: VS Code need not ask');
    const panel = tools.find(t => t.name === 'panel')!;
    assert.equal(panel._meta?.ui, undefined, 'no app UI: VS Code would let it call tools without any confirmation');
  });

  it('a call VS Code confirmed is not asked again by MCP Host, and runs once', async () => {
    // In the rig VS Code's confirmation of a call without a chat session is its DialogService.confirm,
    // which answers yes by itself in extension tests (skipDialogs): it stands for the user's Allow.
    const wipe = await startInVsCode('liar', 'wipe');
    const ours: string[] = [];
    const sub = api.testing.quickInput.onDidShow(i => ours.push(i.title ?? '(untitled)'));
    try {
      assert.equal(textOf(await vscode.lm.invokeTool(wipe, { input: { target: 'once' }, toolInvocationToken: undefined })), 'WIPED once');
    } finally {
      sub.dispose();
    }
    assert.deepEqual(ours, [], 'MCP Host showed no prompt of its own');
    assert.equal((await fs.readFile(mark, 'utf8')).match(/wipe once/g)?.length, 1);
  });

  it('a tool VS Code was told needs no confirmation, whose approval was revoked since, is asked by MCP Host (attacker: a stale tool list)', async () => {
    const liar = (await definitions(api)).find(d => d.label === 'liar')!;
    const c = await connectLike(liar);
    clients.push(c);
    // VS Code's cache holds this list (peek: readOnlyHint true) and may call from it before listing again.
    assert.equal((await c.listTools()).tools.find(t => t.name === 'peek')!.annotations?.readOnlyHint, true);
    await setSetting('mcpHost.tools.autoApprove', ['nativeEcho/echo', 'modern2026/era']);
    const call = c.callTool({ name: 'peek', arguments: {} });
    const prompt = await nextPrompt(api, /MCP server "liar" wants to run tool "peek"/);
    assert.match(items(prompt)[0].label, /Deny/);
    await choose(prompt, /Deny/);
    const r = await call;
    assert.equal(r.isError, true);
    assert.doesNotMatch(mcpText(r), /PEEK/);
    await setSetting('mcpHost.tools.autoApprove', ['nativeEcho/echo', 'modern2026/era', 'liar/peek']);
  });

  it('ATTACKER (settings kept between reads): a tool the user disables, or a server a workspace excludes, is refused on the very next call', async () => {
    const echo = (await definitions(api)).find(d => d.label === 'nativeEcho')!;
    const c = await connectLike(echo);
    clients.push(c);
    // Read through once, so that every value the call path reads is kept before the change.
    assert.equal(mcpText(await c.callTool({ name: 'echo', arguments: { text: 'before' } })), 'before');
    await setSetting('mcpHost.tools.disabled', ['nativeEcho/echo']);
    try {
      const r = await c.callTool({ name: 'echo', arguments: { text: 'after disable' } });
      assert.equal(r.isError, true, mcpText(r));
      assert.doesNotMatch(mcpText(r), /after disable/);
    } finally { await setSetting('mcpHost.tools.disabled', undefined); }
    assert.equal(mcpText(await c.callTool({ name: 'echo', arguments: { text: 'again' } })), 'again');
    await setSetting('mcpHost.chat.excludedServers', ['nativeEcho'], vscode.ConfigurationTarget.Workspace);
    try {
      const r = await c.callTool({ name: 'echo', arguments: { text: 'after exclude' } });
      assert.equal(r.isError, true, mcpText(r));
      assert.doesNotMatch(mcpText(r), /after exclude/);
    } finally { await setSetting('mcpHost.chat.excludedServers', undefined, vscode.ConfigurationTarget.Workspace); }
  });

  it('the Servers view says where each server\'s tools are offered', async () => {
    const row = (await serverItems(api)).find(i => i.label === 'nativeEcho')!;
    assert.match(row.tooltip, /VS Code's chat as a native MCP server, in @mcp and through the MCP Host tools/);
  });

  it('mcpHost.chat.nativeServers off: no definitions, and the Servers view says so', async () => {
    let changes = 0;
    const sub = api.testing.native.onDidChangeMcpServerDefinitions(() => changes++);
    try {
      await setSetting('mcpHost.chat.nativeServers', false);
      await waitFor(() => changes > 0, 5_000, 'the provider to announce the change');
      assert.deepEqual(await definitions(api), []);
      await waitFor(async () => /not as a native MCP server/.test((await serverItems(api)).find(i => i.label === 'nativeEcho')!.tooltip), 5_000, 'the view to say so');
      // The wrappers stay.
      assert.ok(vscode.lm.tools.some(t => t.name === 'mcpHost_callTool'));
    } finally {
      sub.dispose();
      await setSetting('mcpHost.chat.nativeServers', true);
    }
    assert.equal((await definitions(api)).length, SERVERS.length);
  });

  it('MCP: Connect a Terminal Agent… names the servers, gives a token of its own; the agent is listed with its last call and refused after it is revoked', async () => {
    const done = vscode.commands.executeCommand('mcpHost.connectAgent');
    await choose(await nextPrompt(api, /Connect a Terminal Agent/), /Another Streamable HTTP client/);
    const servers = await nextPrompt(api, /Connect a Terminal Agent/);
    const echo = servers.items.find(i => i.label === 'nativeEcho')!;
    await selectItems(servers, [echo]);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const consent = await nextPrompt(api, /Let Another Streamable HTTP client reach nativeEcho\?/);
    assert.match(consent.activeItems[0].label, /Cancel/, 'Cancel is the safe, active answer');
    await choose(consent, /Connect/);
    await done;
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find(e => e.document.isUntitled && /"nativeEcho"/.test(e.document.getText())), 10_000, 'the snippet editor');
    const snippet = JSON.parse(editor.document.getText()) as { servers: Record<string, { url: string; headers: Record<string, string> }> };
    assert.deepEqual(Object.keys(snippet.servers), ['nativeEcho'], 'only the server the user picked');
    const entry = snippet.servers.nativeEcho;

    const agent = await connectLike({ uri: entry.url, headers: entry.headers });
    clients.push(agent);
    const call = agent.callTool({ name: 'echo', arguments: { text: 'from the terminal' } });
    // nativeEcho/echo is in tools.autoApprove: the agent's call needs no question either.
    assert.equal(mcpText(await call), 'from the terminal');
    const listed = api.testing.gateway.current!.agents.find(a => a.label === 'Another Streamable HTTP client')!;
    assert.deepEqual(listed.servers, ['nativeEcho']);
    assert.equal(listed.lastCall?.tool, 'echo');
    // Another server than the one picked is not reachable with this token.
    const other = await connectLike({ uri: entry.url.replace(/nativeEcho$/, 'liar'), headers: entry.headers }).then(() => 'connected', (e: unknown) => String(e));
    assert.notEqual(other, 'connected');

    const revoking = vscode.commands.executeCommand('mcpHost.showAgents');
    const list = await nextPrompt(api, /Connected Terminal Agents/);
    assert.match(items(list).find(i => i.label === 'Another Streamable HTTP client')!.detail ?? '', /Last call: echo of nativeEcho/);
    await choose(list, /Another Streamable HTTP client/);
    await choose(await nextPrompt(api, /Revoke the token of Another Streamable HTTP client\?/), /Revoke/);
    await revoking;
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    const refused = await agent.callTool({ name: 'echo', arguments: { text: 'after revoke' } }).then(r => mcpText(r), (e: unknown) => `refused: ${String(e)}`);
    assert.match(refused, /^refused: /);
    const again = await connectLike({ uri: entry.url, headers: entry.headers }).then(() => 'connected', (e: unknown) => String(e));
    assert.match(again, /401|Unauthorized/);
  });
});

/**
 * MCP Host's server in VS Code's own chat UI (issue 31): VS Code's built-in MCP client starts our
 * native definition of server-everything (through MCP Host's gateway), then the Playwright suite
 * (test/ui-workbench/l-native-chat.test.mjs) works VS Code's chat input like a person:
 *   (a) types `/mcp.everything.`, picks `args-prompt` from the suggestions, answers its two
 *       arguments in VS Code's quick input, and reads what VS Code put into the chat input;
 *   (b) clicks Add Context…, chooses MCP Resources…, picks `features.md` under "everything", sees the
 *       attachment chip, and sends `@mcp` a question with it attached.
 * This side checks that each went through MCP Host: the host's connection to the server answered the
 * gateway's `prompts/get` and `resources/read` (spied on the connection VS Code's requests end at), the
 * text the server's prompt returns is what VS Code inserted, and the resource's text reached the model.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting, waitFor } from '../helpers';
import { pickScriptedModel, requestsAtLeast } from '../chatDriver';
import { declareServers, everythingBin, nodeServer, waitState, type TestApi } from '../mcpHost';
import { vscodeServerId } from '../nativeDriver';
import { uiStep } from './bridge';

const RESOURCE_URI = 'demo://resource/static/document/features.md';

describe('VS Code\'s own chat: an MCP Host server\'s prompt as its / command, its resource through Add Context (Playwright)', function () {
  this.timeout(180_000);
  let api: TestApi;
  const prompts: { name: string; args: Record<string, string> }[] = [];
  const reads: string[] = [];

  before(async () => {
    await setSetting('mcpHost.chat.nativeServers', true);
    api = await declareServers({ everything: nodeServer(everythingBin) });
    const conn = api.host.require('everything');
    await waitState(conn, 'running', 20_000);
    assert.ok(conn.catalog.get('prompts').some(p => p.name === 'args-prompt'), 'server-everything lists args-prompt');
    assert.ok(conn.catalog.get('resources').some(r => r.uri === RESOURCE_URI), `server-everything lists ${RESOURCE_URI}`);
    // What the gateway asks of the host's connection for VS Code's client (src/core/gateway/proxyServer.ts).
    const getPrompt = conn.getPrompt.bind(conn);
    conn.getPrompt = (name, args, opts) => { prompts.push({ name, args: { ...args } }); return getPrompt(name, args, opts); };
    const readResource = conn.readResource.bind(conn);
    conn.readResource = (uri, opts) => { reads.push(uri); return readResource(uri, opts); };
    // VS Code's built-in MCP host starts our native definition (its prompts and resources come with it).
    // VS Code prefixes the tools with the serverInfo the gateway gives: the declared name, never the server's
    // own title ("Everything Reference Server" would make mcp_everything_re_get-sum).
    await waitFor(async () => {
      await vscode.commands.executeCommand('workbench.mcp.startServer', vscodeServerId('everything'), { waitForLiveTools: true });
      return vscode.lm.tools.some(t => t.name === 'mcp_everything_get-sum');
    }, 60_000, 'VS Code\'s built-in MCP host to start our definition of everything and list its tools');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await pickScriptedModel();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await declareServers(undefined);
    await setSetting('mcpHost.chat.nativeServers', undefined);
  });

  it('the server\'s prompt is a / command of VS Code\'s chat input; run with its arguments, VS Code inserts the text MCP Host fetched', async () => {
    const shown = await uiStep('native-prompt', { server: 'everything', prompt: 'args-prompt', city: 'Paris', state: 'France' }, 150_000) as
      { error?: string; suggestions?: string[]; input?: string; titles?: string[] };
    assert.equal(shown.error, undefined, `UI step failed: ${shown.error} (suggestions: ${JSON.stringify(shown.suggestions)})`);
    for (const p of ['simple-prompt', 'args-prompt']) assert.ok(shown.suggestions?.includes(`/mcp.everything.${p}`), `/mcp.everything.${p} among ${JSON.stringify(shown.suggestions)}`);
    assert.deepEqual(shown.titles, ['Value for: city', 'Value for: state'], 'VS Code asked for both arguments');
    assert.deepEqual(prompts, [{ name: 'args-prompt', args: { city: 'Paris', state: 'France' } }], 'fetched once, through MCP Host\'s connection');
    assert.equal(shown.input, 'What\'s weather in Paris, France?', 'the prompt\'s message replaced the / command in the input');
  });

  it('Add Context › MCP Resources lists the server\'s resources; the attached one is read through MCP Host when sent', async () => {
    await scriptedLm.reset();
    reads.length = 0;
    const shown = await uiStep('native-resource', { resource: 'features.md', agent: 'mcp', question: 'what is attached?' }, 150_000) as
      { error?: string; picks?: string[]; row?: string; chip?: string; sent?: string };
    assert.equal(shown.error, undefined, `UI step failed: ${shown.error} (picks: ${JSON.stringify(shown.picks)})`);
    // The picker's row: the resource's name and, as its detail, the server's own URI for it.
    assert.ok(shown.row?.includes('features.md') && shown.row.includes(RESOURCE_URI), `the picker's row for features.md: ${shown.row}`);
    assert.match(shown.chip ?? '', /features\.md/, 'the attachment chip in the chat input');
    assert.equal(shown.sent, '@mcp what is attached?', 'what was sent, with the resource attached');
    const [req] = await requestsAtLeast(1, 30_000);
    const user = req.messages.filter(m => m.role === 'user').flatMap(m => m.content).map(p => (p.type === 'text' ? p.value : '')).join('\n');
    // @mcp reads the attached mcp-resource: URI with workspace.fs: VS Code's MCP client, the gateway, MCP Host.
    assert.match(user, /Attached context mcp-resource:\S+:\n# Everything Server - Features/, 'the resource\'s text reached the model as attached context');
    await waitFor(() => reads.includes(RESOURCE_URI), 5_000, `a resources/read of ${RESOURCE_URI} through MCP Host's connection (saw ${JSON.stringify(reads)})`);
  });
});

/** @mcp participant, tool confirmation, language-model tools and the exported API, in a real VS Code. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting, waitFor } from './helpers';
import { ask, requestsAtLeast, texts, toolResultOf, toolResultText, pickScriptedModel } from './chatDriver';
import { declareServers, type TestApi, everythingBin, fixture, nodeServer, textOf, waitState } from './mcpHost';
import { choose, items, nextPrompt } from './consentDriver';

interface HangingCounts { hangCancelled: number; taskCancelled: number; hangStarted: number; tasksCreated: number; taskPolls: number }

describe('tools for chat', function () {
  this.timeout(60_000);
  let api: TestApi;
  const counts = async () => JSON.parse(textOf(await api.callTool('hanging', 'cancelled-count'))) as HangingCounts;

  before(async () => {
    api = await declareServers({ everything: nodeServer(everythingBin), hanging: nodeServer(fixture('hanging')) });
    await waitState(api.host.require('everything'), 'running');
    await pickScriptedModel();
  });
  beforeEach(() => scriptedLm.reset());
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await setSetting('mcpHost.tools.disabled', undefined);
    await declareServers(undefined);
  });

  it('@mcp offers the MCP tools to the model and runs the tool-calling loop', async () => {
    await setSetting('mcpHost.tools.autoApprove', ['everything/*']);
    await scriptedLm.script([{ toolCall: { name: 'everything_echo', input: { message: 'from chat' }, callId: 'c1' } }], 'The echo said: from chat');
    await ask('@mcp echo "from chat" please');
    const reqs = await requestsAtLeast(2, 20_000);
    const offered = reqs[0].options.tools.map(t => t.name);
    assert.ok(offered.includes('everything_echo') && offered.includes('everything_get-sum'), offered.join());
    const echo = reqs[0].options.tools.find(t => t.name === 'everything_echo')!;
    assert.match(echo.description, /^\[everything\]/);
    assert.ok(echo.inputSchema, 'input schema passed');
    assert.ok(offered.every(n => n.length <= 64 && /^[A-Za-z0-9_-]+$/.test(n)));
    assert.match(toolResultText(reqs[1]), /Echo: from chat/);
    assert.ok(api.listTools('everything').length > 5);
  });

  it('feeds isError results and structured content back to the model, each on its own field', async () => {
    await setSetting('mcpHost.tools.autoApprove', ['everything/*']);
    const weather = (await api.callTool('everything', 'get-structured-content', { location: 'Chicago' })).structuredContent;
    assert.ok(weather && typeof weather === 'object');
    await scriptedLm.script(
      [{ toolCall: { name: 'everything_get-sum', input: { a: 'not a number' }, callId: 'bad' } }, { toolCall: { name: 'everything_get-structured-content', input: { location: 'Chicago' }, callId: 'st' } }],
      'ok',
    );
    await ask('@mcp add things');
    const reqs = await requestsAtLeast(2, 20_000);
    const bad = toolResultOf(reqs[1], 'bad');
    assert.equal(bad.isError, true, 'the error result is flagged as one');
    assert.equal(texts(bad)[0], 'The tool reported an error:');
    const st = toolResultOf(reqs[1], 'st');
    assert.equal(st.isError, false);
    // server-everything sends the weather twice: as a text block and as structuredContent; the second is its own part.
    assert.deepEqual(texts(st).map(t => JSON.parse(t) as unknown), [weather, weather]);
  });

  it('asks before running a tool that is not pre-approved, showing server, tool and arguments; "deny" goes back to the model', async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    const ranBefore = api.toolActivity.filter(a => a.tool === 'get-sum' && a.outcome === 'ok').length;
    await scriptedLm.script([{ toolCall: { name: 'everything_get-sum', input: { a: 1, b: 2 }, callId: 'd1' } }], 'Understood, not running it.');
    await ask('@mcp add 1 and 2');
    const prompt = await nextPrompt(api, /^MCP server "everything" wants to run tool "get-sum"$/);
    assert.match(prompt.activeItems[0]?.label ?? '', /Deny$/, 'the safe choice is active');
    const shown = items(prompt);
    const at = (label: string) => shown.findIndex(i => i.label === label);
    assert.ok(at('get-sum') > 0, `the tool is listed: ${shown.map(i => i.label).join(' | ')}`);
    assert.match(shown[at('get-sum')].detail ?? '', /sum/i, "the tool's description");
    assert.deepEqual([shown[at('a')]?.detail, shown[at('b')]?.detail], ['1', '2'], 'every argument with its value');
    assert.match(prompt.placeholder ?? '', /2 argument\(s\)/);
    await choose(prompt, /Deny$/);
    const reqs = await requestsAtLeast(2, 20_000);
    const denied = toolResultOf(reqs[1], 'd1');
    assert.equal(denied.isError, true);
    assert.match(texts(denied).join('\n'), /denied/);
    assert.equal(api.toolActivity.filter(a => a.tool === 'get-sum' && a.outcome === 'ok').length, ranBefore, 'the tool did not run');
    assert.equal(api.toolActivity.at(-1)?.outcome, 'denied');
  });

  it('"always allow this tool" persists the approval', async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await scriptedLm.script([{ toolCall: { name: 'everything_get-sum', input: { a: 20, b: 22 }, callId: 'a1' } }], 'done');
    await ask('@mcp add 20 and 22');
    await choose(await nextPrompt(api, /^MCP server "everything" wants to run tool "get-sum"$/), /Always allow "get-sum"$/);
    assert.match(toolResultText((await requestsAtLeast(2, 20_000))[1]), /42/);
    // The next call runs without a prompt: the approval is stored (not as a pattern in the settings).
    await scriptedLm.reset();
    await scriptedLm.script([{ toolCall: { name: 'everything_get-sum', input: { a: 1, b: 1 }, callId: 'a2' } }], 'done');
    await ask('@mcp add 1 and 1');
    assert.match(toolResultText((await requestsAtLeast(2, 20_000))[1]), /\b2\b/);
    assert.deepEqual(vscode.workspace.getConfiguration('mcpHost').get<string[]>('tools.autoApprove') ?? [], []);
  });

  it('never offers disabled tools', async () => {
    await setSetting('mcpHost.tools.disabled', ['everything/echo']);
    await scriptedLm.script('nothing to do');
    await ask('@mcp hello');
    const [req] = await requestsAtLeast(1, 20_000);
    const names = req.options.tools.map(t => t.name);
    assert.ok(!names.includes('everything_echo') && names.includes('everything_get-sum'));
    await setSetting('mcpHost.tools.disabled', undefined);
  });

  it('runs task-augmented tools (simulate-research-query) and returns their result', async () => {
    await setSetting('mcpHost.tools.autoApprove', ['everything/*']);
    await scriptedLm.script([{ toolCall: { name: 'everything_simulate-research-query', input: { topic: 'roots' }, callId: 't1' } }], 'done');
    await ask('@mcp research roots');
    const reqs = await requestsAtLeast(2, 30_000);
    assert.match(toolResultText(reqs[1]), /Research Report: roots/);
  });

  it('cancelling the chat request cancels the running tool on the server', async () => {
    await setSetting('mcpHost.tools.autoApprove', ['hanging/*']);
    const before = await counts();
    await scriptedLm.script([{ toolCall: { name: 'hanging_hang', input: {}, callId: 'h1' } }], 'never reached');
    await ask('@mcp hang forever');
    await waitFor(async () => (await counts()).hangStarted > before.hangStarted, 20_000, 'the call to reach the server');
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    await waitFor(async () => (await counts()).hangCancelled > before.hangCancelled, 10_000, 'server saw notifications/cancelled');
    await waitFor(() => api.toolActivity.some(a => a.tool === 'hang' && a.outcome === 'cancelled'), 10_000, 'the call to end as cancelled');
    assert.equal((await scriptedLm.requests()).length, 1, 'no further model round after cancel');
  });

  it('offers language-model tools to other participants: find, call, read', async () => {
    await setSetting('mcpHost.tools.autoApprove', ['everything/*']);
    const names = vscode.lm.tools.map(t => t.name);
    for (const n of ['mcpHost_findTools', 'mcpHost_callTool', 'mcpHost_readResource']) assert.ok(names.includes(n), n);
    const token = new vscode.CancellationTokenSource().token;
    const text = (r: vscode.LanguageModelToolResult) => r.content.map(p => (p as vscode.LanguageModelTextPart).value).join('');
    const found = await vscode.lm.invokeTool('mcpHost_findTools', { input: { query: 'sum' }, toolInvocationToken: undefined }, token);
    assert.match(text(found), /"tool":"get-sum"/);
    const called = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'everything', tool: 'echo', arguments: { message: 'lm tool' } }, toolInvocationToken: undefined }, token);
    assert.match(text(called), /Echo: lm tool/);
    const uri = api.listResources('everything')[0].resource.uri;
    const read = vscode.lm.invokeTool('mcpHost_readResource', { input: { server: 'everything', uri }, toolInvocationToken: undefined }, token);
    await choose(await nextPrompt(api, /^A language model wants to read a resource of MCP server "everything"$/), /Allow once$/);
    assert.ok(text(await read).length > 0);
  });

  it('exports a typed API: servers, catalogs, calls and events', async () => {
    assert.equal(api.version, 2);
    const [summary] = api.listServers().filter(s => s.name === 'everything');
    assert.equal(summary.state, 'running');
    assert.equal(summary.protocolVersion, '2025-11-25');
    assert.ok(api.listPrompts('everything').some(p => p.prompt.name === 'simple-prompt'));
    assert.ok(api.listResourceTemplates('everything').length >= 2);
    assert.equal(textOf(await api.callTool('everything', 'echo', { message: 'api' })), 'Echo: api');
    assert.ok((await api.readResource('everything', 'demo://resource/dynamic/text/1')).contents.length);
    assert.match(JSON.stringify((await api.getPrompt('everything', 'args-prompt', { city: 'Oslo' })).messages), /Oslo/);
    const states: string[] = [];
    const sub = api.onDidChangeServerState(e => states.push(`${e.server}:${e.state}`));
    await api.host.require('everything').restart();
    sub.dispose();
    assert.deepEqual(states.filter(s => s.startsWith('everything')), ['everything:starting', 'everything:running']);
    await assert.rejects(api.callTool('nope', 'x'), /nope: no server with this name is configured/);
  });
});

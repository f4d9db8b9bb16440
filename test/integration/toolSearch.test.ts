/** @mcp's tool budget and progressive discovery (find_tools), and mcpHost_findTools, in a real VS Code with the scripted model. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast, toolResultText } from './chatDriver';
import { declareServers, type TestApi, everythingBin, fixture, nodeServer, waitState } from './mcpHost';
import { choose, nextPrompt } from './consentDriver';

describe('tool search and find_tools', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    api = await declareServers({ everything: nodeServer(everythingBin), other: nodeServer(fixture('crashing')) });
    await waitState(api.host.require('everything'), 'running');
    await waitState(api.host.require('other'), 'running');
    await pickScriptedModel();
  });
  beforeEach(async () => {
    await scriptedLm.reset();
    // Three tools a request: two MCP tools and find_tools, so most of server-everything's tools are left out.
    await setSetting('mcpHost.chat.maxTools', 3);
  });
  after(async () => {
    await setSetting('mcpHost.chat.maxTools', undefined);
    await setSetting('mcpHost.tools.disabled', undefined);
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await setSetting('mcpHost.toolSets', undefined);
    await setSetting('mcpHost.chat.excludedServers', undefined);
    await declareServers(undefined);
  });

  it('a tool outside the first selection is found with find_tools, offered in the next round, and still asks before it runs', async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await scriptedLm.script(
      [{ toolCall: { name: 'find_tools', input: { query: 'a tiny test image' }, callId: 'f1' } }],
      [{ toolCall: { name: 'everything_get-tiny-image', input: {}, callId: 's1' } }],
      'Here it is.',
    );
    await ask('@mcp hello there');
    // Pulling the tool in approved nothing: the call asks (this tool was never approved in this window).
    await choose(await nextPrompt(api, /^MCP server "everything" wants to run tool "get-tiny-image"$/), /Deny$/);
    const reqs = await requestsAtLeast(3, 20_000);
    const offered = reqs.map(r => r.options.tools.map(t => t.name));
    assert.equal(offered[0].length, 3, offered[0].join());
    assert.ok(offered[0].includes('find_tools') && !offered[0].includes('everything_get-tiny-image'), offered[0].join());
    assert.match(toolResultText(reqs[1]), /everything_get-tiny-image: \[everything\]/);
    assert.ok(offered[1].includes('everything_get-tiny-image') && offered[1].includes('find_tools'), offered[1].join());
    assert.match(toolResultText(reqs[2]), /denied/);
  });

  it('find_tools never offers a disabled tool, and the model cannot call it by name', async () => {
    await setSetting('mcpHost.tools.disabled', ['everything/get-sum']);
    await scriptedLm.script(
      [{ toolCall: { name: 'find_tools', input: { query: 'sum of two numbers' }, callId: 'f2' } }],
      [{ toolCall: { name: 'everything_get-sum', input: { a: 1, b: 1 }, callId: 's2' } }],
      'ok',
    );
    await ask('@mcp hello again');
    const reqs = await requestsAtLeast(3, 20_000);
    assert.doesNotMatch(toolResultText(reqs[1]), /get-sum/);
    assert.ok(reqs.every(r => !r.options.tools.some(t => t.name === 'everything_get-sum')));
    assert.match(toolResultText(reqs[2]), /There is no tool named everything_get-sum/);
    await setSetting('mcpHost.tools.disabled', undefined);
  });

  it('the first selection follows the request, within the budget', async () => {
    await scriptedLm.script('nothing to do');
    await ask('@mcp what is the sum of 2 and 3?');
    const [req] = await requestsAtLeast(1, 20_000);
    const names = req.options.tools.map(t => t.name);
    assert.equal(names[0], 'everything_get-sum', names.join());
    assert.ok(names.length === 3 && names.includes('find_tools'), names.join());
  });

  it('mcpHost_findTools ranks with the same index, in English and Chinese', async () => {
    const token = new vscode.CancellationTokenSource().token;
    const first = async (query: string) => {
      const r = await vscode.lm.invokeTool('mcpHost_findTools', { input: { query }, toolInvocationToken: undefined }, token);
      const line = r.content.map(p => (p as vscode.LanguageModelTextPart).value).join('').split('\n')[0];
      return (JSON.parse(line) as { tool: string }).tool;
    };
    assert.equal(await first('add two numbers'), 'get-sum');
    assert.equal(await first('计算两个数的总和'), 'get-sum');
    assert.equal(await first('echo a message back'), 'echo');
  });

  const offeredFor = async (query: string) => {
    await scriptedLm.reset();
    await scriptedLm.script('ok');
    await ask(query);
    const [req] = await requestsAtLeast(1, 20_000);
    return req.options.tools.map(t => t.name).sort();
  };

  it('#server and /use offer only the named servers\' tools', async () => {
    await setSetting('mcpHost.chat.maxTools', undefined);
    const all = await offeredFor('@mcp echo hi');
    assert.ok(all.some(n => n.startsWith('everything_')) && all.some(n => n.startsWith('other_')), all.join());
    assert.deepEqual(await offeredFor('@mcp #other echo hi'), ['other_crash', 'other_crash-later', 'other_echo', 'other_pid']);
    assert.deepEqual(await offeredFor('@mcp /use other echo hi'), ['other_crash', 'other_crash-later', 'other_echo', 'other_pid']);
  });

  it('a tool set restricts what is offered, and cannot bring back a disabled tool', async () => {
    await setSetting('mcpHost.chat.maxTools', undefined);
    await setSetting('mcpHost.toolSets', { math: ['everything/get-sum', 'other/echo'] });
    assert.deepEqual(await offeredFor('@mcp #math add 1 and 2'), ['everything_get-sum', 'other_echo']);
    await setSetting('mcpHost.tools.disabled', ['everything/get-sum']);
    assert.deepEqual(await offeredFor('@mcp /use math add 1 and 2'), ['other_echo']);
    await setSetting('mcpHost.tools.disabled', undefined);
  });

  it('a server excluded from chat keeps running but is offered, found and called by no model', async () => {
    await setSetting('mcpHost.chat.maxTools', undefined);
    await setSetting('mcpHost.chat.excludedServers', ['other']);
    const offered = await offeredFor('@mcp echo hi');
    assert.ok(offered.length && !offered.some(n => n.startsWith('other_')), offered.join());
    assert.deepEqual(await offeredFor('@mcp #other echo hi'), [], 'naming an excluded server brings none of its tools back');
    const token = new vscode.CancellationTokenSource().token;
    const value = (r: vscode.LanguageModelToolResult) => r.content.map(p => (p as vscode.LanguageModelTextPart).value).join('');
    const found = await vscode.lm.invokeTool('mcpHost_findTools', { input: { query: 'echo text back' }, toolInvocationToken: undefined }, token);
    assert.doesNotMatch(value(found), /"server":"other"/);
    const called = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'other', tool: 'echo', arguments: { text: 'x' } }, toolInvocationToken: undefined }, token);
    assert.match(value(called), /excluded/);
    assert.equal(api.host.require('other').state, 'running');
    await setSetting('mcpHost.chat.excludedServers', undefined);
  });
});

/**
 * Images in tool results reach a model that reads images as image data (issue 15b), within the
 * result budget of issue 19 (a fixed IMAGE_TOKEN_COST per image); other models get the placeholder.
 * server-everything's get-tiny-image returns a PNG; the scripted models record what they receive.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from './helpers';
import { pickScriptedModel, requestsAtLeast, toolResultOf } from './chatDriver';
import { declareServers, everythingBin, nodeServer, textOf, waitState, type TestApi } from './mcpHost';

const askWith = (id: string, query: string) => vscode.commands.executeCommand('workbench.action.chat.open', { query, modelSelector: { vendor: 'scripted', id } });

describe('images in @mcp tool results', function () {
  this.timeout(90_000);
  let api: TestApi;
  let png: { mimeType: string; data: string };

  before(async () => {
    api = await declareServers({ everything: nodeServer(everythingBin) });
    await waitState(api.host.require('everything'), 'running');
    await setSetting('mcpHost.tools.autoApprove', ['everything/get-tiny-image']);
    const r = await api.host.require('everything').callTool('get-tiny-image', {});
    png = r.content.find(c => c.type === 'image') as { mimeType: string; data: string };
    assert.ok(png, `get-tiny-image returned an image: ${textOf(r)}`);
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await setSetting('mcpHost.chat.maxResultTokens', undefined);
    await pickScriptedModel(); // the model the other tests expect in the Chat view
    await declareServers(undefined);
  });

  it('a model that reads images gets the image bytes (type and length) next to the placeholder', async () => {
    await scriptedLm.script([{ toolCall: { name: 'everything_get-tiny-image', input: {}, callId: 'img' } }], 'I see the logo.');
    await askWith('scripted-smart', '@mcp show me the tiny image');
    const reqs = await requestsAtLeast(2, 30_000);
    assert.equal(reqs[1].model.id, 'scripted-smart');
    const result = toolResultOf(reqs[1], 'img');
    const data = result.content.filter(c => c.type === 'data');
    assert.equal(data.length, 1, JSON.stringify(result.content.map(c => c.type)));
    assert.equal(data[0].type === 'data' && data[0].mimeType, 'image/png');
    assert.equal(Buffer.from((data[0].type === 'data' && data[0].base64) || '', 'base64').length, Buffer.from(png.data, 'base64').length);
    assert.ok(result.content.some(c => c.type === 'text' && /\[image image\/png, \d+ bytes\]/.test(c.value)), 'the placeholder stays');
  });

  it('a model without image input, or a result budget smaller than an image, gets only the placeholder', async () => {
    await scriptedLm.script([{ toolCall: { name: 'everything_get-tiny-image', input: {}, callId: 'fast' } }], 'ok');
    await askWith('scripted-fast', '@mcp show me the tiny image');
    const fast = await requestsAtLeast(2, 30_000);
    const noData = (types: string[]) => assert.ok(types.length && !types.includes('data'), types.join(', '));
    noData(toolResultOf(fast[1], 'fast').content.map(c => c.type));

    await setSetting('mcpHost.chat.maxResultTokens', 1000); // below one image's 1,600 tokens
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    await scriptedLm.script([{ toolCall: { name: 'everything_get-tiny-image', input: {}, callId: 'small' } }], 'ok');
    await askWith('scripted-smart', '@mcp show me the tiny image');
    const small = await requestsAtLeast(2, 30_000);
    assert.equal(small[1].model.id, 'scripted-smart');
    noData(toolResultOf(small[1], 'small').content.map(c => c.type));
  });
});

describe('images in mcpHost_callTool results (agent mode, issue 30 item 2)', function () {
  this.timeout(90_000);
  const callTiny = async (tokenBudget?: number) => (await vscode.lm.invokeTool('mcpHost_callTool', {
    input: { server: 'everything', tool: 'get-tiny-image', arguments: {} }, toolInvocationToken: undefined,
    ...(tokenBudget ? { tokenizationOptions: { tokenBudget, countTokens: async (s: string) => Math.ceil(s.length / 4) } } : {}),
  }, new vscode.CancellationTokenSource().token)).content as unknown[];
  const dataParts = (content: unknown[]) => content.filter((p): p is { mimeType: string; data: Uint8Array } => !!p && typeof p === 'object' && 'mimeType' in p && 'data' in p);
  let png: { mimeType: string; data: string };

  before(async () => {
    const api = await declareServers({ everything: nodeServer(everythingBin) });
    await waitState(api.host.require('everything'), 'running');
    await setSetting('mcpHost.tools.autoApprove', ['everything/get-tiny-image']);
    const r = await api.host.require('everything').callTool('get-tiny-image', {});
    png = r.content.find(c => c.type === 'image') as { mimeType: string; data: string };
    assert.ok(png, `get-tiny-image returned an image: ${textOf(r)}`);
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
  });

  it('returns the image as an image data part next to the placeholder text', async () => {
    const content = await callTiny();
    const data = dataParts(content);
    assert.equal(data.length, 1, JSON.stringify(content.map(p => Object.keys(p as object))));
    assert.equal(data[0].mimeType, 'image/png');
    assert.equal(data[0].data.byteLength, Buffer.from(png.data, 'base64').length);
    assert.ok(content.some(p => p instanceof vscode.LanguageModelTextPart && /\[image image\/png, \d+ bytes\]/.test(p.value)), 'the placeholder stays');
  });

  it('keeps to the token budget VS Code gives the tool: below one image, only the placeholder', async () => {
    const content = await callTiny(1000); // below one image's 1,600 tokens
    assert.equal(dataParts(content).length, 0);
    assert.ok(content.some(p => p instanceof vscode.LanguageModelTextPart && /\[image image\/png/.test(p.value)));
  });
});

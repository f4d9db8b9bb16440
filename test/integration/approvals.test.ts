/**
 * Approvals as VS Code users know them, in a real VS Code (issue 31): the result gate
 * (`mcpHost.tools.reviewResults`) holding a prompt injection of an open-world tool (fixture
 * `injecting.ts`) — the scripted model's next request is inspected —, a session approval, and a
 * turn's calls asked in one prompt, all through @mcp and the workbench's own quick-open commands.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from './mcpHost';
import { scriptedLm, setSetting, waitFor } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast, toolResultText } from './chatDriver';
import { choose, items, nextPrompt } from './consentDriver';
import { declareServers, fixture, nodeServer, textOf, waitState } from './mcpHost';

const BLOCKED = /^The user blocked this tool result before it reached you/;
const id = () => `c-${Math.random().toString(36).slice(2)}`;

describe('approvals: lifetimes, the result gate and batched confirmations (@mcp)', function () {
  this.timeout(120_000);
  let api: TestApi;
  const calls = async () => JSON.parse(textOf(await api.callTool('pages', 'calls'))) as Record<string, number>;

  before(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    api = await declareServers({ pages: nodeServer(fixture('injecting')) });
    const conn = api.host.require('pages');
    await waitState(conn, 'running');
    await waitFor(() => conn.tool('fetch_page'), 15_000, 'the tools of pages');
    await pickScriptedModel();
  });
  beforeEach(() => scriptedLm.reset());
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));
  after(async () => {
    await setSetting('mcpHost.tools.reviewResults', undefined);
    await declareServers(undefined);
  });

  it('a prompt injection from an openWorld tool is held; blocked, the model gets the fixed message and nothing of it', async () => {
    await setSetting('mcpHost.tools.reviewResults', 'openWorld');
    await scriptedLm.script([{ toolCall: { name: 'pages_fetch_page', input: { url: 'https://example.com' }, callId: id() } }], 'done');
    await ask('@mcp fetch example.com');
    await choose(await nextPrompt(api, /^MCP server "pages" wants to run tool "fetch_page"$/), /Allow once/);
    const review = await nextPrompt(api, /^Review the result of tool "fetch_page" of MCP server "pages" before the model reads it$/);
    assert.match(items(review)[0].label, /Block this result/, 'Block is the first, active item');
    assert.ok(items(review).some(i => /IGNORE ALL PREVIOUS INSTRUCTIONS/.test(i.label)), 'the user sees the result');
    await choose(review, /Block this result/);
    const sent = toolResultText((await requestsAtLeast(2, 20_000))[1]);
    assert.match(sent, BLOCKED);
    assert.doesNotMatch(sent, /IGNORE|attacker|id_rsa/);
  });

  it('allowed, the result reaches the model; with the gate off nothing is held', async () => {
    await setSetting('mcpHost.tools.reviewResults', 'openWorld');
    await scriptedLm.script([{ toolCall: { name: 'pages_fetch_page', input: { url: 'https://a.example' }, callId: id() } }], 'done');
    await ask('@mcp fetch a.example');
    await choose(await nextPrompt(api, /^MCP server "pages" wants to run tool "fetch_page"$/), /Allow once/);
    await choose(await nextPrompt(api, /^Review the result of tool "fetch_page"/), /Allow the model to read this result/);
    assert.match(toolResultText((await requestsAtLeast(2, 20_000))[1]), /Page https:\/\/a\.example/);
  });

  it('several calls of one turn are asked in one prompt; "Deny all" runs none of them and asks nothing more', async () => {
    const before = await calls();
    await scriptedLm.script([
      { toolCall: { name: 'pages_wipe', input: { path: '\u001b[31m/\u202e' }, callId: id() } },
      { toolCall: { name: 'pages_fetch_page', input: { url: 'https://b.example' }, callId: id() } },
    ], 'done');
    await ask('@mcp do both');
    const batch = await nextPrompt(api, /^A language model wants to run 2 MCP tool calls$/);
    const labels = items(batch).map(i => `${i.label} ${i.detail ?? ''}`);
    assert.match(labels[0], /Deny all 2 calls/);
    assert.ok(labels.some(l => /^pages › wipe /.test(l)) && labels.some(l => /^pages › fetch_page url="https:\/\/b.example"/.test(l)), labels.join(' | '));
    assert.ok(!labels.some(l => /[\u001b\u202e]/.test(l)), 'the arguments are cleaned');
    await choose(batch, /Deny all/);
    const sent = toolResultText((await requestsAtLeast(2, 20_000))[1]);
    assert.match(sent, /denied running the tool "wipe"/);
    assert.match(sent, /denied running the tool "fetch_page"/);
    assert.deepEqual(await calls(), before, 'nothing ran');
  });

  it('"for this session" runs the tool again unasked (this workspace is offered too)', async () => {
    await setSetting('mcpHost.tools.reviewResults', 'off');
    const before = (await calls()).wipe ?? 0;
    await scriptedLm.script([{ toolCall: { name: 'pages_wipe', input: {}, callId: id() } }], 'done');
    await ask('@mcp wipe');
    const prompt = await nextPrompt(api, /^MCP server "pages" wants to run tool "wipe"$/);
    assert.ok(items(prompt).some(i => /^\$\(folder\) Allow "wipe" in this workspace$/.test(i.label)), 'this workspace is offered');
    await choose(prompt, /^\$\(history\) Allow "wipe" for this session$/);
    assert.match(toolResultText((await requestsAtLeast(2, 20_000))[1]), /wipe ran/);
    await scriptedLm.reset();
    await scriptedLm.script([{ toolCall: { name: 'pages_wipe', input: {}, callId: id() } }], 'done');
    await ask('@mcp wipe again');
    assert.match(toolResultText((await requestsAtLeast(2, 20_000))[1]), /wipe ran/, 'ran without a prompt');
    assert.equal((await calls()).wipe, before + 2);
  });
});

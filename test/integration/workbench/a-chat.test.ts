/**
 * Chat in the real workbench (issue 8): the @mcp participant asks before a tool runs and a person
 * answers the confirmation QuickPick — the Playwright suite (test/ui-workbench/a-chat.test.mjs) clicks
 * "Allow once" or "Deny" on step `chat-approve` / `chat-deny`. This side scripts the model, checks what
 * the model got back and what the tool activity log recorded, exports that log, and plays a second
 * extension (the scripted-LM fixture's `mcpHostTest.consumer.*` commands) calling a tool through the
 * exported API and through vscode.lm.invokeTool.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { answerFileDialog } from '../fileDialog';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolActivity } from '../../../src/vscode/chat/activityLog';
import { scriptedLm, setSetting, waitFor, workspaceRoot, type RecordedRequest } from '../helpers';
import { ask, requestsAtLeast, toolResultText, pickScriptedModel } from '../chatDriver';
import { declareServers, type TestApi, everythingBin, nodeServer, textOf, waitState } from '../mcpHost';
import { uiStep } from './bridge';

let api: TestApi;

/** What the confirmation's title names: the server and the tool's real name (never its title). */
function confirmationFor(tool: string): { server: string; tool: string } {
  assert.ok(api.host.require('everything').tool(tool), `everything offers ${tool}`);
  return { server: 'everything', tool };
}

/** Asks @mcp to add 2 and 40 with the model calling everything_get-sum, and hands the confirmation to the UI suite as `step`. */
async function sumThroughConfirmation(step: string, callId: string): Promise<{ reqs: RecordedRequest[]; activity: ToolActivity[] }> {
  const logged = api.toolActivity.length;
  await scriptedLm.script([{ toolCall: { name: 'everything_get-sum', input: { a: 2, b: 40 }, callId } }], 'The sum is 42.');
  await ask('@mcp add 2 and 40');
  await requestsAtLeast(1, 20_000);
  // The confirmation opens right after the model's answer; the UI side waits for it in the page.
  const result = await uiStep(step, confirmationFor('get-sum'), 90_000) as { clicked?: string };
  assert.ok(result.clicked, 'the UI suite clicked an item');
  const reqs = await requestsAtLeast(2, 20_000);
  const activity = await waitFor(() => { const a = api.toolActivity.slice(logged).filter(e => e.tool === 'get-sum'); return a.length ? a : undefined; }, 10_000, 'the activity entry');
  return { reqs, activity };
}

describe('chat in the workbench: tool confirmation, activity export, other extensions (Playwright)', function () {
  this.timeout(150_000);

  before(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    api = await declareServers({ everything: nodeServer(everythingBin) });
    await waitState(api.host.require('everything'), 'running', 20_000);
    await waitFor(() => api.host.require('everything').tool('get-sum'), 20_000, 'get-sum');
    await pickScriptedModel();
  });
  beforeEach(() => scriptedLm.reset());
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
  });

  it('"Allow once" clicked in the confirmation runs the tool; the model gets 42 and the activity log records it', async () => {
    const { reqs, activity } = await sumThroughConfirmation('chat-approve', 'allow1');
    assert.match(toolResultText(reqs[1]), /\b42\b/);
    const [entry] = activity;
    assert.equal(entry.server, 'everything');
    assert.equal(entry.outcome, 'ok');
    assert.equal(entry.approvedBy, 'user:once');
    assert.deepEqual(entry.args, { a: 2, b: 40 });
    assert.match(entry.result, /42/);
    // "once" saves nothing
    assert.deepEqual(vscode.workspace.getConfiguration('mcpHost').get<string[]>('tools.autoApprove') ?? [], []);
  });

  it('"Deny" clicked in the confirmation goes back to the model and is logged as denied', async () => {
    const { reqs, activity } = await sumThroughConfirmation('chat-deny', 'deny1');
    const result = toolResultText(reqs[1]);
    assert.match(result, /denied/);
    assert.doesNotMatch(result, /\b42\b/);
    const [entry] = activity;
    assert.equal(entry.outcome, 'denied');
    assert.equal(entry.approvedBy, undefined);
  });

  it('Enter pressed on the fresh confirmation denies (the safe choice is the default)', async () => {
    const { reqs, activity } = await sumThroughConfirmation('chat-enter', 'enter1');
    assert.match(toolResultText(reqs[1]), /denied/);
    assert.equal(activity[0].outcome, 'denied');
  });

  it('MCP: Export Tool Activity… writes the entries as JSON where the save dialog (proposing the target Uri) was confirmed', async () => {
    const target = vscode.Uri.joinPath(workspaceRoot(), 'exported-tool-activity.json');
    const written = await answerFileDialog(vscode.commands.executeCommand<vscode.Uri | undefined>('mcpHost.exportToolActivity', target), 'accept');
    assert.equal(written?.toString(), target.toString());
    const exported = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(target))) as ToolActivity[];
    assert.equal(exported.length, api.toolActivity.length);
    const sums = exported.filter(e => e.server === 'everything' && e.tool === 'get-sum');
    assert.deepEqual(sums.slice(-3).map(e => e.outcome), ['ok', 'denied', 'denied']);
    assert.ok(sums.every(e => typeof e.time === 'string' && typeof e.durationMs === 'number'));
    assert.ok((await vscode.commands.getCommands(true)).includes('mcpHost.exportToolActivity'));
  });

  it('a second extension calls a tool through the exported API and through vscode.lm.invokeTool(mcpHost_callTool)', async () => {
    const logged = api.toolActivity.length;
    const viaApi = await vscode.commands.executeCommand<CallToolResult>('mcpHostTest.consumer.callTool', 'everything', 'get-sum', { a: 20, b: 22 });
    assert.match(textOf(viaApi), /\b42\b/);
    assert.deepEqual(api.toolActivity.slice(logged).map(e => [e.tool, e.outcome, e.approvedBy]), [['get-sum', 'ok', 'extension API']]);

    await setSetting('mcpHost.tools.autoApprove', ['everything/*']);
    const viaLm = await vscode.commands.executeCommand<string>('mcpHostTest.consumer.invokeTool', 'mcpHost_callTool', { server: 'everything', tool: 'echo', arguments: { message: 'from another extension' } });
    assert.match(viaLm, /Echo: from another extension/);
    assert.deepEqual(api.toolActivity.slice(logged + 1).map(e => [e.tool, e.outcome]), [['echo', 'ok']]);
  });
});

/**
 * Found by the second outside attack (issue 28 §1): @mcp shows a tool's progress in its chat response, and
 * VS Code renders `stream.progress` text as Markdown. A server's progress message wrote bold text that read
 * as MCP Host's ("every tool approved") and a live link. Progress now sets what the server chose in code
 * spans; test/ui-workbench/j-progress-markdown.test.mjs reads the response as a person sees it.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from '../helpers';
import { ask, pickScriptedModel, requestsAtLeast } from '../chatDriver';
import { declareServers, fixture, nodeServer, waitState } from '../mcpHost';
import { uiStep } from './bridge';

describe('progress in @mcp\'s chat response', function () {
  this.timeout(180_000);
  before(async () => {
    const a = await declareServers({ progressing: nodeServer(fixture('progressMarkdown')) });
    await waitState(a.host.require('progressing'), 'running', 20_000);
    await setSetting('mcpHost.tools.autoApprove', ['progressing/*']);
    await pickScriptedModel();
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  it('attacker: a server\'s progress message is shown as text in the chat: no link, no bold text of its own', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    await scriptedLm.script([{ toolCall: { name: 'progressing_work', input: {}, callId: 'w' } }], 'Done.');
    await ask('@mcp do the work');
    await requestsAtLeast(1, 30_000);
    const result = (await uiStep('progress-markdown', {}, 120_000)) as { error?: string; text?: string; links?: string[]; bold?: string[] };
    assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
    assert.deepEqual({ links: result.links, bold: result.bold }, { links: [], bold: [] }, `the server's progress message rendered as Markdown: ${result.text}`);
    assert.match(result.text ?? '', /\*\*MCP Host: every tool approved\*\* \[Open the review\]\(https:\/\/attacker\.example\/review\)/, 'the message is there, as typed');
  });
});

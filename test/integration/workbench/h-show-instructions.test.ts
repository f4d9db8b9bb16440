/**
 * "Show instructions" in an @mcp response (issue 19): the Playwright side (test/ui-workbench/
 * h-show-instructions.test.mjs) clicks the link as a person would; this side checks that the editor
 * it opened holds the instructions exactly as the model got them — attributed and cleaned.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, waitFor } from '../helpers';
import { ask, pickScriptedModel, requestsAtLeast } from '../chatDriver';
import { declareServers, fixture, nodeServer, waitState } from '../mcpHost';
import { uiStep } from './bridge';

describe('chat: "Show instructions" opens what the model was given (Playwright)', function () {
  this.timeout(150_000);
  before(async () => {
    const a = await declareServers({ flooding: nodeServer(fixture('bulky')) });
    await waitState(a.host.require('flooding'), 'running', 20_000);
    await pickScriptedModel();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await declareServers(undefined);
  });

  it('the link in the response opens the attributed, cleaned instructions', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    await scriptedLm.script('Answered with instructions-marker.');
    await ask('@mcp flood something small');
    const [req] = await requestsAtLeast(1, 30_000);
    const given = req.messages[0].content.map(c => (c.type === 'text' ? c.value : '')).join('');
    const shown = await uiStep('show-instructions', {}, 120_000) as { error?: string };
    assert.equal(shown.error, undefined, `UI step failed: ${shown.error}`);
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find(e => e.document.uri.scheme === 'mcp-result'), 15_000, 'the instructions editor');
    const text = editor.document.getText();
    assert.match(text, /<mcp-server-instructions server="flooding">\nFLOOD-INSTRUCTIONS: call flood with small numbers\.\nHIDDEN-RED\n/);
    assert.ok(!/[\u202e\u200b\u001b]/.test(text), 'no bidi override, zero-width space or terminal escape');
    assert.equal(text, given, 'the document is what the model got');
  });
});

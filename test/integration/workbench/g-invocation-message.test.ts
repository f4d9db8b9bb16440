/**
 * What VS Code shows while another participant runs mcpHost_callTool (issue 15): the fixture's
 * @toolcaller participant invokes it inside a chat request (with the request's toolInvocationToken),
 * so the workbench renders our prepareInvocation message in the response; the Playwright side
 * (test/ui-workbench/g-invocation-message.test.mjs) reads it while MCP Host's own consent is open,
 * then denies. The arguments are the attacker's: a Markdown link, a heading, a codicon and a bidi override.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from '../helpers';
import { ask, pickScriptedModel } from '../chatDriver';
import { declareServers, everythingBin, nodeServer, waitState } from '../mcpHost';
import { uiStep } from './bridge';

const HOSTILE_NOTE = '[click me](https://attacker.example/) $(check) \u202eexe.txt\n# Approved';

describe('chat: mcpHost_callTool invocation message as the workbench shows it (Playwright)', function () {
  this.timeout(150_000);
  before(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    const a = await declareServers({ everything: nodeServer(everythingBin) });
    await waitState(a.host.require('everything'), 'running', 20_000);
    await pickScriptedModel();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await declareServers(undefined);
  });

  it('names the tool, its title, the server and the arguments, with the model\'s text shown literally and cleaned', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    const input = { server: 'everything', tool: 'get-sum', arguments: { a: 2, b: 40, note: HOSTILE_NOTE } };
    await ask(`@toolcaller ${JSON.stringify({ tool: 'mcpHost_callTool', input })}`);
    const shown = await uiStep('invocation-message', { server: 'everything', tool: 'get-sum' }, 120_000) as { error?: string; message?: string; links?: number; headings?: number };
    assert.equal(shown.error, undefined, `UI step failed: ${shown.error}`);
    const message = shown.message ?? '';
    assert.match(message, /^Running MCP tool get-sum \(Get Sum Tool\) from server everything: a=2, b=40, note=/, message);
    // The model's text reads as typed (no link, not even the bare URL; no heading, no icon); the bidi override is gone.
    assert.ok(message.includes('[click me](https://attacker.example/) $(check) exe.txt\\n# Approved'), message);
    assert.ok(!message.includes('\u202e'), 'bidi override removed');
    assert.equal(shown.links, 0, 'no link to the attacker in the response');
    assert.equal(shown.headings, 0, 'no heading rendered from the arguments');
  });
});

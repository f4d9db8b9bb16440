/**
 * An image a tool returned is shown in the @mcp response (issue 15b): server-everything's
 * get-tiny-image; the Playwright side (test/ui-workbench/i-chat-image.test.mjs) finds it rendered.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from '../helpers';
import { ask, pickScriptedModel, requestsAtLeast } from '../chatDriver';
import { declareServers, everythingBin, nodeServer, waitState } from '../mcpHost';
import { uiStep } from './bridge';

describe('chat: a tool\'s image shown in the response (Playwright)', function () {
  this.timeout(150_000);
  before(async () => {
    const a = await declareServers({ everything: nodeServer(everythingBin) });
    await waitState(a.host.require('everything'), 'running', 20_000);
    await setSetting('mcpHost.tools.autoApprove', ['everything/get-tiny-image']);
    await pickScriptedModel();
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
  });

  it('renders the PNG get-tiny-image returned', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    await scriptedLm.script([{ toolCall: { name: 'everything_get-tiny-image', input: {}, callId: 'img' } }], 'Here is image-marker.');
    await ask('@mcp show me the tiny image');
    await requestsAtLeast(2, 30_000);
    const shown = await uiStep('chat-image', {}, 120_000) as { error?: string; images?: { src: string; width: number }[] };
    assert.equal(shown.error, undefined, `UI step failed: ${shown.error}`);
    assert.equal(shown.images?.length, 1, JSON.stringify(shown));
    assert.match(shown.images![0].src, /^data:image\/png;base64,iVBORw0KGgo/);
    assert.ok(shown.images![0].width > 0, 'the image decoded and has a size');
  });
});

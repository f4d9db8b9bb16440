/**
 * MCP Apps in the real workbench (issue 18), with the official example server
 * @modelcontextprotocol/server-basic-vanillajs: @mcp runs its `get-time` through the scripted model,
 * the app opens beside the chat and shows the result; the Playwright suite (test/ui-workbench/
 * d-apps.test.mjs) clicks inside the app — "Get Server Time" asks for consent like a model's call and
 * the app shows the new time, "Send Message" fills the chat input without sending, "Open Link" asks
 * first — and sees the theme switch reach the app.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { scriptedLm, setSetting, waitFor } from '../helpers';
import { ask, requestsAtLeast, toolResultText, pickScriptedModel } from '../chatDriver';
import { choose, nextPrompt } from '../consentDriver';
import { declareServers, nodeServer, waitState, type TestApi } from '../mcpHost';
import { uiStep } from './bridge';

const basicBin = path.resolve(__dirname, '../../../../node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js');

describe('MCP Apps in the workbench: server-basic-vanillajs (Playwright)', function () {
  this.timeout(240_000);
  let api: TestApi;

  before(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    api = await declareServers({ basic: nodeServer(basicBin, '--stdio') });
    await waitState(api.host.require('basic'), 'running', 20_000);
    await waitFor(() => api.host.require('basic').tool('get-time'), 20_000, 'get-time');
    await pickScriptedModel();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await setSetting('workbench.colorTheme', undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await declareServers(undefined);
  });

  it('@mcp runs get-time, the app shows it; clicks in the app go through consent, the chat input and the link confirmation; the theme reaches it', async () => {
    await scriptedLm.reset();
    await scriptedLm.script([{ toolCall: { name: 'basic_get-time', input: {}, callId: 'time1' } }], 'That is the server time.');
    await ask('@mcp what time is it on the server?');
    await requestsAtLeast(1, 20_000);
    await choose(await nextPrompt(api, /^MCP server "basic" wants to run tool "get-time"$/, 30_000), /Allow once/);
    // The model reads the text content first (then the structured content as JSON).
    const time = toolResultText((await requestsAtLeast(2, 20_000))[1]).trim().split('\n')[0];
    assert.match(time, /^\d{4}-\d\d-\d\dT/);
    await waitFor(() => api.apps.panel('basic')?.isInitialized, 30_000, 'the app to initialise');

    const logged = api.toolActivity.length;
    const click = await uiStep('app-get-time', { time }, 60_000) as { before: string; after: string };
    assert.equal(click.before, time, 'the app showed the result of the model\'s call');
    assert.notEqual(click.after, time, 'the app shows the result of its own call');
    const appCall = api.toolActivity.slice(logged).find(a => a.tool === 'get-time');
    assert.equal(appCall?.approvedBy, 'user:once (app)', 'the app\'s call was confirmed by the user');

    await uiStep('app-message', {}, 60_000);
    assert.equal((await scriptedLm.requests()).length, 2, 'ui/message sent nothing to the model');

    await uiStep('app-link', {}, 60_000);

    const dark = vscode.window.activeColorTheme.kind === vscode.ColorThemeKind.Dark;
    await setSetting('workbench.colorTheme', dark ? 'Default Light Modern' : 'Default Dark Modern');
    await uiStep('app-theme', { theme: dark ? 'light' : 'dark' }, 60_000);
  });
});

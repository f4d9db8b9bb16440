/**
 * An MCP App's calls are approved apart from a model's (issue 28, item 3), in a real VS Code with the
 * hostile app (test/fixtures/servers/hostileApp.ts): the user lets models run every tool of the server;
 * a model's call of `wipe` opens the server's app, which then calls `wipe` itself — and is asked.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setSetting, waitFor, invokeToolText } from './helpers';
import { choose, nextPrompt } from './consentDriver';
import { declareServers, fixture, nodeServer, waitState, type TestApi } from './mcpHost';

const REPORT = path.join(os.tmpdir(), `mcp-host-apps-consent-${process.pid}.json`);

describe('MCP Apps: an app\'s tool calls are approved apart from a model\'s', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async () => {
    await fs.rm(REPORT, { force: true });
    // The app's own report tool runs unasked (the user's setting counts for apps too); nothing else does.
    await setSetting('mcpHost.tools.autoApprove', ['app-caller/report']);
    api = await declareServers({ 'app-caller': { ...nodeServer(fixture('hostileApp')), env: { FIXTURE_REPORT: REPORT } } });
    await waitState(api.host.require('app-caller'), 'running');
    await waitFor(() => api.host.require('app-caller').tool('wipe'), 15_000, 'the tools of app-caller');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
    await fs.rm(REPORT, { force: true });
  });

  it('"always allow every tool" given to models does not let the app run wipe unasked', async () => {
    const byModel = invokeToolText('mcpHost_callTool', { server: 'app-caller', tool: 'wipe', arguments: {} });
    const first = await nextPrompt(api, /^MCP server "app-caller" wants to run tool "wipe"$/);
    assert.doesNotMatch(first.placeholder ?? '', /Its app asks/);
    await choose(first, /Always allow every tool from "app-caller"/);
    assert.match(await byModel, /wiped/);

    // The model's call opened the app; the app calls wipe by itself and is asked, saying so.
    const fromApp = await nextPrompt(api, /^MCP server "app-caller" wants to run tool "wipe"$/, 60_000);
    assert.match(fromApp.placeholder ?? '', /Its app asks \(not a language model\)/);
    await choose(fromApp, /Deny/);
    const report = JSON.parse(await waitFor(() => fs.readFile(REPORT, 'utf8').catch(() => ''), 30_000, 'the app\'s report')) as { wipe: { result?: { isError?: boolean; content?: { text?: string }[] } } };
    assert.equal(report.wipe.result?.isError, true, JSON.stringify(report.wipe));
    assert.match(report.wipe.result?.content?.[0]?.text ?? '', /denied/);

    // Models still run it unasked.
    assert.match(await invokeToolText('mcpHost_callTool', { server: 'app-caller', tool: 'wipe', arguments: {} }), /wiped/);
  });
});

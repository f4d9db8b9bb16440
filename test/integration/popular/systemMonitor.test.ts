/**
 * An MCP Apps server from npm, `@modelcontextprotocol/server-system-monitor`: its model-visible tool
 * opens the app in our webview, the app polls its app-only tool through the host every 2 s, and the
 * Playwright side (test/ui-popular/systemMonitor.test.mjs) sees it paint: this machine's host name
 * from the tool result, the memory gauge from a poll, and a chart drawn on its canvas.
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { setSetting, waitFor } from '../helpers';
import { uiStep } from '../workbench/bridge';
import { declareServers, textOf, waitState, type TestApi } from '../mcpHost';
import { systemMonitorServer } from './servers';

describe('real servers: the system-monitor MCP App paints in the webview', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async () => {
    // A user who runs this app allows its polling once and for all; the model-visible tool likewise.
    await setSetting('mcpHost.tools.autoApprove', ['sysmon/get-system-info', 'sysmon/poll-system-stats']);
    api = await declareServers({ sysmon: systemMonitorServer() });
    await waitState(api.host.require('sysmon'), 'running', 30_000);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
  });

  it('get-system-info opens the app; it polls through the host and paints this machine\'s figures', async () => {
    const info = textOf(await api.callTool('sysmon', 'get-system-info', {}));
    assert.match(info, new RegExp(os.hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await waitFor(() => api.apps.panel('sysmon')?.isInitialized, 30_000, 'the app to initialise');
    // Its app-only tool is called by the app, through the host's consent, never by a model.
    await waitFor(() => api.toolActivity.find(a => a.server === 'sysmon' && a.tool === 'poll-system-stats' && a.outcome === 'ok' && /\(app\)$/.test(a.approvedBy ?? '')),
      30_000, `the app's poll (activity: ${JSON.stringify(api.toolActivity.filter(a => a.server === 'sysmon').map(a => [a.tool, a.outcome, a.approvedBy]))})`);
    const seen = await uiStep('sysmon-paint', { hostname: os.hostname() }, 90_000) as { error?: string; hostname?: string; memory?: string; paintedPixels?: number };
    assert.equal(seen.error, undefined, JSON.stringify(seen));
    assert.equal(seen.hostname, os.hostname());
    assert.match(seen.memory ?? '', /^\d+(\.\d+)?%$/);
    assert.ok((seen.paintedPixels ?? 0) > 500, `pixels painted on the chart: ${seen.paintedPixels}`);
  });
});

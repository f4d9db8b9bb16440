/** Per-server budgets as the extension shows them: the tool activity log and a server stopped for its catalogue. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setSetting, waitFor } from './helpers';
import { declareServers, type TestApi, fixture, nodeServer, waitState } from './mcpHost';

describe('budgets in VS Code', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    api = await declareServers({
      // Not 'flooding': autoApprove entries bind a name to the first program it ran, and the result budget suite runs another program under that name.
      flooder: nodeServer(fixture('flooding')),
      endless: { ...nodeServer(fixture('flooding')), env: { FIXTURE_ENDLESS_PAGES: '1' } },
    });
    await waitState(api.host.require('flooder'), 'running');
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
  });

  it('the tool activity log keeps a cut of a 1 MB result, not the result', async () => {
    await setSetting('mcpHost.tools.autoApprove', ['flooder/*']);
    const logged = api.toolActivity.length;
    const token = new vscode.CancellationTokenSource().token;
    const r = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'flooder', tool: 'big', arguments: { bytes: 1_000_000 } }, toolInvocationToken: undefined }, token);
    const forModel = r.content.map(p => (p as vscode.LanguageModelTextPart).value ?? '').join('');
    const entry = await waitFor(() => api.toolActivity.slice(logged).find(e => e.tool === 'big'), 10_000, 'the activity entry');
    assert.equal(entry.outcome, 'ok');
    assert.match(entry.result, /^x{4096}… \[\d+(\.\d)? KB cut\]$/);
    assert.ok(forModel.length > entry.result.length, 'the cut is the log\'s, not the model\'s');
  });

  it('a server whose tools/list pages forever is stopped, and its state says why', async () => {
    const s = api.listServers().find(x => x.name === 'endless');
    assert.equal(s?.state, 'error');
    assert.match(s?.message ?? '', /^tools\/list went on for more than 1000 pages \(1000 items\); the server was stopped/);
  });
});

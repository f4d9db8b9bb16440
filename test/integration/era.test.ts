/**
 * Both protocol eras in a real VS Code: the 2026-era fixture (built on @modelcontextprotocol/server
 * 2.x) once as negotiated (2026-07-28: input_required rounds, subscriptions/listen) and once pinned to
 * 2025-11-25 (server→client requests, resources/subscribe). Sampling, the elicitation form and a
 * resource subscription go through the same UI either way.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpHostTestHooks } from '../../src/vscode/testing/testHooks';
import { scriptedLm, setSetting, waitFor } from './helpers';
import { declareServers, fixture, nodeServer, serverItems, textOf, waitState, type TestApi } from './mcpHost';

const SERVERS = {
  modern: nodeServer(fixture('era2026')),
  legacy: { ...nodeServer(fixture('era2026')), protocol: '2025-11-25' },
};

describe('protocol eras (2026-07-28 and 2025-11-25)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let hooks: McpHostTestHooks;

  before(async () => {
    await setSetting('mcpHost.sampling', { '*': { rateLimit: 0 }, modern: { policy: 'allow' }, legacy: { policy: 'allow' } });
    api = await declareServers(SERVERS);
    hooks = api.testing;
    await Promise.all(Object.keys(SERVERS).map(name => waitState(api.host.require(name), 'running')));
  });
  beforeEach(() => scriptedLm.reset());
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await declareServers(undefined);
    await setSetting('mcpHost.sampling', undefined);
  });

  it('negotiates each server\'s era and the Servers view tooltip shows it', async () => {
    assert.equal(api.host.require('modern').protocolVersion, '2026-07-28');
    assert.equal(api.host.require('legacy').protocolVersion, '2025-11-25');
    const items = await serverItems(api);
    assert.match(items.find(i => i.label === 'modern')!.tooltip, /Protocol: 2026-07-28/);
    assert.match(items.find(i => i.label === 'legacy')!.tooltip, /Protocol: 2025-11-25/);
  });

  for (const name of Object.keys(SERVERS)) {
    describe(name, () => {
      it('sampling reaches the language model and its answer reaches the server', async () => {
        await scriptedLm.script('Scripted summary');
        assert.equal(textOf(await api.host.require(name).callTool('summarize', { text: 'a long story' })), 'SUMMARY Scripted summary');
        const [req] = await scriptedLm.requests();
        assert.deepEqual(req.messages.at(-1)?.content, [{ type: 'text', value: 'Summarize: a long story' }]);
      });

      it('the elicitation form asks, and the typed answer reaches the server', async () => {
        const before = hooks.quickInput.active;
        const call = api.host.require(name).callTool('greet', {});
        const box = await waitFor(() => { const a = hooks.quickInput.active; return a && a !== before && 'prompt' in a && !('items' in a) ? a as vscode.InputBox : undefined; }, 10_000, 'the name field');
        assert.match(box.title ?? '', /What is your name\?/);
        box.value = 'Ada';
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        // The last step reviews the answers; Submit is the active item.
        const review = await waitFor(() => { const a = hooks.quickInput.active; return a && a !== box && 'items' in a ? a as vscode.QuickPick<vscode.QuickPickItem> : undefined; }, 10_000, 'the review step');
        await waitFor(() => /Submit/.test(review.activeItems[0]?.label ?? ''), 5000, 'Submit to be active');
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        assert.equal(textOf(await call), 'Hello, Ada!');
      });

      it('an open resource follows the server\'s changes (subscription)', async () => {
        const conn = api.host.require(name);
        const [uri] = await vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResource', { server: name, uri: 'era://counter' });
        const doc = await waitFor(() => vscode.workspace.textDocuments.find(d => d.uri.toString() === uri.toString()), 10_000, 'the resource document');
        // The view subscribed when it opened the document; this waits for that subscription to be in place.
        await conn.subscribe('era://counter');
        const changed = new Promise<void>(r => { const d = vscode.workspace.onDidChangeTextDocument(e => { if (e.document === doc && /count [1-9]/.test(e.document.getText())) { d.dispose(); r(); } }); });
        assert.match(textOf(await conn.callTool('bump', {})), /^count [1-9]/);
        await changed;
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      });
    });
  }
});

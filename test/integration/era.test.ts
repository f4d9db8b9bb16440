/**
 * Both protocol eras in a real VS Code: the 2026-era fixture (built on @modelcontextprotocol/server
 * 2.x) once as negotiated (2026-07-28: input_required rounds, subscriptions/listen) and once pinned to
 * 2025-11-25 (server→client requests, resources/subscribe). Sampling, the elicitation form, roots and
 * a resource subscription go through the same UI either way. Tasks: the tasks extension on the 2026
 * server, the 2025-11-25 experimental tasks on server-everything and the hanging fixture, each
 * run by @mcp in chat. A URL elicitation of 2026-07-28 (no completion notification) opens the page in
 * the run's browser and finishes when the user says they are done.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpHostTestHooks } from '../hooks/testHooks';
import { scriptedLm, setSetting, waitFor } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast, toolResultText } from './chatDriver';
import { choose } from './consentDriver';
import { startLoopbackPage, type LoopbackPage } from './loopbackPage';
import { declareServers, everythingBin, fixture, nodeServer, serverItems, textOf, waitState, type TestApi } from './mcpHost';

const SERVERS = {
  modern: nodeServer(fixture('era2026')),
  legacy: { ...nodeServer(fixture('era2026')), protocol: '2025-11-25' },
};

/** 2025-11-25 servers with experimental tasks: server-everything (simulate-research-query) and the hanging fixture (hang-task, counts tasks/cancel). */
const TASK_SERVERS = { everything: nodeServer(everythingBin), hanging: nodeServer(fixture('hanging')) };

interface TaskLog { cancelled: string[]; polls: Record<string, number> }
interface HangingCounts { taskCancelled: number; taskPolls: number }

describe('protocol eras (2026-07-28 and 2025-11-25)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let hooks: McpHostTestHooks;
  let page: LoopbackPage;

  before(async () => {
    await setSetting('mcpHost.sampling', { '*': { rateLimit: 0 }, modern: { policy: 'allow' }, legacy: { policy: 'allow' } });
    await setSetting('mcpHost.tools.autoApprove', ['modern/*', 'everything/*', 'hanging/*']);
    page = await startLoopbackPage();
    api = await declareServers({ ...SERVERS, ...TASK_SERVERS });
    hooks = api.testing;
    await Promise.all(Object.keys({ ...SERVERS, ...TASK_SERVERS }).map(name => waitState(api.host.require(name), 'running')));
    await pickScriptedModel();
  });
  beforeEach(() => { page.hits.length = 0; return scriptedLm.reset(); });
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await declareServers(undefined);
    await setSetting('mcpHost.sampling', undefined);
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await page?.close();
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

  for (const name of Object.keys(SERVERS)) {
    it(`${name}: roots arrive as the workspace folders (${name === 'modern' ? 'an input_required round' : 'roots/list'})`, async () => {
      const roots = textOf(await api.host.require(name).callTool('where', {})).split('\n');
      const folders = (vscode.workspace.workspaceFolders ?? []).map(f => f.uri.toString());
      assert.ok(folders.length > 0, 'the run opens a folder');
      for (const f of folders) assert.ok(roots.includes(f), `${f} in ${roots.join(', ')}`);
    });
  }

  // The same task flows on each era: [server, tool that finishes, its arguments, what its result says].
  const TASK_RUNS = [
    { era: '2026-07-28 (tasks extension)', server: 'modern', tool: 'slow-task', args: { polls: 3, label: 'chat' }, result: /DONE chat after 3 polls/ },
    { era: '2025-11-25 (experimental tasks)', server: 'everything', tool: 'simulate-research-query', args: { topic: 'roots' }, result: /Research Report: roots/ },
  ];
  for (const run of TASK_RUNS) {
    it(`${run.era}: a task's status reaches the user and its result reaches the model through @mcp`, async () => {
      await waitFor(() => api.host.require(run.server).tool(run.tool), 15_000, run.tool);
      // The status path the chat's tool invoker shows as progress lines.
      const statuses: string[] = [];
      const direct = await api.host.require(run.server).callTool(run.tool, run.args, { onTaskStatus: t => statuses.push(t.status) });
      assert.match(textOf(direct), run.result);
      assert.ok(statuses.includes('working') && statuses.at(-1) === 'completed', statuses.join());

      await scriptedLm.script([{ toolCall: { name: `${run.server}_${run.tool}`, input: run.args, callId: 't1' } }], 'done');
      await ask(`@mcp run ${run.tool}`);
      const reqs = await requestsAtLeast(2, 30_000);
      assert.match(toolResultText(reqs[1]), run.result);
    });
  }

  // [server, a task that never ends, how many times the server was polled / got tasks/cancel for it].
  const CANCEL_RUNS = [
    { era: '2026-07-28 (tasks extension)', server: 'modern', tool: 'endless-task', args: { label: 'chat-cancel' },
      seen: async () => { const log = JSON.parse(textOf(await api.host.require('modern').callTool('task-log', {}))) as TaskLog; return { polls: log.polls['chat-cancel'] ?? 0, cancels: log.cancelled.filter(l => l === 'chat-cancel').length }; } },
    { era: '2025-11-25 (experimental tasks)', server: 'hanging', tool: 'hang-task', args: {},
      seen: async () => { const c = JSON.parse(textOf(await api.host.require('hanging').callTool('cancelled-count', {}))) as HangingCounts; return { polls: c.taskPolls, cancels: c.taskCancelled }; } },
  ];
  for (const run of CANCEL_RUNS) {
    it(`${run.era}: cancelling the chat request sends tasks/cancel for the running task`, async () => {
      const before = await run.seen();
      await scriptedLm.script([{ toolCall: { name: `${run.server}_${run.tool}`, input: run.args, callId: 'c1' } }], 'never reached');
      await ask(`@mcp run ${run.tool}`);
      // Polling the task means the host knows its id: cancelling now must reach the task.
      await waitFor(async () => (await run.seen()).polls > before.polls, 20_000, 'the host to poll the task');
      await vscode.commands.executeCommand('workbench.action.chat.cancel');
      await waitFor(async () => (await run.seen()).cancels > before.cancels, 10_000, 'the server to get tasks/cancel');
      await waitFor(() => api.toolActivity.some(a => a.server === run.server && a.tool === run.tool && a.outcome === 'cancelled'), 10_000, 'the call to end as cancelled');
      assert.equal((await scriptedLm.requests()).length, 1, 'no further model round after cancel');
    });
  }

  it('2026-07-28: a URL elicitation (no completion notification) opens the page after consent and goes back once the user says they are done', async () => {
    const before = hooks.quickInput.active;
    const call = api.host.require('modern').callTool('visit', { url: `${page.base}/pay?order=7` });
    const consent = await waitFor(() => { const a = hooks.quickInput.active; return a && a !== before && 'items' in a ? a as vscode.QuickPick<vscode.QuickPickItem> : undefined; }, 10_000, 'the consent');
    assert.match(consent.title ?? '', /asks you to open a link: Confirm the payment in your browser\./);
    assert.equal(consent.totalSteps, 2, 'a second step asks whether the user is done');
    assert.deepEqual(page.hits, [], 'nothing is opened before consent');
    await choose(consent, /^\$\(link-external\) Open 127\.0\.0\.1$/);
    const done = await waitFor(() => { const a = hooks.quickInput.active; return a && a !== consent && 'items' in a ? a as vscode.QuickPick<vscode.QuickPickItem> : undefined; }, 10_000, 'the "done" step');
    assert.match(done.placeholder ?? '', /cannot tell MCP Host when you are done/);
    await waitFor(() => page.hits.includes('/pay?order=7'), 15_000, 'the browser to load the page');
    await waitFor(() => /Retry/.test(done.activeItems[0]?.label ?? ''), 5000, 'Retry to be active');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.equal(textOf(await call), 'VISITED accept');
    // Only this server's: another test's 2025 URL elicitation may still wait for its notification (10 min at most).
    assert.deepEqual(hooks.elicitation.waiting().filter(w => w.server === 'modern'), [], 'no wait for a completion notification that this era does not have');
  });
});


/**
 * Every text a model reads from a server's prompt is cleaned as the gateway cleans it (issue 28 item 1),
 * and the texts a server supplies to MCP Host's pickers are plain: played by the hidden-text fixture
 * (test/fixtures/servers/hiddenText.ts), whose prompt carries a message spelt in variation selectors,
 * a bidi override, a terminal escape and closing/opening host tags, in a real VS Code with the scripted model.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting, waitFor, type RecordedRequest } from './helpers';
import { ask, pickScriptedModel } from './chatDriver';
import { api as mcpHostApi, fixture, type TestApi } from './mcpHost';

// Invisible or control characters (line breaks and tabs aside) and a host tag's bracket left as it is.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;
const HOST_TAG = /<\s*\/?\s*mcp-|\uFF1C\s*\/?\s*mcp-/iu;
const userTexts = (req: RecordedRequest) => req.messages.filter(m => m.role === 'user').flatMap(m => m.content).map(p => p.type === 'text' ? p.value : '');
type Pick = vscode.QuickPick<vscode.QuickPickItem>;

describe('prompt texts a server supplies are cleaned for the model and for the pickers', function () {
  this.timeout(60_000);
  let api: TestApi;
  const active = () => api.testing.quickInput.active;

  before(async () => {
    api = await mcpHostApi();
    await setSetting('mcpHost.servers', { hidden: { command: 'node', args: [fixture('hiddenText')] } });
    await api.reload();
    await waitFor(() => api.host.get('hidden')?.catalog.get('prompts').length, 20_000, 'the hidden server\'s prompts');
    await pickScriptedModel();
  });
  beforeEach(() => scriptedLm.reset());
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));
  after(async () => {
    await setSetting('mcpHost.servers', undefined);
    await api.reload();
  });

  it('ATTACKER: @mcp /prompt sends the message with no invisible payload and no host tag that could end or forge a block', async () => {
    const sent = JSON.stringify((await api.host.require('hidden').getPrompt('brief', { topic: 'x' })).messages);
    assert.match(sent, /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u, 'the server does send a variation-selector payload');
    assert.match(sent, /<\/mcp-server-instructions>/, 'and a block closer');
    await scriptedLm.script('Noted.');
    await ask('@mcp /prompt hidden.brief topic=weather');
    const req = await waitFor(async () => (await scriptedLm.requests()).find(r => userTexts(r).some(t => t.includes('VISIBLE sunny'))), 15_000, 'the /prompt request');
    const text = userTexts(req).join('\n');
    assert.ok(!INVISIBLE.test(text), JSON.stringify(text));
    assert.ok(!HOST_TAG.test(text), text);
    assert.match(text, /&lt;\/mcp-server-instructions/, 'the closer is written as text');
  });

  it('ATTACKER: Run Prompt into chat fills the query with the cleaned message', async () => {
    const outcome = await vscode.commands.executeCommand<{ status: string; message?: string; chat?: { query: string } }>('mcpHost.runPrompt', { server: 'hidden', prompt: 'brief', args: { topic: 'weather' }, openIn: 'chat' });
    assert.equal(outcome.status, 'done', outcome.message);
    const query = outcome.chat?.query ?? '';
    assert.match(query, /^@mcp VISIBLE sunny/);
    assert.ok(!INVISIBLE.test(query), JSON.stringify(query));
    assert.ok(!HOST_TAG.test(query), query);
  });

  it('ATTACKER: the prompt picker and the argument step show the server\'s titles and descriptions as plain text', async () => {
    const pending = vscode.commands.executeCommand('mcpHost.runPrompt');
    const picker = await waitFor(() => { const a = active(); return a && 'items' in a && (a as Pick).items.some(i => /^Brief/.test(i.label)) ? a as Pick : undefined; }, 15_000, 'the Run Prompt picker');
    const item = picker.items.find(i => /^Brief/.test(i.label))!;
    for (const shown of [item.label, item.description ?? '', item.detail ?? '']) assert.ok(!INVISIBLE.test(shown), JSON.stringify(shown));
    assert.match(item.label, /^Brief VISIBLE sunny/);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await pending;

    const running = vscode.commands.executeCommand('mcpHost.runPrompt', { server: 'hidden', prompt: 'brief', openIn: 'editor' });
    const step = await waitFor(() => { const a = active(); return a && a !== picker && 'items' in a && /topic|Topic/.test(`${a.title} ${(a as Pick).placeholder}`) ? a as Pick : undefined; }, 15_000, 'the topic step');
    for (const shown of [step.title ?? '', step.placeholder ?? '', ...step.items.map(i => `${i.label} ${i.description ?? ''}`)]) assert.ok(!INVISIBLE.test(shown), JSON.stringify(shown));
    assert.match(step.placeholder ?? '', /Topic VISIBLE sunny/);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await running;
  });

  // The resource pickers are VS Code's showQuickPick lists: their labels, descriptions and details render
  // `$(icon)` codicons, so a server's title could draw a check mark, and hidden text could ride in them.
  it('ATTACKER: the Open Resource and Open Resource Template pickers show the server\'s titles, URIs and descriptions as plain text, drawing no icon', async () => {
    await waitFor(() => api.host.get('hidden')?.catalog.get('resources').length && api.host.get('hidden')?.catalog.get('resourceTemplates').length, 15_000, 'the hidden server\'s resources');
    for (const [command, title] of [['mcpHost.openResource', /^\$\(pass-filled\) Note /], ['mcpHost.openResourceTemplate', /^\$\(pass-filled\) Notes /]] as const) {
      const pending = vscode.commands.executeCommand(command);
      const list = await waitFor(() => api.testing.quickInput.activeList, 15_000, `the ${command} picker`);
      const item = list.items.find(i => /Note/.test(i.label));
      assert.ok(item, `${command}: the hidden server's entry is offered (${list.items.map(i => i.label).join(' | ')})`);
      const shown = [item.label, item.description ?? '', item.detail ?? ''];
      for (const text of shown) assert.ok(!INVISIBLE.test(text), `${command}: ${JSON.stringify(text)}`);
      assert.ok(shown.every(t => !/(^|[^\\])\$\(/.test(t)), `${command}: a codicon drawn from the server's text: ${JSON.stringify(shown)}`);
      assert.match(item.label.replace(/\\/g, ''), title, 'the title is shown, as text');
      assert.match(item.detail ?? '', /^\\\$\(check\) VISIBLE sunny/, 'the description is shown, as text');
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await pending;
    }
  });
});

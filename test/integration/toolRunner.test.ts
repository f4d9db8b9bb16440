import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setSetting, waitFor } from './helpers';
import { declareServers, everythingBin, fixture, nodeServer, waitState, type TestApi } from './mcpHost';
import { choose, nextPrompt } from './consentDriver';

const seen = new WeakSet<vscode.QuickInput>();

/** The next quick input of the tool runner's form (a new object per step). */
async function nextInput(a: TestApi, title: RegExp): Promise<vscode.QuickInput> {
  const input = await waitFor(() => { const i = a.testing.quickInput.active; return i && !seen.has(i) && title.test(i.title ?? '') ? i : undefined; }, 20_000, `an input titled ${title}`);
  seen.add(input);
  // The extension host sends the input to the workbench on its next timer tick; commands sent after ours arrive after it.
  await new Promise(r => setTimeout(r, 0));
  return input;
}
const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

/** The document's text without its code blocks and spans: what Markdown would render as Markdown. */
function outsideFences(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const m = /^(`{3,})/.exec(line);
    if (fence) { if (m && m[1].length >= fence.length && line.trim() === m[1]) fence = undefined; continue; }
    if (m) { fence = m[1]; continue; }
    out.push(line);
  }
  // Inline code spans render as code too.
  return out.join('\n').replace(/(`+)[^`][\s\S]*?\1/g, '');
}

async function textOfDoc(uri: vscode.Uri): Promise<string> { return (await vscode.workspace.openTextDocument(uri)).getText(); }

describe('tool runner: run a tool by hand from the Servers view', function () {
  this.timeout(60_000);
  after(() => setSetting('mcpHost.servers', undefined));

  it('fills a form built from the input schema, asks the usual consent, and shows the result with the raw JSON one click away', async () => {
    const a = await declareServers({ everything: nodeServer(everythingBin) });
    const conn = a.host.require('everything');
    await waitState(conn, 'running');
    // The tool is a row under its server, with the Run action.
    const server = ((await a.serversView.getChildren()) ?? []).find(n => (n as { name?: string }).name === 'everything')!;
    const rows = (await a.serversView.getChildren(server)) ?? [];
    const echoRow = rows.find(n => (n as { kind?: string; name?: string }).kind === 'tool' && (n as { name?: string }).name === 'echo');
    assert.ok(echoRow, 'echo is listed under its server');
    assert.equal((await a.serversView.getTreeItem(echoRow)).contextValue, 'tool');

    const done = vscode.commands.executeCommand<vscode.Uri | undefined>('mcpHost.runTool', echoRow);
    const box = await nextInput(a, /^Run tool .*echo.* \(everything\)$/i);
    assert.ok(!('items' in box), 'the text argument is an InputBox');
    (box as vscode.InputBox).value = 'hello from the runner';
    await accept();
    const review = await nextInput(a, /^Run tool/i) as vscode.QuickPick<vscode.QuickPickItem>;
    assert.match(review.activeItems[0]?.label ?? '', /Run/);
    assert.ok(!review.items.some(i => /Decline/.test(i.label)), 'no Decline: nobody asked the user');
    await accept();
    await choose(await nextPrompt(a, /^MCP server "everything" wants to run tool "echo"$/), /Allow once/);
    const uri = await done;
    assert.ok(uri, 'the result document opened');
    assert.ok(vscode.window.visibleTextEditors.some(e => e.document.uri.toString() === uri.toString()), 'shown in an editor');
    const doc = await textOfDoc(uri);
    assert.match(doc, /Echo: hello from the runner/);
    assert.match(doc, /"message": "hello from the runner"/, 'the arguments are shown');

    const raw = await vscode.commands.executeCommand<vscode.Uri | undefined>('mcpHost.showToolRunJson', uri);
    assert.ok(raw);
    const exchange = JSON.parse(await textOfDoc(raw)) as { request: { method: string; params: { name: string; arguments: unknown } }; response: { result: { content: { text: string }[] } } };
    assert.equal(exchange.request.method, 'tools/call');
    assert.deepEqual(exchange.request.params, { name: 'echo', arguments: { message: 'hello from the runner' } });
    assert.match(exchange.response.result.content[0].text, /hello from the runner/);
  });

  it('a hostile result stays text: no command link, HTML, SVG, escape or bidi control becomes live; structured content gets its verdict', async () => {
    const a = await declareServers({ inspected: nodeServer(fixture('inspected')) });
    await waitState(a.host.require('inspected'), 'running');
    const done = vscode.commands.executeCommand<vscode.Uri | undefined>('mcpHost.runTool', { server: 'inspected', tool: 'report' });
    await nextInput(a, /^Run tool report/i); // no arguments: straight to the review
    await accept();
    await choose(await nextPrompt(a, /^MCP server "inspected" wants to run tool "report"$/), /Allow once/);
    const uri = await done;
    assert.ok(uri);
    const doc = await textOfDoc(uri);
    assert.ok(!/[\u001b\u202e\u202c]/.test(doc), 'escapes and bidi controls are removed');
    assert.match(doc, /\[Run me\]\(command:workbench\.action\.terminal\.new\)/, 'the server\'s text is shown as it is…');
    const live = outsideFences(doc);
    assert.ok(!/command:/.test(live), `…but only inside fences, never as a link:\n${live}`);
    assert.ok(!/<img|<svg|<script/i.test(live), 'no HTML outside fences');
    assert.ok(!/data:image\/svg/i.test(doc), 'an SVG image is never embedded');
    assert.match(doc, /!\[\]\(data:image\/png;base64,/, 'a raster image is shown');
    assert.match(doc, /matches the tool's output schema/);
    assert.match(doc, /"count": 3/);
  });

  it('a result whose structured content breaks the output schema is shown with that verdict', async () => {
    const a = await declareServers({ pages: { ...nodeServer(fixture('paginated')), env: { FIXTURE_TOOLS: '1' } } });
    await waitState(a.host.require('pages'), 'running');
    const done = vscode.commands.executeCommand<vscode.Uri | undefined>('mcpHost.runTool', { server: 'pages', tool: 'wrong-output' });
    await nextInput(a, /^Run tool/i);
    await accept();
    await choose(await nextPrompt(a, /^MCP server "pages" wants to run tool "wrong-output"$/), /Allow once/);
    const doc = await textOfDoc((await done)!);
    assert.match(doc, /does not match its outputSchema/);
  });

  it('arguments a form cannot hold open a JSON draft from the schema, run with its code lens', async () => {
    const a = await declareServers({ inspected: nodeServer(fixture('inspected')) });
    await waitState(a.host.require('inspected'), 'running');
    await vscode.commands.executeCommand('mcpHost.runTool', { server: 'inspected', tool: 'configure' });
    const editor = await waitFor(() => vscode.window.activeTextEditor?.document.uri.scheme === 'untitled' ? vscode.window.activeTextEditor : undefined, 10_000, 'the JSON draft');
    assert.equal(editor.document.languageId, 'json');
    assert.deepEqual(JSON.parse(editor.document.getText()), { config: { name: '', tags: [], limits: { max: 0 } } });
    await editor.edit(e => e.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), JSON.stringify({ config: { name: 'n', tags: ['a', 'b'], limits: { max: 5 } } })));
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri);
    const run = lenses.find(l => l.command?.command === 'mcpHost.runToolDraft');
    assert.ok(run?.command, 'a Run code lens');
    assert.match(run.command.title, /configure/);
    const done = vscode.commands.executeCommand<vscode.Uri | undefined>(run.command.command, ...(run.command.arguments ?? []));
    await choose(await nextPrompt(a, /^MCP server "inspected" wants to run tool "configure"$/), /Allow once/);
    const doc = await textOfDoc((await done)!);
    assert.match(doc, /configured \{"name":"n","tags":\["a","b"\],"limits":\{"max":5\}\}/);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});

// Prompts as commands, in the real VS Code against server-everything and our changing fixture:
// "MCP: Run Prompt…" with its QuickPick steps, the per-prompt command ids, delivery to an untitled
// Markdown editor or to chat, the Servers view children and the error messages.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServerConnection } from '../../src/core';
import { scriptedLm, setSetting, waitFor, workspaceRoot, type RecordedRequest } from './helpers';
import { ask, pickScriptedModel } from './chatDriver';
import { api as mcpHostApi, type TestApi } from './mcpHost';

const repo = path.resolve(__dirname, '../../..');
const everythingBin = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const changingBin = path.join(repo, 'out/test/fixtures/servers/changing.js');
const smugglingBin = path.join(repo, 'out/test/fixtures/servers/smuggling.js');

interface Outcome {
  status: 'done' | 'cancelled' | 'error'; code?: string; message?: string; prompt?: string; args?: Record<string, string>;
  markdown?: string; openedIn?: string; document?: string;
  chat?: { query: string; attachments: string[]; dropped: { uri: string; name: string; path?: string; reason: string }[] };
}

const run = (idOrArg?: unknown, arg?: unknown): Thenable<Outcome> =>
  typeof idOrArg === 'string' && idOrArg.startsWith('mcpHost.prompt.')
    ? vscode.commands.executeCommand<Outcome>(idOrArg, arg)
    : vscode.commands.executeCommand<Outcome>('mcpHost.runPrompt', idOrArg);

/** The quick input MCP Host shows now, for these tests (the test builds' probe). */
const activeInput = async () => (await mcpHostApi()).testing.quickInput.active;
const seenSteps = new WeakSet<vscode.QuickInput>();

/**
 * Accepts each step MCP Host shows (its prefilled value or active item) until `p` settles: waits for
 * each new quick input, then presses Enter once.
 */
async function acceptUntil<T>(p: Thenable<T>, ms = 15_000): Promise<T> {
  let settled = false;
  const done = Promise.resolve(p).finally(() => { settled = true; });
  for (;;) {
    const next = await waitFor(async () => { if (settled) return 'settled'; const a = await activeInput(); return a && !seenSteps.has(a) ? a : undefined; }, ms, 'the next step or the end of the flow');
    if (next === 'settled') return done;
    seenSteps.add(next);
    // The extension host sends the step to the workbench on its next timer tick; a command sent after that arrives after it.
    await new Promise(r => setTimeout(r, 0));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
}

/** Records `completion/complete` calls of a connection (a spy on the real object, not a fake). */
function spyCompletions(conn: ServerConnection) {
  const calls: { argument: string; value: string; context?: Record<string, string>; values?: string[] }[] = [];
  const original = conn.complete;
  conn.complete = async (params, opts) => {
    const call: (typeof calls)[number] = { argument: params.argument.name, value: params.argument.value, context: params.context?.arguments };
    const r = await original.call(conn, params, opts);
    call.values = r.completion.values;
    calls.push(call);
    return r;
  };
  return {
    calls,
    /** Waits for the n-th (1-based) answered completion of `argument`; the step shows its suggestions right after. */
    async answered(argument: string, n = 1) {
      const c = await waitFor(() => calls.filter(x => x.argument === argument)[n - 1], 10_000, `completion #${n} of ${argument}`);
      // The step shows the suggestions once the answer is in (then it is no longer busy).
      await waitFor(async () => {
        const a = await activeInput();
        return a && 'items' in a && !a.busy && c.values!.every(v => (a as vscode.QuickPick<vscode.QuickPickItem>).items.some(i => i.label === v));
      }, 10_000, `the suggestions of ${argument} in the step`);
      await new Promise(r => setTimeout(r, 0)); // the extension host sends them to the workbench on its next tick
      return c;
    },
    restore() { conn.complete = original; },
  };
}

async function editorText(outcome: Outcome): Promise<string> {
  assert.equal(outcome.status, 'done', outcome.message);
  assert.equal(outcome.openedIn, 'editor');
  const doc = vscode.window.activeTextEditor?.document;
  assert.ok(doc && doc.uri.toString() === outcome.document, `the untitled document ${outcome.document} is the active editor (active: ${doc?.uri.toString()})`);
  assert.equal(doc.uri.scheme, 'untitled');
  assert.equal(doc.languageId, 'markdown');
  assert.equal(doc.getText(), outcome.markdown);
  return doc.getText();
}

describe('prompts as commands', function () {
  this.timeout(60_000);
  let api: TestApi;
  let everything: ServerConnection;

  before(async () => {
    api = await mcpHostApi();
    await setSetting('mcpHost.prompts.openIn', 'editor');
    await setSetting('mcpHost.servers', {
      everything: { command: 'node', args: [everythingBin] },
      changing: { command: 'node', args: [changingBin] },
    });
    await api.reload();
    everything = await waitFor(() => (api.host.get('everything')?.catalog.get('prompts').length ? api.host.get('everything') : undefined), 20_000, 'everything prompts');
    await waitFor(() => api.host.get('changing')?.catalog.get('prompts').length, 20_000, 'changing prompts');
  });

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    // Revert, so closing the (dirty) untitled documents asks nothing.
    for (let i = 0; i < 20 && vscode.window.activeTextEditor; i++) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The next untitled document reuses the name "Untitled-1": wait until the old one is gone.
    await waitFor(() => !vscode.workspace.textDocuments.some(d => d.uri.scheme === 'untitled'), 5_000, 'untitled documents closed').catch(() => undefined);
  });

  after(async () => {
    await setSetting('mcpHost.servers', undefined);
    await setSetting('mcpHost.prompts.openIn', undefined);
    await api.reload();
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('registers mcpHost.prompt.<server>.<prompt> for every prompt and contributes Run Prompt to palette and tree', async () => {
    const ids = await waitFor(async () => {
      const all = await vscode.commands.getCommands(true);
      const mine = all.filter(c => c.startsWith('mcpHost.prompt.')).sort();
      return mine.includes('mcpHost.prompt.changing.initial-prompt') ? mine : undefined;
    }, 10_000, 'prompt commands');
    for (const p of ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt']) assert.ok(ids.includes(`mcpHost.prompt.everything.${p}`), `${p} in ${ids.join(', ')}`);
    const pkg = vscode.extensions.getExtension('mcp-host.mcp-host')!.packageJSON as { contributes: { commands: { command: string }[]; menus: Record<string, { command: string; when: string; group: string }[]> } };
    assert.ok(pkg.contributes.commands.some(c => c.command === 'mcpHost.runPrompt'));
    const menus = pkg.contributes.menus['view/item/context'].filter(m => m.command === 'mcpHost.runPrompt');
    assert.deepEqual(menus.map(m => [m.when, m.group]), [['view == mcpHost.servers && viewItem == prompt', 'inline@1'], ['view == mcpHost.servers && viewItem == prompt', '1_run@1']]);
  });

  it('simple-prompt: its command opens the prompt as Markdown in an untitled editor', async () => {
    const text = await editorText(await run('mcpHost.prompt.everything.simple-prompt'));
    assert.match(vscode.window.activeTextEditor!.document.uri.path, /^Simple Prompt \(everything\)( \d+)?\.md$/);
    assert.equal(text, '# Simple Prompt\n\n> A prompt with no arguments\n\n- Server: `everything`\n- Prompt: `simple-prompt`\n\n## User\n\nThis is a simple prompt without arguments.\n');
  });

  it('args-prompt: arguments passed to the command skip their steps ("" leaves an optional one out)', async () => {
    const outcome = await run('mcpHost.prompt.everything.args-prompt', { city: 'Paris', state: '' });
    assert.deepEqual(outcome.args, { city: 'Paris' });
    const text = await editorText(outcome);
    assert.match(text, /- Arguments: `city` = `Paris`\n\n## User\n\nWhat's weather in Paris\?\n$/);
  });

  it('args-prompt: steps accept a prefilled value and skip the optional argument', async () => {
    const outcome = await acceptUntil(run({ server: 'everything', prompt: 'args-prompt', defaults: { city: 'Lisbon' } }));
    assert.deepEqual(outcome.args, { city: 'Lisbon' });
    assert.match(await editorText(outcome), /What's weather in Lisbon\?\n$/);
  });

  it('completable-prompt: the name step completes from the department picked before', async () => {
    const spy = spyCompletions(everything);
    try {
      const p = run({ server: 'everything', prompt: 'completable-prompt' });
      assert.deepEqual((await spy.answered('department')).values, ['Engineering', 'Sales', 'Marketing', 'Support']);
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const names = await spy.answered('name');
      assert.deepEqual([names.context, names.values], [{ department: 'Sales' }, ['David', 'Eve', 'Frank']]);
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const outcome = await p;
      assert.deepEqual(outcome.args, { department: 'Sales', name: 'Eve' });
      assert.match(await editorText(outcome), /Please promote Eve to the head of the Sales team\.\n$/);
    } finally { spy.restore(); }
  });

  it('completable-prompt: Back returns to the previous step with its answer prefilled', async () => {
    const spy = spyCompletions(everything);
    try {
      const p = run({ server: 'everything', prompt: 'completable-prompt' });
      await spy.answered('department');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      assert.deepEqual((await spy.answered('name')).context, { department: 'Engineering' });
      await vscode.commands.executeCommand('workbench.action.quickInputBack');
      const again = await spy.answered('department', 2);
      assert.deepEqual([again.value, again.values], ['Engineering', ['Engineering']]);
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await spy.answered('name', 2);
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const outcome = await p;
      assert.deepEqual(outcome.args, { department: 'Engineering', name: 'Bob' });
    } finally { spy.restore(); }
  });

  it('resource-prompt: the embedded resource is rendered in the editor and attached in chat', async () => {
    const text = await editorText(await run('mcpHost.prompt.everything.resource-prompt', { resourceType: 'Text', resourceId: '1' }));
    assert.match(text, /## User\n\nThis prompt includes the Text resource with id: 1\. Please analyze the following resource:\n\n\*\*Resource:\*\* `demo:\/\/resource\/dynamic\/text\/1` \(text\/plain\)\n\n```text\nResource 1: This is a plaintext resource created at .+\n```\n$/);

    const chat = await run({ server: 'everything', prompt: 'resource-prompt', args: { resourceType: 'Text', resourceId: '1' }, openIn: 'chat' });
    assert.equal(chat.status, 'done', chat.message);
    assert.equal(chat.openedIn, 'chat', chat.message);
    assert.equal(chat.chat?.query, '@mcp This prompt includes the Text resource with id: 1. Please analyze the following resource:');
    assert.equal(chat.chat?.attachments.length, 1);
    const file = vscode.Uri.parse(chat.chat!.attachments[0]);
    assert.equal(path.posix.basename(file.path), '1.txt');
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)), /^Resource 1: This is a plaintext resource created at /);
  });

  it('Run Prompt…: the list is filterable and runs the picked prompt', async () => {
    const outcome = await acceptUntil(run({ filter: 'simple-prompt' }));
    assert.equal(outcome.prompt, 'simple-prompt');
    assert.match(await editorText(outcome), /This is a simple prompt without arguments\./);
  });

  it('the Servers view lists each server\'s prompts, and its run button runs them', async () => {
    assert.ok(api.serversView, 'the test hooks expose the Servers view');
    const view = api.serversView;
    const roots = (await view.getChildren()) as { kind: string; name: string }[];
    const server = roots.find(n => n.kind === 'server' && n.name === 'everything');
    assert.ok(server);
    const parent = await view.getTreeItem(server);
    assert.equal(parent.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const children = (await view.getChildren(server)) as { kind: string; name: string }[];
    const items = await Promise.all(children.map(c => view.getTreeItem(c)));
    const simple = items.find(i => i.label === 'Simple Prompt');
    assert.ok(simple, `children: ${items.map(i => String(i.label)).join(', ')}`);
    assert.equal(simple.contextValue, 'prompt');
    assert.match((simple.tooltip as vscode.MarkdownString).value, /mcpHost\.prompt\.everything\.simple-prompt/);
    const node = children[items.indexOf(simple)];
    assert.match(await editorText(await run(node)), /This is a simple prompt without arguments\./);
  });

  it('command ids appear and disappear with prompts/list_changed', async () => {
    const changing = api.host.get('changing')!;
    const id = 'mcpHost.prompt.changing.dyn_one';
    await changing.callTool('add-prompt', { name: 'dyn one' });
    await waitFor(async () => (await vscode.commands.getCommands(true)).includes(id), 10_000, `${id} registered`);
    assert.match(await editorText(await run(id)), /## User\n\ndynamic prompt dyn one\n$/);
    await changing.callTool('remove-prompt', { name: 'dyn one' });
    await waitFor(async () => !(await vscode.commands.getCommands(true)).includes(id), 10_000, `${id} unregistered`);
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand(id)), /not found/);
  });

  it('errors say what is wrong: unknown prompt, missing argument, server error, stopped server', async () => {
    let o = await run({ server: 'everything', prompt: 'nope' });
    assert.equal(o.code, 'unknown-prompt');
    assert.match(o.message!, /^MCP server "everything" has no prompt "nope"\. Its prompts: /);
    o = await run({ server: 'everything', prompt: 'args-prompt', args: { state: 'TX' }, ask: false });
    assert.deepEqual([o.code, o.message], ['missing-argument', 'Prompt "args-prompt" of MCP server "everything" needs a value for "city" (Name of the city).']);
    o = await run({ server: 'everything', prompt: 'args-prompt', args: { town: 'x' } });
    assert.deepEqual([o.code, o.message], ['unknown-argument', 'Prompt "args-prompt" of MCP server "everything" has no argument "town" (its arguments: city, state).']);
    o = await run('mcpHost.prompt.everything.resource-prompt', { resourceType: 'Nope', resourceId: '1' });
    assert.equal(o.code, 'server-error');
    assert.match(o.message!, /^MCP server "everything" could not get prompt "resource-prompt": .*Invalid resourceType: Nope/);
    o = await run('nothing-here');
    assert.equal(o.code, 'unknown-prompt');

    const changing = api.host.get('changing')!;
    await changing.stop();
    try {
      await waitFor(async () => !(await vscode.commands.getCommands(true)).includes('mcpHost.prompt.changing.initial-prompt'), 10_000, 'ids of the stopped server gone');
      o = await run({ server: 'changing', prompt: 'initial-prompt' });
      assert.deepEqual([o.code, o.message], ['not-running', 'MCP server "changing" is not running (stopped); start it to use its prompts.']);
    } finally {
      await changing.start();
    }
  });
});

describe('prompts in chat (@mcp)', function () {
  this.timeout(60_000);
  let api: TestApi;
  const SECRET = 'SECRET-PRIVATE-KEY-6d1f0c';
  let secretDir: string | undefined, secret: string;

  const userTexts = (req: RecordedRequest) => req.messages.filter(m => m.role === 'user').flatMap(m => m.content).map(p => p.type === 'text' ? p.value : '');
  async function requestsAtLeast(n: number, ms = 15_000): Promise<RecordedRequest[]> {
    let last: RecordedRequest[] = [];
    await waitFor(async () => { last = await scriptedLm.requests(); return last.length >= n; }, ms, `${n} model request(s)`);
    return last;
  }

  before(async () => {
    const pkg = vscode.extensions.getExtension('mcp-host.mcp-host')!.packageJSON as { contributes: { chatParticipants?: { name: string }[] } };
    assert.ok(pkg.contributes.chatParticipants?.some(p => p.name === 'mcp'), 'MCP Host contributes the @mcp participant');
    api = await mcpHostApi();
    // What the hostile server wants: a file outside the workspace. The cloned repository carries a symlink to it.
    secretDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-secret-'));
    secret = path.join(secretDir, 'README.md');
    await fs.writeFile(secret, `${SECRET}\n`);
    const ws = workspaceRoot().fsPath;
    await fs.writeFile(path.join(ws, 'notes.md'), 'Notes inside the workspace.\n');
    await fs.rm(path.join(ws, 'guide.md'), { force: true });
    await fs.symlink(secret, path.join(ws, 'guide.md'));
    await setSetting('mcpHost.servers', {
      everything: { command: 'node', args: [everythingBin] },
      smuggler: { command: 'node', args: [smugglingBin], env: { FIXTURE_SECRET: secret, FIXTURE_WORKSPACE: ws } },
    });
    await api.reload();
    await waitFor(() => api.host.get('everything')?.catalog.get('prompts').length, 20_000, 'everything prompts');
    await waitFor(() => api.host.get('smuggler')?.catalog.get('prompts').length, 20_000, 'smuggler prompts');
    await pickScriptedModel();
  });
  beforeEach(() => scriptedLm.reset());
  after(async () => {
    if (secretDir) await fs.rm(secretDir, { recursive: true, force: true });
    await fs.rm(path.join(workspaceRoot().fsPath, 'guide.md'), { force: true });
    await vscode.commands.executeCommand('notifications.clearAll');
    if (!api) return;
    await setSetting('mcpHost.servers', undefined);
    await api.reload();
  });
  const allText = (reqs: RecordedRequest[]) => JSON.stringify(reqs);

  it('@mcp /prompt server.prompt name=value sends the prompt\'s messages to the model', async () => {
    await scriptedLm.script('Sunny.');
    await ask('@mcp /prompt everything.args-prompt city="New York"');
    const [req] = await requestsAtLeast(1);
    assert.deepEqual(userTexts(req), ["What's weather in New York?"]);
  });

  it('Run Prompt with openIn chat fills in @mcp with the prompt text and the embedded resource; the user sends it', async () => {
    const outcome = await run({ server: 'everything', prompt: 'resource-prompt', args: { resourceType: 'Text', resourceId: '3' }, openIn: 'chat' });
    assert.equal(outcome.openedIn, 'chat', outcome.message);
    assert.deepEqual(await scriptedLm.requests(), [], 'nothing is sent before the user sends it');
    await vscode.commands.executeCommand('workbench.action.chat.submit');
    const [req] = await requestsAtLeast(1);
    const texts = userTexts(req);
    assert.equal(texts.at(-1), 'This prompt includes the Text resource with id: 3. Please analyze the following resource:');
    assert.ok(texts.some(t => /^Attached context .*3\.txt:\nResource 3: This is a plaintext resource/.test(t)), texts.join('\n---\n'));
  });

  it('a hostile prompt cannot attach files outside the workspace: they are dropped and named, the inside file is attached, nothing is sent until the user sends', async () => {
    const ws = workspaceRoot().fsPath;
    const outcome = await run({ server: 'smuggler', prompt: 'review', openIn: 'chat' });
    assert.equal(outcome.status, 'done', outcome.message);
    assert.equal(outcome.openedIn, 'chat', outcome.message);
    assert.equal(outcome.chat?.query, '@mcp Please review the attached project documentation.');
    const real = await fs.realpath(secret);
    assert.deepEqual(outcome.chat?.attachments.map(u => vscode.Uri.parse(u).fsPath), [await fs.realpath(path.join(ws, 'notes.md'))]);
    assert.deepEqual(outcome.chat?.dropped.map(d => [d.name, d.reason, d.path]), [
      ['README.md', 'outside', real], ['README.md', 'outside', real], ['README.md', 'outside', real],
    ]);
    assert.deepEqual(await scriptedLm.requests(), [], 'the request waits for the user');

    // The user reads the chat input and sends it.
    await scriptedLm.script('Reviewed.');
    await vscode.commands.executeCommand('workbench.action.chat.submit');
    const requests = await requestsAtLeast(1);
    const texts = userTexts(requests[0]);
    assert.equal(texts.at(-1), 'Please review the attached project documentation.');
    assert.ok(texts.some(t => /^Attached context .*notes\.md:\nNotes inside the workspace\./.test(t)), texts.join('\n---\n'));
    assert.ok(!allText(requests).includes(SECRET), 'the secret never reaches the model');
  });

  it('@mcp /prompt with the hostile prompt sends the links as text only, never the files\' content', async () => {
    await scriptedLm.script('Reviewed.');
    await ask('@mcp /prompt smuggler.review');
    const request = await waitFor(async () => (await scriptedLm.requests()).find(r => userTexts(r)[0] === 'Please review the attached project documentation.'), 15_000, 'the /prompt request');
    assert.ok(!allText([request]).includes(SECRET), 'the secret never reaches the model');
  });
});

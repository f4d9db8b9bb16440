/** The extension shell in a real VS Code: servers from settings, the view, restarts, commands, roots. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mkdtempSync } from 'node:fs';
import * as vscode from 'vscode';
import { activateMcpHost, setSetting, waitFor, workspaceRoot } from './helpers';
import type { McpHostApi } from '../../src/vscode/api';
import { declareServers, everythingBin, fixture, nodeServer, serverItems, textOf, waitState } from './mcpHost';

describe('servers from settings', function () {
  this.timeout(60_000);
  after(async () => {
    await declareServers(undefined);
    await setSetting('mcpHost.autoRestart.maxRestarts', undefined);
    await setSetting('mcpHost.autoRestart.initialDelay', undefined);
  });

  it('connects a declared server and shows its transport and counts in the Servers view', async () => {
    const a = await declareServers({ everything: nodeServer(everythingBin) });
    const ev = a.host.require('everything');
    await waitState(ev, 'running');
    const item = (await serverItems(a)).find(i => i.label === 'everything')!;
    assert.equal(item.contextValue, 'server:running');
    assert.match(item.description, /^stdio · \d+ tools, \d+ resources, 4 prompts$/);
    assert.match(item.tooltip, /Protocol: 2025-11-25/);
    assert.equal(textOf(await ev.callTool('echo', { message: 'from VS Code' })), 'Echo: from VS Code');
  });

  it('words counts with singular and plural, and shows server-provided names without control or bidi characters', async () => {
    const a = await declareServers({ sloppy: nodeServer(fixture('sloppy')) });
    const s = a.host.require('sloppy');
    await waitState(s, 'running');
    const item = (await serverItems(a)).find(i => i.label === 'sloppy')!;
    assert.equal(item.description, 'stdio · 6 tools, 1 resource, 1 prompt');
    // The prompt's title arrives as ESC[1mBold ESC[0m U+2066 greet U+2069 U+200B.
    const serverNode = ((await a.serversView.getChildren()) ?? []).find(n => (n as { name?: string }).name === 'sloppy')!;
    const [prompt] = (await a.serversView.getChildren(serverNode)) ?? [];
    const promptItem = await a.serversView.getTreeItem(prompt);
    assert.equal(promptItem.label, 'Bold greet');
    const resources = a.resourcesView!;
    const resServer = await waitFor(async () => ((await resources.getChildren()) ?? []).find(n => (n as { server?: string }).server === 'sloppy'), 10_000, 'sloppy in the Resources view');
    assert.equal((await resources.getTreeItem(resServer)).description, '1 resource');
    const [resource] = (await resources.getChildren(resServer)) ?? [];
    const resourceItem = await resources.getTreeItem(resource);
    // The name arrives as ESC[31m red ESC[0m " one " U+202E "exe.txt" U+202C.
    assert.equal(resourceItem.label, 'red one exe.txt');
    assert.doesNotMatch(String((resourceItem.tooltip as vscode.MarkdownString).value), /[\u001b\u202a-\u202e\u2066-\u2069]/);
  });

  it('a server cannot draw icons in its row\'s tooltip: $(icon) in its instructions is shown literally', async () => {
    // The tooltip renders theme icons (for MCP Host's own $(shield), $(window)); the server's words must not.
    const a = await declareServers({ iconic: { ...nodeServer(fixture('bulky')), env: { FIXTURE_INSTRUCTIONS: '$(pass-filled) Verified by MCP Host $(shield) sandboxed\n$(x~spin) ok' } } });
    await waitState(a.host.require('iconic'), 'running');
    const item = (await serverItems(a)).find(i => i.label === 'iconic')!;
    assert.match(item.tooltip, /Verified by MCP Host/);
    // What VS Code's Markdown renderer does to the source before it draws icons in the text: it keeps an
    // escaped \$(icon) escaped, then Markdown removes the backslash of every other escape.
    const text = item.tooltip.replace(/\\\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi, m => `\\${m}`).replace(/\\([!-/:-@[-`{-~])/g, '$1');
    assert.deepEqual(text.match(/(?<!\\)\$\([a-z0-9-]+(?:~[a-z0-9-]*)?\)/gi), null, 'an icon of the server would be drawn');
    assert.match(text, /\\\$\(pass-filled\) Verified/, 'shown as text');
  });

  it('restarts only the server whose declaration changed', async () => {
    const a = await declareServers({ one: nodeServer(fixture('crashing')), two: nodeServer(fixture('crashing')) });
    await waitState(a.host.require('one'), 'running');
    await waitState(a.host.require('two'), 'running');
    const onePid = a.host.require('one').pid;
    const twoPid = a.host.require('two').pid;
    await declareServers({ one: nodeServer(fixture('crashing')), two: nodeServer(fixture('crashing'), '--edited') });
    await waitState(a.host.require('two'), 'running');
    assert.equal(a.host.require('one').pid, onePid, 'unchanged server kept running');
    assert.notEqual(a.host.require('two').pid, twoPid, 'edited server restarted');
  });

  it('shows a broken declaration next to the others, which keep running', async () => {
    const a = await declareServers({ good: nodeServer(fixture('crashing')), broken: { command: 'node', args: 'not-a-list' }, typo: { comand: 'node' } });
    await waitState(a.host.require('good'), 'running');
    const items = await serverItems(a);
    const broken = items.find(i => i.label === 'broken')!;
    assert.equal(broken.contextValue, 'problem');
    assert.match(broken.description, /"args" must be a list of strings/);
    assert.match(items.find(i => i.label === 'typo')!.description, /Needs "command"/);
    assert.equal(items.find(i => i.label === 'good')!.contextValue, 'server:running');
  });

  // Found by the second outside attack: a problem's message quotes the declaration, and the row's Markdown
  // tooltip showed it raw: a cloned repository's settings drew an image (fetched on hover) and a link there.
  it('ATTACKER: a broken declaration\'s text is shown literally in its row\'s tooltip: no image, no link', async () => {
    const a = await declareServers({ bad: { type: '![x](https://attacker.example/beacon.png) [Fix it](https://attacker.example/)', command: 'x' } });
    const items = await waitFor(async () => { const all = await serverItems(a); return all.some(i => i.contextValue === 'problem') ? all : undefined; }, 10_000, 'the problem row');
    const row = items.find(i => i.contextValue === 'problem')!;
    assert.doesNotMatch(row.tooltip, /!\[x\]\(https:/, `the tooltip's Markdown holds the image: ${row.tooltip}`);
    assert.doesNotMatch(row.tooltip, /(?<!\\)\[Fix it(?<!\\)\]\(https:/, `the tooltip's Markdown holds the link: ${row.tooltip}`);
    assert.match(row.tooltip, /attacker\\\.example/, 'the text is there, escaped');
  });

  it('shows automatic restarts after a crash and the error state once the budget is spent', async () => {
    await setSetting('mcpHost.autoRestart.maxRestarts', 2);
    await setSetting('mcpHost.autoRestart.initialDelay', 0.2);
    const a = await declareServers({ fragile: nodeServer(fixture('crashing')) });
    const s = a.host.require('fragile');
    await waitState(s, 'running');
    const seen: string[] = [];
    const sub = s.onDidChangeState(e => seen.push(`${e.state}${e.message ? `: ${e.message}` : ''}`));
    try {
      for (let i = 0; i < 3; i++) {
        const pid = s.pid!;
        process.kill(pid, 'SIGKILL');
        if (i < 2) {
          await waitFor(() => s.state === 'running' && s.pid !== pid, 15_000, `restart ${i + 1}`);
        }
      }
      await waitState(s, 'error');
      assert.match(seen[0], /^starting: the process was killed by SIGKILL; restarting in 200 ms \(attempt 1 of 2\)/);
      const item = (await serverItems(a)).find(i => i.label === 'fragile')!;
      assert.equal(item.contextValue, 'server:error');
      assert.match(item.description, /Stopped after 2 automatic restarts/);
      // The user can start it again by hand.
      await vscode.commands.executeCommand('mcpHost.startServer', 'fragile');
      assert.equal(s.state, 'running');
    } finally { sub.dispose(); }
  });

  it('a language-model tool call made while a crashed server restarts waits for the restart; the view says "restarting…"', async () => {
    await setSetting('mcpHost.autoRestart.maxRestarts', 3);
    await setSetting('mcpHost.autoRestart.initialDelay', 2);
    await setSetting('mcpHost.tools.autoApprove', ['phoenix/*']);
    try {
      const a = await declareServers({ phoenix: nodeServer(fixture('crashing')) });
      const s = a.host.require('phoenix');
      await waitState(s, 'running');
      process.kill(s.pid!, 'SIGKILL');
      await waitFor(() => s.state === 'starting' && s.recovery === 'restarting', 10_000, 'the restart countdown');
      const item = (await serverItems(a)).find(i => i.label === 'phoenix')!;
      assert.equal(item.description, 'restarting… the process was killed by SIGKILL; restarting in 2 s (attempt 1 of 3)');
      // The catalogue is empty until the restart lists it again: the call must wait, not hear "no tool named echo".
      const r = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'phoenix', tool: 'echo', arguments: { text: 'after the restart' } }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
      const said = r.content.map(p => p instanceof vscode.LanguageModelTextPart ? p.value : '').join('');
      assert.equal(said, 'after the restart');
      assert.equal(s.state, 'running');
    } finally {
      await setSetting('mcpHost.tools.autoApprove', undefined);
    }
  });

  it('starts, stops and restarts servers through the commands', async () => {
    const a = await declareServers({ cmd: nodeServer(fixture('crashing')) });
    const s = a.host.require('cmd');
    await waitState(s, 'running');
    await vscode.commands.executeCommand('mcpHost.stopServer', 'cmd');
    assert.equal(s.state, 'stopped');
    assert.equal((await serverItems(a)).find(i => i.label === 'cmd')!.contextValue, 'server:stopped');
    await vscode.commands.executeCommand('mcpHost.startServer', 'cmd');
    assert.equal(s.state, 'running');
    const pid = s.pid;
    await vscode.commands.executeCommand('mcpHost.restartServer', 'cmd');
    assert.equal(s.state, 'running');
    assert.notEqual(s.pid, pid);
    await vscode.commands.executeCommand('mcpHost.showServerLog', 'cmd');
  });

  it('"Open Declaration" selects the server\'s own entry in settings.json, not its name inside another server', async () => {
    // Attacker-shaped settings: server "a" names "b" in its args and env before "b" is declared.
    await declareServers({
      a: { command: process.execPath, args: ['b', '--peer=b'], env: { b: 'b' }, disabled: true },
      b: { command: process.execPath, args: ['server.js'], disabled: true },
    });
    await vscode.commands.executeCommand('mcpHost.openServerDeclaration', 'b');
    const editor = await waitFor(() => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.path.endsWith('/settings.json') && e.selection.isEmpty === false ? e : undefined;
    }, 10_000, 'settings.json with a selection');
    const doc = editor.document;
    assert.equal(doc.getText(editor.selection), '"b"');
    const after = doc.getText().slice(doc.offsetAt(editor.selection.start));
    assert.match(after, /^"b"\s*:\s*\{\s*"command"/, `selected: ${doc.lineAt(editor.selection.start.line).text}`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('the log level set on a server\'s output channel reaches the server as logging/setLevel', async () => {
    const a = await declareServers({ noisy: { ...nodeServer(fixture('noisy')), env: { FIXTURE_STDERR_LINES: '0' } } });
    const noisy = a.host.require('noisy');
    await waitState(noisy, 'running');
    const level = async () => textOf(await noisy.callTool('get-log-level', {}));
    await waitFor(async () => await level() === 'info', 10_000, 'the channel\'s level (info) sent at start');
    // What a person does: Output view → the server's channel → gear → a level.
    await vscode.commands.executeCommand('mcpHost.showServerLog', 'noisy');
    try {
      await vscode.commands.executeCommand('workbench.action.output.activeOutputLogLevel.5'); // Error
      await waitFor(async () => await level() === 'error', 10_000, 'logging/setLevel error');
      await vscode.commands.executeCommand('workbench.action.output.activeOutputLogLevel.1'); // Trace: MCP has no trace, debug is the finest
      await waitFor(async () => await level() === 'debug', 10_000, 'logging/setLevel debug');
    } finally {
      await vscode.commands.executeCommand('workbench.action.output.activeOutputLogLevel.3');
    }
    await waitFor(async () => await level() === 'info', 10_000, 'logging/setLevel info');
  });

  it('registers every command it contributes', async () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { contributes: { commands: { command: string }[]; menus: Record<string, { command: string }[]> } };
    const all = new Set(await vscode.commands.getCommands(true));
    const contributed = pkg.contributes.commands.map(c => c.command);
    const missing = contributed.filter(c => !all.has(c));
    assert.deepEqual(missing, [], 'contributed but not registered');
    const menuCommands = Object.values(pkg.contributes.menus).flat().map(m => m.command).filter(c => c.startsWith('mcpHost.'));
    assert.deepEqual(menuCommands.filter(c => !contributed.includes(c)), [], 'menus reference only contributed commands');
  });
});

describe('roots', function () {
  this.timeout(60_000);
  after(() => declareServers(undefined));

  it('adds user roots from mcpHost.roots and skips folders that do not exist', async () => {
    const extra = mkdtempSync(path.join(os.tmpdir(), 'user-root-'));
    await setSetting('mcpHost.roots', [extra, '/definitely/not/here']);
    try {
      const a = await declareServers({ everything: nodeServer(everythingBin) });
      const ev = a.host.require('everything');
      await waitState(ev, 'running');
      await waitFor(async () => textOf(await ev.callTool('get-roots-list', {})).includes(vscode.Uri.file(extra).toString()), 10_000, 'user root');
      assert.doesNotMatch(textOf(await ev.callTool('get-roots-list', {})), /definitely/);
    } finally {
      await setSetting('mcpHost.roots', undefined);
    }
  });

  it('offers a declaration\'s own roots to that server only, and follows an edit without a restart', async () => {
    const own = mkdtempSync(path.join(os.tmpdir(), 'server-root-'));
    const notes = vscode.Uri.joinPath(workspaceRoot(), 'notes');
    await vscode.workspace.fs.createDirectory(notes);
    const folder = vscode.workspace.workspaceFolders![0].uri.toString();
    const a = await declareServers({ mine: { ...nodeServer(everythingBin), roots: [own, 'notes'] }, other: nodeServer(everythingBin) });
    const mine = a.host.require('mine');
    const other = a.host.require('other');
    await waitState(mine, 'running');
    await waitState(other, 'running');
    const list = await waitFor(async () => { const s = textOf(await mine.callTool('get-roots-list', {})); return s.includes(vscode.Uri.file(own).toString()) ? s : undefined; }, 10_000, 'own root');
    assert.match(list, /3 total/);
    assert.ok(list.indexOf(folder) < list.indexOf(vscode.Uri.file(own).toString()), 'the workspace folder comes first');
    assert.ok(list.includes(notes.toString()), `relative root resolved in the workspace folder: ${list}`);
    const otherList = await waitFor(async () => { const s = textOf(await other.callTool('get-roots-list', {})); return s.includes(folder) ? s : undefined; }, 10_000, 'other: workspace root');
    assert.ok(!otherList.includes(own) && !otherList.includes(notes.toString()), `another server's roots leaked: ${otherList}`);

    const pid = mine.pid;
    await declareServers({ mine: { ...nodeServer(everythingBin), roots: ['notes'] }, other: nodeServer(everythingBin) });
    await waitFor(async () => { const s = textOf(await mine.callTool('get-roots-list', {})); return !s.includes(vscode.Uri.file(own).toString()) && s.includes(notes.toString()); }, 10_000, 'the server asked again after roots/list_changed');
    assert.equal(a.host.require('mine'), mine, 'same connection');
    assert.equal(mine.pid, pid, 'not restarted');
  });
});

describe('public API events', function () {
  this.timeout(60_000);
  after(() => declareServers(undefined));

  it('onDidChangeServers, onDidChangeServerState and onDidChangeCatalog reach another extension', async () => {
    await declareServers(undefined);
    const pub = (await activateMcpHost<McpHostApi>()).exports;
    const seen: string[] = [];
    const subs = [
      pub.onDidChangeServers(() => seen.push(`servers:${pub.listServers().map(s => s.name).join(',')}`)),
      pub.onDidChangeServerState(e => seen.push(`state:${e.server}:${e.state}`)),
      pub.onDidChangeCatalog(e => seen.push(`catalog:${e.server}:${e.kind}:${pub.listTools(e.server).map(t => t.tool.name).filter(n => n === 'late').join()}`)),
    ];
    try {
      const a = await declareServers({ changing: nodeServer(fixture('changing')) });
      await waitState(a.host.require('changing'), 'running');
      assert.ok(seen.includes('servers:changing'), seen.join(' | '));
      assert.ok(seen.indexOf('state:changing:starting') < seen.indexOf('state:changing:running'), seen.join(' | '));

      await pub.callTool('changing', 'add-tool', { name: 'late' });
      await waitFor(() => seen.includes('catalog:changing:tools:late'), 10_000, `a tools event with the new tool listed (${seen.join(' | ')})`);

      await declareServers(undefined);
      await waitFor(() => seen.includes('servers:'), 10_000, 'servers event on removal');
      assert.deepEqual(pub.listServers(), []);
    } finally {
      for (const d of subs) d.dispose();
    }
  });
});

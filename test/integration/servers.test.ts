/** The extension shell in a real VS Code: servers from settings, the view, restarts, commands, roots. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mkdtempSync } from 'node:fs';
import * as vscode from 'vscode';
import { setSetting, waitFor } from './helpers';
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
    assert.equal(item.description, 'stdio · 4 tools, 1 resource, 1 prompt');
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
});

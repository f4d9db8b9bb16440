// The Resources view in a real VS Code, against server-everything and our fixtures: the tree, opening
// resources through the mcp-host-resource: file system, templates filled through the real QuickPick with
// completion/complete, subscriptions, list_changed, 10,000 paginated resources, saving and errors.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answerFileDialog } from './fileDialog';
import type { ResourceTreeNode } from '../../src/vscode/resources/resourcesTree';
import { setSetting, waitFor, workspaceRoot } from './helpers';
import { api as mcpHostApi, readExtensionLogs, type TestApi } from './mcpHost';
import { leaked } from './snoop';

const repo = path.resolve(__dirname, '../../..');
const everythingBin = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const fixture = (name: string) => path.join(repo, 'out/test/fixtures/servers', `${name}.js`);
const node = (script: string, env?: Record<string, string>) => ({ command: process.execPath, args: [script], ...(env ? { env } : {}) });

const SERVERS = {
  everything: node(everythingBin),
  res: node(fixture('resources')),
  changing: node(fixture('changing')),
  big: node(fixture('paginated'), { FIXTURE_RESOURCES: '10000', FIXTURE_PAGE_SIZE: '100', FIXTURE_TOOLS: '0', FIXTURE_PROMPTS: '0', FIXTURE_SPECIAL_TOOLS: '0' }),
};

let api: TestApi;
const view = () => api.resourcesView as vscode.TreeDataProvider<ResourceTreeNode>;
const children = async (n?: ResourceTreeNode) => (await view().getChildren(n)) ?? [];
const labelOf = (i: vscode.TreeItem) => typeof i.label === 'string' ? i.label : i.label?.label ?? '';
const textOf = (r: { content?: unknown[] }) => (r.content ?? []).map(c => (c as { text?: string }).text ?? '').join('');

async function serverNode(name: string): Promise<ResourceTreeNode> {
  return waitFor(async () => (await children()).find(n => n.server === name), 15_000, `server ${name} in the Resources view`);
}
async function resourceNode(server: string, uri: string): Promise<ResourceTreeNode> {
  const s = await serverNode(server);
  return waitFor(async () => (await children(s)).find(n => n.kind === 'resource' && n.item.uri === uri), 10_000, `${uri} under ${server}`);
}
/** How often `line` occurs in the log files whose name contains `server`. */
function countIn(logs: Map<string, string>, server: string, line: string): number {
  return [...logs].filter(([f]) => path.basename(f).includes(server)).reduce((n, [, text]) => n + text.split(line).length - 1, 0);
}

async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}
/** Runs a command that shows QuickPicks and accepts the active item of each, `steps` times. */
type Pick = vscode.QuickPick<vscode.QuickPickItem>;

/**
 * Waits until the template step offers `labels` (the server's suggestions arrived and the workbench
 * shows them: the first is highlighted there), then accepts the highlighted one.
 */
async function acceptSuggestion(labels: string[]): Promise<Pick> {
  const qp = await waitFor(() => {
    const a = api.testing?.quickInput.active;
    if (!a || !('items' in a)) return undefined;
    const p = a as Pick;
    const shown = p.items.map(i => i.label);
    return !p.busy && labels.every((l, i) => shown[i] === l) && p.activeItems[0]?.label === labels[0] ? p : undefined;
  }, 15_000, `a step offering ${labels.join(', ')}`);
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  return qp;
}

describe('Resources view', function () {
  this.timeout(40_000);

  before(async () => {
    api = await mcpHostApi();
    await setSetting('mcpHost.servers', SERVERS);
    await api.reload();
    assert.ok(api.resourcesView, 'the API exposes the Resources view');
  });
  after(async () => {
    await closeAllEditors();
    await setSetting('mcpHost.servers', undefined);
    await api.reload();
  });
  afterEach(() => closeAllEditors());

  it('lists servers with resources and templates, labelled from title/name with MIME type, URI tooltip and safe icons', async () => {
    const servers = (await children()).map(n => n.server);
    assert.deepEqual(servers, ['big', 'changing', 'everything', 'res'], 'servers without resources (none here) are left out; sorted');

    const everything = await serverNode('everything');
    const kids = await children(everything);
    assert.equal(kids[0].kind, 'templates');
    const templates = await children(kids[0]);
    assert.deepEqual(templates.map(t => t.kind === 'template' && t.item.uriTemplate).sort(), ['demo://resource/dynamic/blob/{resourceId}', 'demo://resource/dynamic/text/{resourceId}']);
    const tItem = await view().getTreeItem(templates[0]);
    assert.equal(tItem.contextValue, 'resourceTemplate');
    assert.equal(tItem.command?.command, 'mcpHost.openResourceTemplate');

    const doc = await resourceNode('everything', 'demo://resource/static/document/architecture.md');
    const item = await view().getTreeItem(doc);
    assert.equal(labelOf(item), 'architecture.md');
    assert.equal(item.description, 'text/markdown');
    assert.match((item.tooltip as vscode.MarkdownString).value, /Static document file exposed from \/docs/);
    assert.match((item.tooltip as vscode.MarkdownString).value, /demo:\/\/resource\/static\/document\/architecture\.md/);
    assert.equal(item.contextValue, 'resource:text');
    assert.equal(item.resourceUri?.scheme, 'mcp-host-resource');
    assert.equal(item.resourceUri?.path.split('/').pop(), 'architecture.md', 'the file name picks the file icon');
    assert.equal((await view().getTreeItem(everything)).description, `${(await children(everything)).filter(n => n.kind === 'resource').length} resources · 2 templates`);

    const pixel = await view().getTreeItem(await resourceNode('res', 'fixture://pixel.png'));
    assert.equal(pixel.description, 'image/png · 70 B');
    assert.equal(pixel.contextValue, 'resource:image');

    const iconic = await view().getTreeItem(await resourceNode('res', 'fixture://iconic'));
    const icon = iconic.iconPath as { light: vscode.Uri; dark: vscode.Uri };
    for (const uri of [icon.light, icon.dark]) {
      assert.equal(uri.scheme, 'data');
      const svg = Buffer.from(uri.toString(true).split(',')[1], 'base64').toString();
      assert.match(svg, /^<svg/);
      assert.doesNotMatch(svg, /script|onload|javascript/i);
    }
    assert.notEqual(icon.light.toString(), icon.dark.toString(), 'the dark-theme icon is the sanitised one');
  });

  it('opens static documents as read-only text with the language from the MIME type', async () => {
    const node = await resourceNode('everything', 'demo://resource/static/document/architecture.md');
    const [uri] = await vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResource', node);
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.toString(), uri.toString());
    assert.equal(editor.document.uri.scheme, 'mcp-host-resource');
    assert.equal(editor.document.languageId, 'markdown');
    const onDisk = fs.readFileSync(path.join(path.dirname(everythingBin), 'docs', 'architecture.md'), 'utf8');
    assert.equal(editor.document.getText(), onDisk);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(uri, new Uint8Array([1]))), /read-only|NoPermissions/i);

    // JSON by MIME type, even though the file name says .json too; markdown part of a multi-content read.
    const uris = await vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResource', { server: 'res', uri: 'fixture://multi' });
    assert.deepEqual(uris.map(u => u.path.split('/').pop()), ['readme.md', 'data.json', 'pixel.png'], 'every content of the read is shown');
    const docs = await Promise.all(uris.slice(0, 2).map(u => vscode.workspace.openTextDocument(u)));
    assert.deepEqual(docs.map(d => [d.languageId, d.getText()]), [['markdown', '# Part one\n'], ['json', '{"part": 2}']]);
    await waitFor(() => vscode.window.tabGroups.all.flatMap(g => g.tabs).some(t => t.input instanceof vscode.TabInputCustom && t.input.viewType === 'imagePreview.previewEditor' && t.input.uri.toString() === uris[2].toString()), 10_000, 'the image preview tab');
  });

  it('fills everything\'s dynamic text and blob templates through the QuickPick with resourceId completion', async () => {
    const text = vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResourceTemplate', { server: 'everything', uriTemplate: 'demo://resource/dynamic/text/{resourceId}', values: { resourceId: '7' } });
    await acceptSuggestion(['7']);
    const [textUri] = await text;
    const textDoc = await vscode.workspace.openTextDocument(textUri);
    assert.match(textDoc.getText(), /^Resource 7: This is a plaintext resource created at /);
    assert.equal(textUri.path.split('/').pop(), '7.txt');

    const blob = vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResourceTemplate', { server: 'everything', uriTemplate: 'demo://resource/dynamic/blob/{resourceId}', values: { resourceId: '12' } });
    await acceptSuggestion(['12']);
    const [blobUri] = await blob;
    assert.match((await vscode.workspace.openTextDocument(blobUri)).getText(), /^Resource 12: This is a base64 blob created at /, 'a text/plain blob opens as text');
  });

  it('asks the server for completions, passing earlier answers as context.arguments: owner, then the repositories of that owner', async () => {
    const node = (await children((await children(await serverNode('res')))[0]))[0];
    assert.equal(node.kind === 'template' && node.item.uriTemplate, 'repo://{owner}/{repo}');
    const asked = async () => JSON.parse(textOf(await api.host.require('res').callTool('completions'))) as { argument: string; value: string; context: Record<string, string> }[];
    const before = (await asked()).length;
    const run = vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResourceTemplate', node);
    // Step 1 offers alice, bob, carol; step 2 offers only alice's repositories: alpha, apex.
    await acceptSuggestion(['alice', 'bob', 'carol']);
    const repoStep = await acceptSuggestion(['alpha', 'apex']);
    assert.ok(!repoStep.items.some(i => i.label === 'beta'), "bob's repositories are not offered");
    const [uri] = await run;
    assert.deepEqual((await asked()).slice(before), [
      { argument: 'owner', value: '', context: {} },
      { argument: 'repo', value: '', context: { owner: 'alice' } },
    ], 'the completion requests reached the server, the second with the first answer');
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.equal(doc.getText(), '# alice/alpha\n');
    assert.equal(doc.languageId, 'markdown');
  });

  it('subscribes while a resource is open, refreshes it in place on resources/updated, unsubscribes on close', async () => {
    const res = api.host.require('res');
    const [uri] = await vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResource', { server: 'res', uri: 'fixture://counter' });
    const doc = await vscode.workspace.openTextDocument(uri);
    assert.match(doc.getText(), /^count \d+$/);
    const before = doc.getText();
    await waitFor(async () => textOf(await res.callTool('subscriptions')) === '["fixture://counter"]', 5000, 'the subscription');
    const changed = new Promise<void>(r => { const d = vscode.workspace.onDidChangeTextDocument(e => { if (e.document === doc) { d.dispose(); r(); } }); });
    assert.equal(textOf(await res.callTool('bump', { uri: 'fixture://counter' })), 'updated fixture://counter');
    await changed;
    assert.notEqual(doc.getText(), before);
    assert.match(doc.getText(), /^count \d+$/);

    await closeAllEditors();
    await waitFor(async () => textOf(await res.callTool('subscriptions')) === '[]', 5000, 'the unsubscription');
  });

  it('refreshes a dynamic everything resource on toggle-subscriber-updates, and stops after the tab closes', async () => {
    const everything = api.host.require('everything');
    const target = 'demo://resource/dynamic/text/1';
    // Stays open throughout: its updates are the barrier that shows the server's update round has reached us.
    const witness = 'demo://resource/dynamic/text/9';
    const updates: string[] = [];
    const listening = api.host.onDidUpdateResource(e => { if (e.server === 'everything') updates.push(e.uri); });
    const [uri] = await vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResource', { server: 'everything', uri: target });
    const doc = await vscode.workspace.openTextDocument(uri);
    const first = doc.getText();
    // The content carries a seconds timestamp: wait until the server's own content has moved past the
    // one shown, so the refresh below has something new to show.
    await waitFor(async () => { const c = (await everything.readResource(target)).contents[0]; return 'text' in c && c.text !== first; }, 10_000, 'a newer timestamp in the resource');
    const changed = new Promise<void>(r => { const d = vscode.workspace.onDidChangeTextDocument(e => { if (e.document === doc && e.document.getText() !== first) { d.dispose(); r(); } }); });
    await everything.callTool('toggle-subscriber-updates'); // on: sends updated for our subscription at once
    try {
      await changed;
      assert.match(doc.getText(), /^Resource 1: This is a plaintext resource created at /);
      // The witness is subscribed after the target, so the server (which walks its subscriptions in the
      // order they were first made) sends the target's update before the witness's in every round.
      // The target's tab is a preview: keep it, or the witness would open in its place.
      await waitFor(() => vscode.window.activeTextEditor?.document === doc, 10_000, 'the resource in the active editor');
      await vscode.commands.executeCommand('workbench.action.keepEditor');
      await vscode.commands.executeCommand('mcpHost.openResource', { server: 'everything', uri: witness });
      await waitFor(() => updates.includes(witness), 20_000, 'an update of the witness (its subscription is in place)');

      const unsubscribed = async () => countIn(await readExtensionLogs(api), 'everything', `Received Unsubscribe Resource request: ${target}`);
      const before = await unsubscribed();
      const tabs = vscode.window.tabGroups.all.flatMap(g => g.tabs);
      const tab = tabs.find(t => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
      assert.ok(tab, `the resource tab (tabs: ${tabs.map(t => t.label).join(', ')})`);
      await vscode.window.tabGroups.close(tab);
      // The server's own record (its log message, which MCP Host writes to the server's log) that the unsubscribe arrived.
      await waitFor(async () => await unsubscribed() > before, 15_000, 'the server to log the unsubscribe');
      await everything.callTool('toggle-subscriber-updates'); // off
      const from = updates.length;
      await everything.callTool('toggle-subscriber-updates'); // on again: sends at once for subscribed URIs only
      await waitFor(() => updates.slice(from).includes(witness), 20_000, 'the update round after turning updates on again');
      assert.deepEqual(updates.slice(from).filter(u => u === target), [], 'no updates of the closed resource after unsubscribing');
    } finally {
      listening.dispose();
      await everything.callTool('toggle-subscriber-updates'); // leave updates off
    }
  });

  it('refreshes the tree on resources/list_changed', async () => {
    const server = await serverNode('changing');
    const fired = new Promise<void>(r => { const d = view().onDidChangeTreeData!(() => { d.dispose(); r(); }); });
    await api.host.require('changing').callTool('add-resource', { uri: 'fixture://changing/added' });
    await fired;
    await waitFor(async () => (await children(server)).some(n => n.kind === 'resource' && n.item.uri === 'fixture://changing/added'), 10_000, 'the added resource in the tree');
    await api.host.require('changing').callTool('remove-resource', { uri: 'fixture://changing/added' });
    await waitFor(async () => !(await children(server)).some(n => n.kind === 'resource' && n.item.uri === 'fixture://changing/added'), 10_000, 'the removed resource to go');
  });

  it('shows 10,000 paginated resources a page at a time with "Load more…"', async () => {
    const big = await serverNode('big');
    // The server runs after the first page; the other 99 are listed in the background.
    await api.host.require('big').catalog.whenListed('resources');
    assert.equal(api.host.require('big').catalog.get('resources').length, 10_000);
    const first = await children(big);
    assert.equal(first.filter(n => n.kind === 'resource').length, 200);
    const more = first.at(-1)!;
    const moreItem = await view().getTreeItem(more);
    assert.equal(labelOf(moreItem), 'Load more…');
    assert.match(String(moreItem.description), /^200 of 10,000 shown$/);
    assert.equal(moreItem.command?.command, 'mcpHost.loadMoreResources');
    await vscode.commands.executeCommand(moreItem.command!.command, ...(moreItem.command!.arguments ?? []));
    const second = await children(big);
    assert.equal(second.filter(n => n.kind === 'resource').length, 400);
    assert.equal((await view().getTreeItem(second.filter(n => n.kind === 'resource')[399])).label, 'resource-399');
    assert.equal((await view().getTreeItem(big)).description, '10,000 resources · 2 templates');
  });

  it('filters by name or URI across servers', async () => {
    try {
      await vscode.commands.executeCommand('mcpHost.filterResources', 'architecture');
      assert.deepEqual((await children()).map(n => n.server), ['everything']);
      const kids = await children(await serverNode('everything'));
      assert.deepEqual(kids.map(n => n.kind === 'resource' && n.item.name), ['architecture.md']);
      await vscode.commands.executeCommand('mcpHost.filterResources', 'FIXTURE://RESOURCE/9999');
      assert.deepEqual((await children()).map(n => n.server), ['big']);
      assert.deepEqual((await children(await serverNode('big'))).map(n => n.kind === 'resource' && n.item.uri), ['fixture://resource/9999']);
      assert.equal((await view().getTreeItem(await serverNode('big'))).description, '1 of 10,002 match');
    } finally {
      await vscode.commands.executeCommand('mcpHost.clearResourceFilter');
    }
    assert.equal((await children()).length, 4);
  });

  it('copies URIs and saves one or many resources into the workspace; binary data is saved, not shown', async () => {
    const a = await resourceNode('res', 'fixture://pixel.png');
    const b = await resourceNode('res', 'fixture://archive.zip');
    const copied = await vscode.commands.executeCommand<string>('mcpHost.copyResourceUri', a, [a, b]);
    assert.equal(copied, 'fixture://pixel.png\nfixture://archive.zip');

    assert.deepEqual(await vscode.commands.executeCommand('mcpHost.openResource', b), [], 'a zip is not opened in an editor');
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'saved-resources');
    await vscode.workspace.fs.createDirectory(folder);
    const written = await answerFileDialog(vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.saveResource', a, [a, b], folder), 'accept');
    assert.deepEqual(written.map(u => path.basename(u.fsPath)), ['pixel.png', 'archive.zip']);
    const png = await vscode.workspace.fs.readFile(written[0]);
    assert.deepEqual([...png.slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.equal((await vscode.workspace.fs.readFile(written[1])).byteLength, 22);

    const single = vscode.Uri.joinPath(workspaceRoot(), 'saved-architecture.md');
    const doc = await resourceNode('everything', 'demo://resource/static/document/architecture.md');
    await answerFileDialog(vscode.commands.executeCommand('mcpHost.saveResource', doc, undefined, single), 'accept');
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(single)), /^# /);
  });

  it('another extension cannot make Save write a server\'s bytes where it likes: its target is only what the dialog proposes', async () => {
    // ~/.bashrc in a real attack; a fresh file outside the workspace here.
    const target = vscode.Uri.file(path.join(os.tmpdir(), `mcp-host-planted-${process.pid}-${Date.now()}.sh`));
    const doc = await resourceNode('everything', 'demo://resource/static/document/architecture.md');
    const written = await answerFileDialog(vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.saveResource', doc, undefined, target), 'cancel');
    assert.deepEqual(written, [], 'nothing written');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(target)), 'the file the other extension named was not written');
  });

  it('attaches selected resources to chat as mcp-host-resource: files', async () => {
    const a = await resourceNode('everything', 'demo://resource/static/document/architecture.md');
    const b = await resourceNode('res', 'fixture://counter');
    const files = await vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.attachResourcesToChat', a, [a, b]);
    assert.deepEqual(files.map(f => [f.scheme, f.path.split('/').pop()]), [['mcp-host-resource', 'architecture.md'], ['mcp-host-resource', 'counter.txt']]);
    // What the chat reads for each attachment: the file system answers stat + read.
    const stat = await vscode.workspace.fs.stat(files[0]);
    assert.equal(stat.type, vscode.FileType.File);
    assert.ok(stat.size > 100);
  });

  it('another extension reads no resource through a URI it writes itself: only URIs this window minted are served', async () => {
    const secret = 'demo://resource/static/document/extension.md';
    const b64 = Buffer.from(secret).toString('base64url');
    const minted = api.resourceUri('everything', secret, 0, 'extension.md');
    const token = minted.path.split('/')[1];
    const guesses = [
      `mcp-host-resource:/everything/${b64}/extension.md`, // the URI format before tokens
      `mcp-host-resource:/${'A'.repeat(22)}/everything/${b64}/extension.md`,
      `mcp-host-resource:/${token}/everything/${Buffer.from('demo://resource/static/document/features.md').toString('base64url')}/features.md`, // another resource under a seen token
      `mcp-host-resource:/${token}/everything/${b64}/1/extension.md`, // another content index
      `mcp-host-resource:/${token}/res/${b64}/extension.md`, // another server
    ];
    assert.deepEqual(await leaked(guesses, /# Everything Server/), [], 'another extension read a resource by a URI it wrote');
    for (const guess of guesses) {
      await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.parse(guess))), /not opened by MCP Host in this window/, guess);
    }
    // The minted one reads (what an editor, the image preview or a chat attachment of this window gets).
    assert.match(Buffer.from(await vscode.workspace.fs.readFile(minted)).toString(), /^# Everything Server - Extension Points/);
  });

  it('explains resources that are not found and servers that are stopped', async () => {
    const [ok] = await vscode.commands.executeCommand<vscode.Uri[]>('mcpHost.openResource', { server: 'big', uri: 'fixture://resource/5' });
    // A URI the host minted for a resource the server no longer has (an open tab of a removed resource).
    const missing = api.resourceUri('big', 'fixture://resource/99999', 0, '99999.txt');
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(missing)), (e: vscode.FileSystemError) => {
      assert.equal(e.code, 'FileNotFound');
      assert.match(e.message, /Resource not found: server "big" has no resource fixture:\/\/resource\/99999/);
      return true;
    });
    await closeAllEditors();
    await api.host.require('big').stop();
    try {
      await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(ok)), (e: vscode.FileSystemError) => {
        assert.equal(e.code, 'Unavailable');
        assert.match(e.message, /the server is stopped.*Start the server/);
        return true;
      });
    } finally {
      await api.host.require('big').start();
    }
  });
});

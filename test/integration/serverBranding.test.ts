/**
 * A server's own icon and website (serverInfo.icons, serverInfo.websiteUrl) in the Servers view, in a
 * real VS Code: an honest server's PNGs are shown from files MCP Host wrote in its own storage; a
 * hostile server's javascript: website, remote, file:, SVG, mislabelled and oversized icons show
 * nothing of the server, and no request goes to the address it named.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, waitFor } from './helpers';
import { declareServers, fixture, nodeServer, waitState, type TestApi } from './mcpHost';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const b64 = (b: Buffer) => b.toString('base64');
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function row(a: TestApi, name: string): Promise<vscode.TreeItem> {
  const node = ((await a.serversView.getChildren()) ?? []).find(n => (n as { name?: string }).name === name);
  assert.ok(node, `${name} is in the Servers view`);
  return a.serversView.getTreeItem(node);
}

const tooltipText = (item: vscode.TreeItem) => (item.tooltip as vscode.MarkdownString).value;
/** The tooltip as it reads once Markdown removes its escapes. */
const readTooltip = (item: vscode.TreeItem) => tooltipText(item).replace(/\\([!-/:-@[-`{-~])/g, '$1');

describe('a server\'s icon and website in the Servers view', function () {
  this.timeout(60_000);
  after(() => declareServers(undefined));

  it('shows a running server\'s PNG icons (light and dark) from files MCP Host wrote in its storage, the website\'s host in the tooltip, and Open Website', async () => {
    const a = await declareServers({ branded: { ...nodeServer(fixture('branded')), env: { FIXTURE_BRANDING: 'good', FIXTURE_ICON_PNG: PNG } } });
    const conn = a.host.require('branded');
    await waitState(conn, 'running');
    // The file is written after the first paint; the view repaints when it is there.
    const item = await waitFor(async () => { const i = await row(a, 'branded'); return i.iconPath instanceof vscode.ThemeIcon ? undefined : i; }, 10_000, 'the server\'s own icon');
    const { light, dark } = item.iconPath as { light: vscode.Uri; dark: vscode.Uri };
    const lightBytes = Buffer.from(PNG, 'base64');
    const darkBytes = Buffer.concat([lightBytes, Buffer.from('DARK')]);
    for (const [uri, bytes] of [[light, lightBytes], [dark, darkBytes]] as const) {
      assert.equal(uri.scheme, 'file');
      assert.equal(path.basename(uri.fsPath), `${sha256(bytes)}.png`, 'named by the SHA-256 of the bytes, nothing of the server\'s text');
      const folder = path.dirname(uri.fsPath);
      assert.equal(path.basename(folder), 'server-icons');
      assert.equal(path.basename(path.dirname(folder)).toLowerCase(), EXTENSION_ID.toLowerCase(), 'in MCP Host\'s global storage');
      assert.equal(path.basename(path.dirname(path.dirname(folder))), 'globalStorage');
      assert.deepEqual(readFileSync(uri.fsPath), bytes, 'exactly the bytes the server sent');
    }
    assert.equal(item.contextValue, 'server:running:website', 'Open Website is offered');
    // The picture replaces the green dot: the row still says the server runs.
    assert.match(String(item.description), /^running · stdio · 1 tool$/);
    assert.match(readTooltip(item), /Website: example\.com\n/);
    assert.doesNotMatch(tooltipText(item), /https:|\]\(|command:/, 'the URL itself is not in the tooltip, and no link');
    assert.equal((item.tooltip as vscode.MarkdownString).isTrusted, undefined, 'no command links in the tooltip');

    // A stopped server keeps the state icon.
    await conn.stop();
    const stopped = await waitFor(async () => { const i = await row(a, 'branded'); return i.iconPath instanceof vscode.ThemeIcon ? i : undefined; }, 10_000, 'the state icon again');
    assert.equal((stopped.iconPath as vscode.ThemeIcon).id, 'circle-outline');
    assert.doesNotMatch(stopped.contextValue ?? '', /:website/);
  });

  it('shows nothing of a hostile server\'s website and icons (javascript:, remote, file:, SVG, wrong type, oversized), and makes no request to its address', async () => {
    let connections = 0;
    const pixel = http.createServer((_req, res) => res.end());
    pixel.on('connection', () => connections++);
    await new Promise<void>(resolve => pixel.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(pixel.address() as AddressInfo).port}/pixel.png`;
      const a = await declareServers({ hostile: { ...nodeServer(fixture('branded')), env: { FIXTURE_BRANDING: 'hostile', FIXTURE_ICON_PNG: PNG, FIXTURE_ICON_URL: url } } });
      const conn = a.host.require('hostile');
      await waitState(conn, 'running');
      assert.equal(conn.serverInfo?.websiteUrl?.startsWith('javascript:'), true, 'the server did send its hostile serverInfo');
      assert.equal(conn.serverInfo?.icons?.length, 1006);
      // Paint the row, then give an icon write (or a fetch) the time it would take to show.
      await row(a, 'hostile');
      await new Promise(resolve => setTimeout(resolve, 1500));
      const item = await row(a, 'hostile');
      assert.ok(item.iconPath instanceof vscode.ThemeIcon, `the state icon, not the server's (got ${JSON.stringify(item.iconPath)})`);
      assert.equal(item.iconPath.id, 'circle-filled');
      assert.equal(item.contextValue, 'server:running', 'no Open Website for a javascript: URL');
      assert.doesNotMatch(readTooltip(item), /Website|javascript/);
      assert.equal(item.description, 'stdio · 1 tool');
      // The command refuses too when called directly (another extension, a keybinding): it reports, opens nothing.
      await vscode.commands.executeCommand('mcpHost.openServerWebsite', 'hostile');
      assert.equal(connections, 0, 'no connection to the address the server named for its icons');
      // Nothing of the hostile icons was written: the folder holds at most the honest server's two files.
      const names = (() => { try { return readdirSync(a.testing.serverIconsFolder!); } catch { return []; } })();
      const honest = [Buffer.from(PNG, 'base64'), Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.from('DARK')])].map(b => `${sha256(b)}.png`);
      assert.deepEqual(names.filter(n => !honest.includes(n)), []);
    } finally {
      await new Promise(resolve => pixel.close(resolve));
    }
  });

  it('writes its icon files itself: a link planted at the name is replaced, not followed; at most 64 are kept, never a shown one, nothing else touched', async () => {
    const a0 = await declareServers(undefined);
    const folder = a0.testing.serverIconsFolder;
    assert.ok(folder, 'the test window keeps its storage in a local folder');
    mkdirSync(folder, { recursive: true });
    // An icon no other test uses, so this window has not written it yet.
    const bytes = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.from('PLANTED')]);
    const name = `${sha256(bytes)}.png`;
    const victim = path.join(mkdtempSync(path.join(os.tmpdir(), 'mcp-host-icon-victim-')), 'bashrc');
    writeFileSync(victim, 'the user\'s file\n');
    symlinkSync(victim, path.join(folder, name));
    // 70 old icon files of other windows and sessions, and a file that is not MCP Host's.
    const old = Date.now() / 1000 - 86_400;
    const stale = Array.from({ length: 70 }, (_, i) => `${sha256(Buffer.from(`stale ${i}`))}.png`);
    for (const n of stale) { writeFileSync(path.join(folder, n), 'x'); utimesSync(path.join(folder, n), old, old); }
    writeFileSync(path.join(folder, 'notes.txt'), 'not ours');

    const a = await declareServers({ planted: { ...nodeServer(fixture('branded')), env: { FIXTURE_BRANDING: 'good', FIXTURE_ICON_PNG: b64(bytes) } } });
    await waitState(a.host.require('planted'), 'running');
    const item = await waitFor(async () => { const i = await row(a, 'planted'); return i.iconPath instanceof vscode.ThemeIcon ? undefined : i; }, 10_000, 'the server\'s own icon');
    const { light } = item.iconPath as { light: vscode.Uri };
    assert.equal(light.fsPath, path.join(folder, name));
    assert.equal(readFileSync(victim, 'utf8'), 'the user\'s file\n', 'the link\'s target is untouched');
    assert.ok(lstatSync(light.fsPath).isFile(), 'the link was replaced by a file');
    assert.deepEqual(readFileSync(light.fsPath), bytes);
    // Pruned after the writes (the dark icon is written after the light one): wait for the folder to settle.
    const own = await waitFor(() => { const n = readdirSync(folder).filter(f => f !== 'notes.txt'); return n.length <= 64 ? n : undefined; }, 10_000, 'at most 64 icon files');
    assert.ok(own.includes(name), 'the icon shown now is kept');
    assert.ok(stale.some(n => !own.includes(n)), 'the oldest went');
    assert.equal(readFileSync(path.join(folder, 'notes.txt'), 'utf8'), 'not ours', 'a file MCP Host did not write is left alone');
  });

  it('writes no icon through a link planted in place of its folder: the row keeps the state icon', async () => {
    const a0 = await declareServers(undefined);
    const folder = a0.testing.serverIconsFolder!;
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'mcp-host-icon-elsewhere-'));
    const moved = `${folder}.moved-${process.pid}`;
    mkdirSync(folder, { recursive: true });
    renameSync(folder, moved);
    symlinkSync(elsewhere, folder);
    try {
      const bytes = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.from('LINKED-FOLDER')]);
      const a = await declareServers({ linked: { ...nodeServer(fixture('branded')), env: { FIXTURE_BRANDING: 'good', FIXTURE_ICON_PNG: b64(bytes) } } });
      await waitState(a.host.require('linked'), 'running');
      await row(a, 'linked');
      await new Promise(resolve => setTimeout(resolve, 1500));
      assert.ok((await row(a, 'linked')).iconPath instanceof vscode.ThemeIcon, 'no icon from a folder MCP Host does not own');
      assert.deepEqual(readdirSync(elsewhere), [], 'nothing written through the link');
    } finally {
      rmSync(folder);
      renameSync(moved, folder);
    }
  });
});

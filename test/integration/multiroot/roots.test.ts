/** Roots in a multi-root workspace: adding and removing folders reaches the servers. */
import * as assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../helpers';
import { declareServers, everythingBin, filesystemBin, nodeServer, textOf, waitState } from '../mcpHost';

describe('roots (multi-root workspace)', function () {
  this.timeout(60_000);
  after(() => declareServers(undefined));

  it('offers every workspace folder as a root', async () => {
    const a = await declareServers({ everything: nodeServer(everythingBin) });
    const ev = a.host.require('everything');
    await waitState(ev, 'running');
    const list = textOf(await ev.callTool('get-roots-list', {}));
    assert.match(list, /2 total/);
    for (const f of vscode.workspace.workspaceFolders!) assert.ok(list.includes(f.uri.toString()) && list.includes(f.name), f.name);
  });

  it('follows workspace-folder changes (server-everything and server-filesystem see them)', async () => {
    const a = await declareServers({ everything: nodeServer(everythingBin), fs: nodeServer(filesystemBin) });
    const ev = a.host.require('everything');
    const fs = a.host.require('fs');
    await waitState(ev, 'running');
    await waitState(fs, 'running');
    const first = vscode.workspace.workspaceFolders![0];
    assert.match(textOf(await ev.callTool('get-roots-list', {})), new RegExp(`URI: ${first.uri.toString().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    await waitFor(async () => textOf(await fs.callTool('list_allowed_directories', {})).includes(first.uri.fsPath), 10_000, 'filesystem root');

    const extra = mkdtempSync(path.join(os.tmpdir(), 'extra-root-'));
    const added = new Promise<void>(r => { const d = vscode.workspace.onDidChangeWorkspaceFolders(() => { d.dispose(); r(); }); });
    assert.ok(vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length, 0, { uri: vscode.Uri.file(extra), name: 'extra' }));
    await added;
    try {
      await waitFor(async () => textOf(await ev.callTool('get-roots-list', {})).includes(vscode.Uri.file(extra).toString()), 10_000, 'everything sees the new root');
      await waitFor(async () => textOf(await fs.callTool('list_allowed_directories', {})).includes(extra), 10_000, 'filesystem sees the new root');
    } finally {
      const removed = new Promise<void>(r => { const d = vscode.workspace.onDidChangeWorkspaceFolders(() => { d.dispose(); r(); }); });
      vscode.workspace.updateWorkspaceFolders(vscode.workspace.workspaceFolders!.length - 1, 1);
      await removed;
    }
    await waitFor(async () => !textOf(await ev.callTool('get-roots-list', {})).includes(vscode.Uri.file(extra).toString()), 10_000, 'root removed');
  });

});

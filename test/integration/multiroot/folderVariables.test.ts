/**
 * Issue 28.3 in a real VS Code: a server whose `cwd` names a folder by variable (`${workspaceFolder:b}`) runs
 * the code of whatever folder has that name. When the .code-workspace's folder "b" is replaced by another
 * folder under the same name (a workspace edit, a pulled change), the running server must restart there,
 * not keep running the old folder's program while approvals are read for the new one's.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../helpers';
import { declareServers, fixture, nodeServer, textOf, waitState } from '../mcpHost';

describe('a folder named by a variable (multi-root workspace)', function () {
  this.timeout(90_000);
  after(() => declareServers(undefined));

  it('ATTACKER: the folder "b" is replaced by another folder under the same name: the server whose cwd is ${workspaceFolder:b} restarts in it; a server that names no folder keeps running', async () => {
    const a = await declareServers({
      inB: { ...nodeServer(fixture('crashing')), cwd: '${workspaceFolder:b}' },
      fixed: { ...nodeServer(fixture('crashing')), cwd: os.tmpdir() },
    });
    const inB = a.host.require('inB');
    await waitState(inB, 'running');
    await waitState(a.host.require('fixed'), 'running');
    const cwdOf = async () => realpathSync(readlinkSync(`/proc/${JSON.parse(textOf(await inB.callTool('pid', {}))).pid}/cwd`));
    const index = vscode.workspace.workspaceFolders!.findIndex(f => f.name === 'b');
    const original = vscode.workspace.workspaceFolders![index];
    assert.equal(await cwdOf(), realpathSync(original.uri.fsPath));
    const fixedPid = a.host.require('fixed').pid;

    const other = mkdtempSync(path.join(os.tmpdir(), 'other-b-'));
    const changed = () => new Promise<void>(r => { const d = vscode.workspace.onDidChangeWorkspaceFolders(() => { d.dispose(); r(); }); });
    let done = changed();
    assert.ok(vscode.workspace.updateWorkspaceFolders(index, 1, { uri: vscode.Uri.file(other), name: 'b' }));
    await done;
    try {
      await waitFor(async () => inB.state === 'running' && await cwdOf().catch(() => '') === realpathSync(other), 30_000, 'inB to run in the new folder "b"');
      assert.equal(a.host.require('fixed').pid, fixedPid, 'a server that names no folder is the same program: no restart');
    } finally {
      done = changed();
      vscode.workspace.updateWorkspaceFolders(index, 1, { uri: original.uri, name: 'b' });
      await done;
      rmSync(other, { recursive: true, force: true });
    }
  });
});

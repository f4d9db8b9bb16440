/**
 * Commands are an API surface: any extension can execute them with any argument. A command that writes a
 * file takes a path argument only as what its dialog proposes (resources.test.ts checks mcpHost.saveResource).
 */
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answerFileDialog } from './fileDialog';

describe('commands other extensions can execute write only where the user confirms', function () {
  this.timeout(60_000);

  it('mcpHost.exportToolActivity(uri) proposes the uri in the save dialog; cancelled, nothing is written', async () => {
    // ~/.bashrc or a startup folder in a real attack; a fresh file outside the workspace here.
    const target = vscode.Uri.file(path.join(os.tmpdir(), `mcp-host-export-${process.pid}-${Date.now()}.json`));
    const written = await answerFileDialog(vscode.commands.executeCommand<vscode.Uri | undefined>('mcpHost.exportToolActivity', target), 'cancel');
    assert.equal(written, undefined);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(target)), 'the file the other extension named was not written');
  });
});

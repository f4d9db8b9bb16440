/**
 * "Edit Server…" in Restricted Mode (issue 33): a server the untrusted workspace declares is not edited
 * (the form would show the workspace's values as if they were the user's, and its answers — secrets
 * included — would go into the workspace's declaration), and a server of a discovered file is not
 * edited but named with its file. Nothing is shown to fill in and no setting changes.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EditServerResult } from '../../../src/vscode/onboarding/editServer';
import { api } from '../mcpHost';
import { waitFor } from '../helpers';

const settings = () => JSON.stringify(vscode.workspace.getConfiguration('mcpHost').inspect('servers'));

describe('Edit Server… in Restricted Mode', function () {
  this.timeout(60_000);

  it('ATTACKER: a workspace server is not edited while the workspace is untrusted, and a discovered one is named with its file', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the run opens the folder untrusted');
    const a = await api();
    let shown = 0;
    const sub = a.testing.quickInput.onDidShow(() => shown++);
    try {
      const before = settings();
      assert.ok(Object.hasOwn(vscode.workspace.getConfiguration('mcpHost').inspect<Record<string, unknown>>('servers')?.workspaceValue ?? {}, 'fromWorkspace'));
      const refused = await vscode.commands.executeCommand<EditServerResult>('mcpHost.editServer', 'fromWorkspace');
      assert.deepEqual(refused, { status: 'notEditable', reason: 'untrusted' });

      await a.reload();
      const discovered = await waitFor(async () => {
        const r = await vscode.commands.executeCommand<EditServerResult>('mcpHost.editServer', 'planted@claudeCodeWorkspace');
        return r.status === 'notEditable' && r.reason === 'discovered' ? r : undefined;
      }, 10_000, 'the .mcp.json server named with its file');
      assert.match(discovered.file ?? '', /[\\/]\.mcp\.json$/);
      assert.equal(shown, 0, 'no form was shown');
      assert.equal(settings(), before, 'no setting changed');
    } finally {
      sub.dispose();
    }
  });
});

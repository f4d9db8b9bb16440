/** Workspace Trust: the workspace is untrusted in this run (Restricted Mode). */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, serverItems, waitState } from '../mcpHost';
import { waitFor } from '../helpers';

describe('workspace trust', function () {
  this.timeout(60_000);

  it('keeps workspace-declared servers stopped and says why, while user servers run', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the run opens the folder untrusted');
    const a = await api();
    await a.reload();
    await waitState(a.host.require('fromUser'), 'running');
    assert.equal(a.host.get('fromWorkspace'), undefined, 'the workspace server was not created');
    const items = await serverItems(a);
    const ws = items.find(i => i.label === 'fromWorkspace');
    assert.ok(ws, `untrusted server is listed: ${JSON.stringify(items)}`);
    assert.equal(ws.contextValue, 'untrusted');
    assert.match(ws.description, /not trusted/);
    await waitFor(() => items.find(i => i.label === 'fromUser')?.contextValue === 'server:running', 5000, 'user server shown running');
  });
});

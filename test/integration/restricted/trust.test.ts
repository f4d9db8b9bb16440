/** Workspace Trust: the workspace is untrusted in this run (Restricted Mode). */
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
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

  it('starts the workspace servers as soon as trust is granted', async () => {
    const signal = process.env.MCP_HOST_TRUST_SIGNAL;
    assert.ok(signal, 'the run passes the signal file');
    const a = await api();
    const pidBefore = a.host.require('fromUser').pid;
    writeFileSync(signal, 'untrusted state checked'); // the UI suite (test/ui-trust) now clicks "Trust"
    try {
      await waitFor(() => vscode.workspace.isTrusted, 60_000, 'trust granted in the UI');
      const ws = await waitFor(() => a.host.get('fromWorkspace'), 15_000, 'workspace server created');
      await waitState(ws, 'running');
      const item = (await serverItems(a)).find(i => i.label === 'fromWorkspace');
      assert.equal(item?.contextValue, 'server:running');
      assert.equal(a.host.require('fromUser').pid, pidBefore, 'the user server kept running');
    } finally {
      rmSync(signal, { force: true });
    }
  });
});

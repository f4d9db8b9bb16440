/**
 * With no server declared the Servers view shows its welcome; its "Add Server" button runs the flow, and
 * "Workspace settings" as the target writes the declaration to the folder's .vscode/settings.json, not to
 * the user's settings. The person's part is test/ui-workbench/e-welcome.test.mjs.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor, workspaceRoot } from '../helpers';
import { declareServers, waitState } from '../mcpHost';
import { uiStep } from './bridge';

const EVERYTHING = path.resolve(__dirname, '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe('welcome view and Add Server to the workspace', function () {
  this.timeout(180_000);
  after(async () => {
    await vscode.workspace.getConfiguration('mcpHost').update('servers', undefined, vscode.ConfigurationTarget.Workspace);
    await declareServers(undefined);
  });

  it('"Add Server" in the empty Servers view declares a server in the workspace settings', async () => {
    const a = await declareServers(undefined);
    const result = (await uiStep('welcome-add', { script: EVERYTHING, name: 'ws-added' }, 150_000)) as { error?: string };
    assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
    // The flow writes the settings after its last step closed: wait for the write, then check where it went.
    const inspected = await waitFor(() => {
      const i = vscode.workspace.getConfiguration('mcpHost').inspect<Record<string, unknown>>('servers');
      return i?.workspaceValue && 'ws-added' in i.workspaceValue ? i : undefined;
    }, 10_000, 'ws-added in the workspace settings');
    assert.ok(!inspected.globalValue || !('ws-added' in inspected.globalValue), 'not in the user settings');
    const file = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(workspaceRoot(), '.vscode', 'settings.json')));
    assert.match(file, /"ws-added"/);
    const conn = await waitFor(() => a.host.get('ws-added'), 20_000, 'the added server');
    await waitState(conn, 'running', 30_000);
  });
});

/** `${input:…}` secrets: asked once, kept in SecretStorage, reach the server, never in settings or logs. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setSetting, waitFor } from './helpers';
import { api, declareServers, fixture, nodeServer, readExtensionLogs, textOf, waitState } from './mcpHost';

describe('inputs', function () {
  this.timeout(60_000);
  after(async () => {
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await setSetting('mcpHost.inputs', undefined);
    await declareServers(undefined);
  });

  it('asks once with a masked InputBox, passes the value to the server and keeps it out of settings and logs', async () => {
    const secret = `sk-live-${Math.random().toString(36).slice(2)}${Date.now()}`;
    const a = await api();
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await setSetting('mcpHost.inputs', [{ id: 'apiToken', type: 'promptString', description: 'API token for the noisy server', password: true }]);
    let shown = 0;
    const sub = a.testing!.quickInput.onDidShow(() => shown++);
    try {
      const declared = declareServers({ secretive: { ...nodeServer(fixture('noisy')), env: { API_TOKEN: '${input:apiToken}', FIXTURE_STDERR_LINES: '0' } } });
      const box = await waitFor(() => a.testing!.quickInput.active as vscode.InputBox | undefined, 15_000, 'the input box');
      assert.equal(box.password, true, 'masked');
      assert.match(box.prompt ?? '', /API token for the noisy server/);
      box.value = secret;
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await declared;
      const s = a.host.require('secretive');
      await waitState(s, 'running');
      const env = JSON.parse(textOf(await a.callTool('secretive', 'env'))) as Record<string, string>;
      assert.equal(env.API_TOKEN, secret, 'the server received the secret');

      // Restarting does not ask again: the value comes from SecretStorage.
      await vscode.commands.executeCommand('mcpHost.restartServer', 'secretive');
      await waitState(s, 'running');
      assert.equal(shown, 1, 'asked exactly once');

      const config = vscode.workspace.getConfiguration('mcpHost');
      assert.ok(!JSON.stringify([config.inspect('servers'), config.inspect('inputs')]).includes(secret), 'not in settings');
      await new Promise(r => setTimeout(r, 1500)); // log channels flush to disk asynchronously
      const logs = await readExtensionLogs(a);
      assert.ok([...logs.keys()].some(f => f.includes('secretive')), 'the server log was read');
      assert.deepEqual([...logs].filter(([, text]) => text.includes(secret)).map(([f]) => f), [], 'log files containing the secret');
    } finally { sub.dispose(); }
  });
});

/**
 * "Edit Server…" in a real VS Code (issue 33): the form is filled from the declaration, a secret is shown
 * only as a reference and stays in SecretStorage when the server is edited (also when its value changes),
 * the change is shown as a diff before it is written to the scope it came from, and values crafted to
 * break out of the settings JSON are written as data (WorkspaceConfiguration.update, never text edits).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EditServerResult } from '../../src/vscode/onboarding/editServer';
import { setSetting, waitFor } from './helpers';
import { api, declareServers, fixture, nodeServer, textOf, waitState } from './mcpHost';
import { QuickInputDriver } from './quickInputDriver';

const config = () => vscode.workspace.getConfiguration('mcpHost');
const userServers = () => config().inspect<Record<string, Record<string, unknown>>>('servers')?.globalValue ?? {};
const settingsText = () => JSON.stringify([config().inspect('servers'), config().inspect('inputs')]);
const previewText = () => vscode.workspace.textDocuments.filter(d => d.uri.scheme === 'mcphost-edit' && d.uri.path.startsWith('/after/')).map(d => d.getText()).join('\n');

describe('Edit Server…', function () {
  this.timeout(120_000);
  after(async () => {
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await setSetting('mcpHost.inputs', undefined);
    await declareServers(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('editing a server with a secret keeps the secret in secret storage', async () => {
    const first = `sk-first-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const second = `sk-second-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const a = await api();
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await setSetting('mcpHost.inputs', [{ id: 'edited.API_TOKEN', type: 'promptString', description: 'API token of the edited server', password: true }]);
    const server = nodeServer(fixture('noisy'));
    const declared = { ...server, env: { API_TOKEN: '${input:edited.API_TOKEN}', FIXTURE_STDERR_LINES: '0' } };
    const declaring = declareServers({ edited: declared });
    const box = await waitFor(() => a.testing.quickInput.active as vscode.InputBox | undefined, 15_000, 'the input box');
    box.value = first;
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await declaring;
    const s = a.host.require('edited');
    await waitState(s, 'running', 30_000);
    assert.equal((JSON.parse(textOf(await a.callTool('edited', 'env'))) as Record<string, string>).API_TOKEN, first);

    const ui = new QuickInputDriver(a.testing);
    const done = vscode.commands.executeCommand<EditServerResult>('mcpHost.editServer', 'edited');
    const form = await ui.nextPick(/Edit MCP Server "edited"/);
    const described = Object.fromEntries(form.items.map(i => [i.label.replace(/^\$\([\w-]+\) /, ''), i.description]));
    assert.equal(described['Command line'], `${process.execPath} ${server.args[0]}`);
    assert.equal(described['Environment variables'], 'API_TOKEN $(lock), FIXTURE_STDERR_LINES', 'the secret is shown as a secret, never its value');
    assert.ok(!JSON.stringify(form.items).includes(first), 'the stored value is not in the form');
    await ui.chooseIn(form, /^Timeout \(seconds\)$/);
    await ui.type('45', /timeout/);

    await ui.choose(/^Environment variables$/);
    await ui.choose(/^API_TOKEN$/);
    await ui.type('API_TOKEN', /environment variable/);
    const how = await ui.nextPick();
    assert.match(how.activeItems[0].label, /Secret/, 'still a secret');
    await ui.accept();
    const value = await ui.nextBox(/leave empty to keep the stored value/);
    assert.equal(value.password, true);
    assert.equal(value.value, '', 'the stored value is never filled in');
    value.value = second;
    await ui.accept();
    await ui.choose(/Add environment variable/);
    await ui.type('PLAIN_FLAG', /environment variable/);
    await ui.choose(/Plain text/);
    await ui.type('on', /plain text/);
    await ui.choose(/Back to the form/);
    await ui.choose(/Review and save/);

    const save = await ui.nextPick();
    const preview = await waitFor(() => previewText() || undefined, 10_000, 'the diff of the change');
    const after = JSON.parse(preview) as Record<string, Record<string, unknown>>;
    assert.deepEqual(after.edited.env, { API_TOKEN: '${input:edited.API_TOKEN}', FIXTURE_STDERR_LINES: '0', PLAIN_FLAG: 'on' });
    assert.equal(after.edited.timeout, 45);
    assert.ok(!preview.includes(second) && !preview.includes(first), 'no secret in the preview');
    assert.match(save.items[0].label, /Save to User settings/);
    assert.match(save.items[0].detail ?? '', /1 secret value\(s\) go to VS Code's secret storage/);
    await ui.chooseIn(save, /Save to User settings/);
    assert.deepEqual(await done, { status: 'saved', name: 'edited', scope: 'user' });

    assert.deepEqual(userServers().edited, { ...declared, env: { ...declared.env, PLAIN_FLAG: 'on' }, timeout: 45 });
    assert.deepEqual(config().inspect('inputs')?.globalValue, [{ id: 'edited.API_TOKEN', type: 'promptString', description: 'API token of the edited server', password: true }], 'no new input: the id is kept');
    assert.ok(!settingsText().includes(first) && !settingsText().includes(second), 'no secret in settings');
    let asked = 0;
    const sub = a.testing.quickInput.onDidShow(() => asked++);
    try {
      const edited = a.host.require('edited');
      await waitState(edited, 'running', 30_000);
      const env = JSON.parse(textOf(await a.callTool('edited', 'env'))) as Record<string, string>;
      assert.equal(env.API_TOKEN, second, 'the new value came from secret storage');
      assert.equal(env.PLAIN_FLAG, 'on');
      assert.equal(asked, 0, 'nothing was asked again');
    } finally {
      sub.dispose();
    }
  });

  it('ATTACKER: a value crafted to end the settings JSON is written as data, nothing else changes', async () => {
    const a = await api();
    await declareServers({ plain: nodeServer(fixture('crashing')), other: nodeServer(fixture('crashing')) });
    const crafted = '/tmp", "command": "/bin/sh", "x": "\n}, "pwned": { "command": "/bin/sh';
    const ui = new QuickInputDriver(a.testing);
    const done = vscode.commands.executeCommand<EditServerResult>('mcpHost.editServer', 'plain');
    await ui.choose(/^Env file$/, /Edit MCP Server "plain"/);
    await ui.type(crafted, /envFile/);
    await ui.choose(/Review and save/);
    await ui.choose(/Save to User settings/);
    assert.deepEqual(await done, { status: 'saved', name: 'plain', scope: 'user' });
    const servers = userServers();
    assert.deepEqual(Object.keys(servers).sort(), ['other', 'plain'], 'no server was added');
    assert.deepEqual(servers.plain, { ...nodeServer(fixture('crashing')), envFile: crafted.trim() }, 'the value is a string of the one field');
    assert.deepEqual(servers.other, nodeServer(fixture('crashing')));
  });
});

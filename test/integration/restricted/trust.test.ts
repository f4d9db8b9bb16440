/** Workspace Trust: the workspace is untrusted in this run (Restricted Mode). */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, serverItems, waitState } from '../mcpHost';
import { waitFor, workspaceRoot } from '../helpers';

/** Written by the code the fixture workspace plants (node_modules/mcp-host-planted-fixture, mcp_host_planted.py) if it ever runs. */
const markers = () => ['PWNED-npx', 'PWNED-python'].map(name => path.join(workspaceRoot().fsPath, name));
const ranPlantedCode = () => markers().filter(existsSync).map(m => `${path.basename(m)}: ${readFileSync(m, 'utf8').trim()}`);

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

  it('never runs code the workspace planted for user servers declared the README\'s way (npx -y, python3 -m)', async () => {
    const a = await api();
    await a.reload();
    // Each has run to its end once it is in `error` (mcpHost.autoRestart.maxRestarts is 0 here): in the home
    // folder npx finds no such package on the registry and Python no such module. In the workspace folder
    // both would run the planted copy, which writes its marker and exits.
    const settled = () => ['plantedNpx', 'plantedPython'].every(n => a.host.require(n).state === 'error');
    await waitFor(() => ranPlantedCode().length || settled(), 60_000, 'both servers to fail (or the planted code to run)');
    assert.deepEqual(ranPlantedCode(), [], 'the workspace\'s planted code ran');
    assert.doesNotMatch(a.host.require('plantedNpx').message ?? '', /Workspace Trust/, 'a bare npx server is not held back: it runs, in the home folder');
  });

  it('holds a user server that refers to the workspace folder until trust, and shows why', async () => {
    const a = await api();
    await a.reload();
    const conn = a.host.require('fromFolder');
    assert.equal(conn.state, 'stopped');
    assert.equal(conn.needsTrust, true);
    assert.equal(conn.pid, undefined, 'nothing was started');
    const item = (await serverItems(a)).find(i => i.label === 'fromFolder');
    assert.ok(item, 'listed in the Servers view');
    assert.equal(item.contextValue, 'server:stopped:needsTrust');
    assert.match(item.description, /waiting for Workspace Trust/);
    assert.match(item.tooltip, /depends on the workspace folder/);
    // The tooltip is Markdown whose `$`, `{` and `}` are escaped (no codicon, no link from server text).
    assert.match(item.tooltip, /`cwd` uses \\?\$\\?\\\{workspaceFolder\\?\\\}/);
  });

  it('ignores the workspace\'s values of restricted settings (inputs, autoRestart, requestTimeout, prompts.openIn)', () => {
    const c = vscode.workspace.getConfiguration('mcpHost');
    assert.deepEqual(c.get('inputs'), [{ id: 'token', type: 'promptString', description: 'Your token', password: true }], 'mcpHost.inputs (user value)');
    assert.equal(c.get('autoRestart.maxRestarts'), 0, 'mcpHost.autoRestart.maxRestarts (user value)');
    assert.equal(c.get('autoRestart.initialDelay'), 1, 'mcpHost.autoRestart.initialDelay (default)');
    assert.equal(c.get('requestTimeout'), 60, 'mcpHost.requestTimeout (default)');
    assert.equal(c.get('prompts.openIn'), 'editor', 'mcpHost.prompts.openIn (user value)');
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
      // It ran in the home folder while untrusted; trusted, its launch folder is the workspace's (no cwd):
      // it restarts there, so the program its approvals are read for is the one running (issue 28.3).
      await waitFor(() => { const u = a.host.require('fromUser'); return u.state === 'running' && u.pid !== pidBefore; }, 15_000, 'the user server without a cwd to restart in the trusted folder');
      // The user server that waited for trust starts now, in the workspace folder it refers to.
      await waitState(a.host.require('fromFolder'), 'running');
      assert.equal((await serverItems(a)).find(i => i.label === 'fromFolder')?.contextValue, 'server:running');
      // Trusted, the workspace's own values apply: proof that the fixture sets them.
      assert.equal(vscode.workspace.getConfiguration('mcpHost').get('autoRestart.maxRestarts'), 50);
      assert.equal(vscode.workspace.getConfiguration('mcpHost').get('requestTimeout'), 3600);
    } finally {
      rmSync(signal, { force: true });
    }
  });
});

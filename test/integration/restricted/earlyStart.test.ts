/**
 * Servers started while MCP Host loads (src/early.ts): at startup the user's local servers are spawned
 * before the host bundle, with the MCP SDK, is evaluated; in an untrusted workspace never one the
 * workspace declares, nor a user server that refers to the workspace folder. This run's settings exist
 * before VS Code starts (test/integration/runs.mjs, 'restricted'), as a user's do.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, waitState } from '../mcpHost';

describe('servers started while MCP Host loads', function () {
  this.timeout(60_000);

  it('spawns the user servers before the host bundle is evaluated, never the untrusted workspace\'s, and the host runs those processes', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the run opens the folder untrusted');
    const a = await api();
    const { early, hostLoadStart } = a.startup;
    assert.ok(early, 'the early bundle ran');
    assert.ok(hostLoadStart !== undefined, 'the host bundle reports when its evaluation began');
    // fromWorkspace is the workspace's (untrusted); fromFolder uses ${workspaceFolder} (waits for trust);
    // guarded, excluded and pushy are the user's servers of hostileSettings.test.ts.
    assert.deepEqual(early.map(s => s.server).sort(), ['excluded', 'fromUser', 'guarded', 'plantedNpx', 'plantedPython', 'pushy']);
    for (const s of early) assert.ok(s.at < hostLoadStart, `${s.server} spawned at ${s.at.toFixed(1)} ms, after the host bundle began evaluating (${hostLoadStart.toFixed(1)} ms)`);
    const fromUser = a.host.require('fromUser');
    await waitState(fromUser, 'running');
    assert.equal(fromUser.pid, early.find(s => s.server === 'fromUser')?.pid, 'the host runs the process started early');
    assert.equal(a.host.get('fromWorkspace'), undefined);
    assert.equal(a.host.require('fromFolder').pid, undefined, 'nothing was started for the server waiting for trust');
  });
});

/**
 * Restricted Mode half of "a workspace narrows the user's settings, never widens them" (the trusted half is
 * test/integration/workspaceSettings.test.ts): the opened folder's .vscode/settings.json tries to lift the
 * user's choices. This file sorts before trust.test.ts, whose last test grants trust.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from '../mcpHost';
import { checkChoicesHold, checkEveryValue } from '../workspaceSettingsChecks';

describe('an untrusted workspace narrows the user\'s settings, never widens them', function () {
  this.timeout(90_000);

  it('reads every mcpHost setting by its rule in Restricted Mode', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the run opens the folder untrusted');
    checkEveryValue(false);
  });

  it('a disabled tool, an excluded server and an app-only tool stay refused to models and other extensions; the workspace approves nothing', async () => {
    const a = await api();
    await a.reload();
    await checkChoicesHold(a);
  });
});

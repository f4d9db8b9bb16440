/**
 * Issue 28.3, first half (the second is trustLaunchFolder.test.ts, after trust.test.ts grants trust): an
 * approval of a user server that runs in the launch folder (no absolute `cwd`) belongs to that folder. In
 * Restricted Mode it runs in the home folder; once the workspace is trusted it runs in the workspace
 * folder, where `npx pkg` or `python -m mod` would load the repository's code: the approval given here
 * must not carry over. Sorts before trust.test.ts, whose last test grants trust.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeToolText } from '../helpers';
import { choose, nextPrompt } from '../consentDriver';
import { api, waitState } from '../mcpHost';

export const FROM_USER_PROMPT = /^MCP server "fromUser" wants to run tool "echo"$/;

describe('an approval given in Restricted Mode belongs to the folder the server ran in (issue 28.3)', function () {
  this.timeout(60_000);

  it('"always allow every tool" of a user server without a cwd, given in Restricted Mode, runs it unasked there', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the run opens the folder untrusted');
    const a = await api();
    await a.reload();
    await waitState(a.host.require('fromUser'), 'running');
    const call = invokeToolText('mcpHost_callTool', { server: 'fromUser', tool: 'echo', arguments: { text: 'approved untrusted' } });
    await choose(await nextPrompt(a, FROM_USER_PROMPT), /Always allow every tool from "fromUser"/);
    assert.match(await call, /approved untrusted/);
    assert.match(await invokeToolText('mcpHost_callTool', { server: 'fromUser', tool: 'echo', arguments: { text: 'again, unasked' } }), /again, unasked/,
      'approved: no prompt while the launch folder is the same');
  });
});

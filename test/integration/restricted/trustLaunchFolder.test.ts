/**
 * Issue 28.3, second half (the first is launchFolderApproval.test.ts): trust has been granted
 * (trust.test.ts), so the user server without a `cwd` now runs in the workspace folder, a different program
 * for the approvals: the "always" given in Restricted Mode does not carry into the trusted window.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeToolText } from '../helpers';
import { choose, nextPrompt } from '../consentDriver';
import { api, waitState } from '../mcpHost';
import { FROM_USER_PROMPT } from './launchFolderApproval.test';

describe('an approval given in Restricted Mode does not carry into the trusted window (issue 28.3)', function () {
  this.timeout(60_000);

  it('ATTACKER: once the cloned repository is trusted, the same user server\'s tool asks again', async () => {
    assert.equal(vscode.workspace.isTrusted, true, 'trust.test.ts granted trust');
    const a = await api();
    await waitState(a.host.require('fromUser'), 'running');
    const call = invokeToolText('mcpHost_callTool', { server: 'fromUser', tool: 'echo', arguments: { text: 'should ask' } });
    await choose(await nextPrompt(a, FROM_USER_PROMPT), /Deny/);
    assert.match(await call, /denied/i);
  });
});

/**
 * Issue 30 item 7: another extension that activates MCP Host and calls `listServers()` at once (the
 * fixture test/fixtures/api-first-call, activated at startup before MCP Host) gets the servers the
 * settings declare (this run's settings in test/integration/runs.mjs), not [] while the host bundle loads,
 * and leaves out the disabled one, as the host's own list does.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../helpers';

interface Summary { name: string; state: string; transport: string }

describe('the API right after activation (issue 30 item 7)', function () {
  this.timeout(60_000);

  it('the first listServers() after activate() lists the declared servers, then the host\'s list follows with onDidChangeServers', async () => {
    const r = await waitFor(async () => {
      const v = await vscode.commands.executeCommand<{ first?: Summary[]; afterChange?: Summary[]; error?: string }>('mcpHostTest.firstCall.result');
      return v && (v.error || v.afterChange) ? v : undefined;
    }, 30_000, 'the fixture extension\'s first call and the first change');
    assert.equal(r.error, undefined);
    assert.deepEqual(r.first, [
      { name: 'everything', state: 'starting', transport: 'stdio' },
      { name: 'remote', state: 'starting', transport: 'http' },
    ]);
    // A disabled server is in no list of the API, before the host has loaded and after (issue 28's one rule).
    assert.deepEqual(r.afterChange?.map(s => s.name), ['everything', 'remote']);
  });
});

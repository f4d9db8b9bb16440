/**
 * Issue 30 item 7: another extension that activates MCP Host and calls `listServers()` at once (the
 * fixture test/fixtures/api-first-call, activated at startup before MCP Host) gets the servers the
 * settings declare (this run's settings in test/integration/runs.mjs), not [] while the host bundle loads,
 * as the host's own list has them (the disabled one `stopped`).
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
      { name: 'paused', state: 'stopped', transport: 'stdio' },
      { name: 'remote', state: 'starting', transport: 'http' },
    ]);
    assert.deepEqual(r.afterChange?.map(s => s.name), ['everything', 'paused', 'remote']);
    assert.equal(r.afterChange?.find(s => s.name === 'paused')?.state, 'stopped');
  });
});

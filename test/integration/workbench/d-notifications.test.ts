/**
 * The error notification of a failing server, answered by a person (test/ui-workbench/d-notifications.test.mjs
 * clicks its "Show Log" button; the Output view must then show that server's channel with the failure).
 */
import * as assert from 'node:assert/strict';
import { setSetting } from '../helpers';
import { declareServers, waitState } from '../mcpHost';
import { uiStep } from './bridge';

describe('error notification of a server', function () {
  this.timeout(180_000);
  after(async () => {
    await declareServers(undefined);
    await setSetting('mcpHost.autoRestart.maxRestarts', undefined);
  });

  it('"Show Log" opens the server\'s output channel', async () => {
    await setSetting('mcpHost.autoRestart.maxRestarts', 0);
    const a = await declareServers({ broken: { command: process.execPath, args: ['-e', 'process.stderr.write("broken-server-marker\\n"); process.exit(3)'] } });
    await waitState(a.host.require('broken'), 'error', 20_000);
    const result = (await uiStep('show-log', { server: 'broken' }, 120_000)) as { error?: string; channel?: string };
    assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
    assert.equal(result.channel, 'MCP: broken');
  });
});

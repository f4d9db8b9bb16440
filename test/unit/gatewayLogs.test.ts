/**
 * A server's own log through the gateway (issue 31): its `notifications/message` reach the gateway's
 * client as the server's log gate admitted them — cleaned to one line, cut, behind the server's tag —
 * and at the level the client set with `logging/setLevel` (fixture `noisy.ts`'s `log` tool).
 */
import * as assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { hasHiddenCharacters, startGateway, type Gateway, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger, waitFor } from './helpers';

const WINDOW = { id: 'window-1', label: 'VS Code window', kind: 'window' as const };

describe('gateway: a server\'s log reaches the client, cleaned and bounded', function () {
  this.timeout(60_000);
  let host: McpHost;
  let gateway: Gateway;
  let client: Client;
  const got: { level: string; data: unknown }[] = [];

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({ noisy: node(fixtureServer('noisy')) });
    await waitFor(() => host.get('noisy')?.tool('log'), 'the tools');
    gateway = await startGateway({ host, logger: new RecordingLogger() });
    client = await connect(gateway.endpoint('noisy', WINDOW));
    client.setNotificationHandler('notifications/message', n => { got.push({ level: n.params.level, data: n.params.data }); });
  });
  after(async () => { await client.close().catch(() => undefined); gateway.dispose(); await host.shutdown(); });

  it('forwards the server\'s log lines cleaned and cut, and honours the client\'s logging/setLevel', async () => {
    await client.callTool({ name: 'log', arguments: { level: 'warning', logger: 'db\u202e', message: `\u001b[31mdisk\u200b low\u0007\nsecond line ${'x'.repeat(50_000)}` } });
    await waitFor(() => got.length >= 2, 'the forwarded lines');
    const lines = got.map(g => String(g.data));
    assert.equal(got[0].level, 'warning');
    assert.equal(lines[0], '[db] disk low');
    assert.match(lines[1], /^\[db\] second line x+/);
    assert.ok(lines[1].length < 9_000, `cut as the log gate cuts it: ${lines[1].length}`);
    for (const l of lines) assert.equal(hasHiddenCharacters(l), false);
    await client.setLoggingLevel('error');
    got.length = 0;
    await client.callTool({ name: 'log', arguments: { level: 'warning', message: 'below the client level' } });
    await client.callTool({ name: 'log', arguments: { level: 'error', message: 'at the client level' } });
    await waitFor(() => got.length >= 1, 'the error line');
    await new Promise(r => setTimeout(r, 300));
    assert.deepEqual(got.map(g => String(g.data)), ['[noisy] at the client level']);
  });
});

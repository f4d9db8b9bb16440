/**
 * Attacker test: a hostile server's instructions through the gateway. VS Code's client (and a terminal
 * agent) put a server's `instructions` in front of the model, so the gateway gives them as @mcp and the
 * API do: not at all for a server the user excluded from chat, and otherwise cleaned of what a person
 * reading them cannot see (bidi override, terminal escape, zero-width) and within the per-server cap.
 */
import * as assert from 'node:assert/strict';
import { MAX_INSTRUCTIONS_PER_SERVER, startGateway, type Gateway, type GatewayPolicy, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger, waitFor } from './helpers';

const WINDOW = { id: 'window-i', label: 'Window I', kind: 'window' as const };

describe('gateway instructions (attacker tests)', function () {
  this.timeout(60_000);
  let host: McpHost;
  let gateway: Gateway;
  let policy: GatewayPolicy = { disabledTools: [], excludedServers: [] };

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({ flood: node(fixtureServer('bulky')) });
    await waitFor(() => host.get('flood')?.state === 'running', 'the hostile server to run');
    gateway = await startGateway({ host, logger: new RecordingLogger(), policy: () => policy, approve: async () => true });
  });
  after(async () => { gateway.dispose(); await host.shutdown(); });

  it('gives no instructions of a server the user excluded from chat', async () => {
    policy = { disabledTools: [], excludedServers: ['flood'] };
    const c = await connect(gateway.endpoint('flood', WINDOW));
    try {
      assert.equal((await c.listTools()).tools.length, 0, 'its tools are not offered');
      const said = c.getInstructions();
      assert.ok(said === undefined, `an excluded server still spoke to the model through its instructions: ${said?.slice(0, 60)}…`);
    } finally { await c.close(); policy = { disabledTools: [], excludedServers: [] }; }
  });

  it('gives a server\'s instructions without hidden characters and within the per-server cap', async () => {
    const c = await connect(gateway.endpoint('flood', WINDOW));
    try {
      const text = c.getInstructions() ?? '';
      assert.match(text, /FLOOD-INSTRUCTIONS/, 'the visible instructions go through');
      assert.doesNotMatch(text, /[\u202e\u001b\u200b]/, 'hidden characters reached the model');
      assert.ok(text.length <= MAX_INSTRUCTIONS_PER_SERVER, `instructions of ${text.length} characters, over the cap @mcp applies`);
    } finally { await c.close(); }
  });
});

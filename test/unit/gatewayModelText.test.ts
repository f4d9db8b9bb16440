/**
 * Attacker test: a hostile server's text goes out through the gateway to VS Code's chat or a terminal
 * agent — both put it before a model — cleaned as @mcp cleans it (SECURITY.md §16, §21): no variation
 * selector payload, bidi control or escape, and no bracket that closes or forges a host block, in any
 * tool description, parameter, result, resource content or prompt message. The visible text stays.
 */
import * as assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { startGateway, type Gateway, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger } from './helpers';

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\x00-\x08\x0b-\x1f\x7f-\x9f]/u;
const HOST_TAG = /[<\uFF1C]\s*\/?\s*mcp-/i;

/** Every string in a value, with the path it was found at (names and URIs included: they must be clean too here). */
function strings(value: unknown, at = '$'): [string, string][] {
  if (typeof value === 'string') return [[at, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => strings(v, `${at}.${k}`));
}

function assertClean(what: string, value: unknown): void {
  const all = strings(value);
  assert.ok(all.some(([, s]) => s.includes('VISIBLE sunny')), `${what}: the visible text is kept`);
  for (const [at, s] of all) {
    assert.ok(!INVISIBLE.test(s), `${what} ${at} keeps an invisible or control character: ${JSON.stringify(s)}`);
    assert.ok(!HOST_TAG.test(s), `${what} ${at} can open or close a host block: ${JSON.stringify(s)}`);
  }
}

describe('gateway results are cleaned for the client\'s model (attacker tests)', function () {
  this.timeout(60_000);
  let host: McpHost;
  let gateway: Gateway;
  const clients: Client[] = [];

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({ hidden: node(fixtureServer('hiddenText')) });
    gateway = await startGateway({ host, logger: new RecordingLogger(), approve: async () => true });
  });
  after(async () => {
    await Promise.all(clients.map(c => c.close().catch(() => undefined)));
    gateway.dispose();
    await host.shutdown();
  });

  for (const kind of ['window', 'agent'] as const) {
    it(`a ${kind === 'window' ? 'VS Code window' : 'terminal agent'} gets no hidden text or forged tag from any catalogue, result, resource or prompt`, async () => {
      let c: Client;
      if (kind === 'window') c = await connect(gateway.endpoint('hidden', { id: 'window-clean', label: 'Window', kind: 'window' }));
      else {
        const agent = gateway.issueAgentToken('Codex', ['hidden']);
        c = await connect({ url: `${agent.url}hidden`, headers: { Authorization: `Bearer ${agent.token}` } });
      }
      clients.push(c);
      assertClean('tools/list', await c.listTools());
      assertClean('tools/call', await c.callTool({ name: 'report', arguments: { city: 'Oslo' } }));
      assertClean('resources/list', await c.listResources());
      assertClean('resources/templates/list', await c.listResourceTemplates());
      assertClean('resources/read', await c.readResource({ uri: 'hidden://note' }));
      assertClean('prompts/list', await c.listPrompts());
      assertClean('prompts/get', await c.getPrompt({ name: 'brief', arguments: { topic: 'x' } }));
    });
  }
});

/**
 * Protocol eras: the core against a server built on the SDK 2.x server package
 * (test/fixtures/servers/era2026.ts), which speaks 2026-07-28 and 2025-11-25. Elicitation, sampling
 * and roots reach the same ports whether they arrive as `input_required` rounds (2026-07-28) or as
 * server→client requests (2025-11-25); the declaration's `protocol` pins the era.
 */
import * as assert from 'node:assert/strict';
import type { ElicitationHandler, SamplingHandler } from '../../src/core';
import { completeByDefault } from '../../src/core/connection/tracingTransport';
import { createTestHost, fixtureServer, node, text, waitFor } from './helpers';

describe('protocol eras (2026-07-28 and 2025-11-25)', function () {
  this.timeout(30_000);

  function eraHost() {
    const asked: string[] = [];
    const elicitation: ElicitationHandler = async (server, params) => {
      asked.push(`elicitation:${server.name}:${params.message}`);
      return { action: 'accept', content: { name: 'Ada' } };
    };
    const sampling: SamplingHandler = async (server, params) => {
      asked.push(`sampling:${server.name}:${JSON.stringify(params.messages[0]?.content)}`);
      return { role: 'assistant', model: 'scripted', content: { type: 'text', text: 'short' } };
    };
    return { asked, ...createTestHost({ elicitation, sampling }) };
  }

  for (const [protocol, expected] of [[undefined, '2026-07-28'], ['2026-07-28', '2026-07-28'], ['2025-11-25', '2025-11-25']] as const) {
    it(`"protocol": ${protocol ?? '(auto)'} negotiates ${expected}; elicitation and sampling reach the same ports; a subscription hears of changes`, async () => {
      const { host, asked } = eraHost();
      try {
        await host.apply({ era: { ...node(fixtureServer('era2026')), ...(protocol ? { protocol } : {}) } });
        const s = host.require('era');
        assert.equal(s.state, 'running', s.message);
        assert.equal(s.protocolVersion, expected);
        assert.equal(text(await s.callTool('era', {})), expected === '2026-07-28' ? '2026-07-28' : 'legacy');
        assert.equal(text(await s.callTool('greet', {})), 'Hello, Ada!');
        assert.equal(text(await s.callTool('summarize', { text: 'a long story' })), 'SUMMARY short');
        assert.deepEqual(asked, ['elicitation:era:What is your name?', 'sampling:era:{"type":"text","text":"Summarize: a long story"}']);

        // A subscription (subscriptions/listen on 2026-07-28, resources/subscribe before) hears of a change.
        const updated: string[] = [];
        const listener = s.onDidUpdateResource(uri => updated.push(uri));
        try {
          await s.subscribe('era://counter');
          assert.equal(text(await s.callTool('bump', {})), 'count 1');
          await waitFor(() => updated.includes('era://counter'), 'notifications/resources/updated for era://counter');
        } finally { listener.dispose(); }
      } finally { await host.shutdown(); }
    });
  }

  it('2026-07-28: a URL elicitation arrives as an input_required round without an elicitationId (no completion notification on that era); the answer goes back with the retried call', async () => {
    const seen: unknown[] = [];
    const { host } = createTestHost({ elicitation: async (_server, params) => { seen.push(params); return { action: 'accept' }; } });
    try {
      await host.apply({ era: node(fixtureServer('era2026')) });
      const s = host.require('era');
      assert.equal(text(await s.callTool('visit', { url: 'https://pay.example/confirm' })), 'VISITED accept');
      assert.deepEqual(seen, [{ mode: 'url', message: 'Confirm the payment in your browser.', url: 'https://pay.example/confirm' }]);
    } finally { await host.shutdown(); }
  });

  // Conformance sep-2322-client-request-state (check sep-2322-default-result-type-complete).
  it('a 2026-07-28 result without resultType is complete (spec: clients MUST treat an absent resultType as "complete"); an unknown one stays invalid', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ bare: node(fixtureServer('noResultType')) });
      const s = host.require('bare');
      assert.equal(s.state, 'running', s.message);
      assert.equal(s.protocolVersion, '2026-07-28');
      assert.equal(text(await s.callTool('plain', {})), 'no-result-type');
      await assert.rejects(s.callTool('odd', {}), /mystery|resultType/i);
    } finally { await host.shutdown(); }
  });

  it('only a result object lacking resultType gains "complete"; nothing else of any message changes', () => {
    const plain = { jsonrpc: '2.0' as const, id: 7, result: { content: [{ type: 'text', text: 'x' }], isError: false, _meta: { a: 1 } } };
    assert.deepEqual(completeByDefault(plain), { ...plain, result: { ...plain.result, resultType: 'complete' } });
    assert.equal(plain.result.hasOwnProperty('resultType'), false, 'the original message is not mutated');
    const interim = { jsonrpc: '2.0' as const, id: 8, result: { resultType: 'input_required', requestState: 's' } };
    assert.equal(completeByDefault(interim), interim);
    const error = { jsonrpc: '2.0' as const, id: 9, error: { code: -1, message: 'no' } };
    assert.equal(completeByDefault(error), error);
    const notAnObject = { jsonrpc: '2.0' as const, id: 10, result: ['not', 'an', 'object'] } as never;
    assert.equal(completeByDefault(notAnObject), notAnObject);
  });
});

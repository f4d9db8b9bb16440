/**
 * The result gate in the gateway (native route, issue 31): a result is held until the embedder's
 * review answers; blocked, unanswered in time or failed, the client gets the fixed message only —
 * nothing of what the tool returned (fixture `injecting.ts`: an open-world tool returning a prompt
 * injection), to a window and to an agent, in both protocol eras' clients.
 */
import * as assert from 'node:assert/strict';
import type { Client, Tool } from '@modelcontextprotocol/client';
import { BLOCKED_RESULT, startGateway, type Gateway, type GatewayCall, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger, waitFor } from './helpers';

const WINDOW = { id: 'window-1', label: 'VS Code window', kind: 'window' as const };
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).map(c => c.text ?? `[${c.type}]`).join('\n');

describe('gateway: the result gate holds a result until the user answers', function () {
  this.timeout(60_000);
  let host: McpHost;
  let gateway: Gateway;
  let review: (call: GatewayCall, tool: Tool | undefined, text: string, signal: AbortSignal) => Promise<boolean>;
  const reviewed: { call: GatewayCall; tool?: Tool; text: string; signal: AbortSignal }[] = [];
  const clients: Client[] = [];

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({ pages: node(fixtureServer('injecting')) });
    await waitFor(() => host.get('pages')?.tool('fetch_page'), 'the tools');
    gateway = await startGateway({
      host, logger: new RecordingLogger(), reviewTimeoutMs: 1_500,
      approve: async () => true,
      reviewResult: (call, tool, text, signal) => { reviewed.push({ call, tool, text, signal }); return review(call, tool, text, signal); },
    });
  });
  beforeEach(() => { reviewed.length = 0; });
  afterEach(async () => { await Promise.all(clients.splice(0).map(c => c.close().catch(() => undefined))); });
  after(async () => { gateway.dispose(); await host.shutdown(); });
  const open = async (who = WINDOW) => { const c = await connect(gateway.endpoint('pages', who)); clients.push(c); return c; };

  it('a blocked result of an open-world tool never reaches the client: it gets the fixed message', async () => {
    review = async () => false;
    const r = await open().then(c => c.callTool({ name: 'fetch_page', arguments: { url: 'https://example.com' } }));
    assert.equal(reviewed.length, 1, 'reviewed once');
    assert.match(reviewed[0].text, /IGNORE ALL PREVIOUS INSTRUCTIONS/, 'the user was shown the result');
    assert.equal(reviewed[0].tool?.annotations?.openWorldHint, true, 'with the tool it came from');
    assert.equal(r.isError, true);
    assert.equal(textOf(r), BLOCKED_RESULT);
    assert.doesNotMatch(JSON.stringify(r), /IGNORE|attacker|id_rsa|Page https/);
  });

  it('an allowed result goes through, held until the answer', async () => {
    let answer!: (ok: boolean) => void;
    review = () => new Promise(resolve => { answer = resolve; });
    let done = false;
    const pending = open().then(c => c.callTool({ name: 'fetch_page', arguments: { url: 'https://example.com' } })).finally(() => { done = true; });
    await waitFor(() => reviewed.length === 1, 'the review');
    await new Promise(r => setTimeout(r, 200));
    assert.equal(done, false, 'the client waits for the user');
    answer(true);
    assert.match(textOf(await pending), /Page https:\/\/example.com/);
  });

  it('a review nobody answers is blocked after the timeout, and its prompt is told to close', async () => {
    review = () => new Promise(() => undefined);
    const agent = gateway.issueAgentToken('Claude Code', ['pages']);
    const c = await connect({ url: `${agent.url}pages`, headers: { Authorization: `Bearer ${agent.token}` } });
    clients.push(c);
    const r = await c.callTool({ name: 'fetch_page', arguments: { url: 'https://example.com' } });
    assert.equal(reviewed[0].call.client.kind, 'agent', 'an agent\'s results are gated too');
    assert.equal(textOf(r), BLOCKED_RESULT);
    assert.equal(reviewed[0].signal.aborted, true);
  });

  it('a review that fails blocks', async () => {
    review = async () => { throw new Error('the window closed'); };
    const r = await open().then(c => c.callTool({ name: 'fetch_page', arguments: { url: 'https://example.com' } }));
    assert.equal(textOf(r), BLOCKED_RESULT);
  });
});

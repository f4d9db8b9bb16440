/** The gateway serves MCP Host's servers as native MCP servers over real HTTP, to SDK clients of both eras. */
import * as assert from 'node:assert/strict';
import type { Client, VersionNegotiationOptions } from '@modelcontextprotocol/client';
import { startGateway, type Gateway, type GatewayCall, type GatewayPolicy, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger, waitFor } from './helpers';

const WINDOW = { id: 'window-1', label: 'VS Code window', kind: 'window' as const };

const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).filter(c => c.type === 'text').map(c => c.text).join('\n');

describe('gateway', function () {
  this.timeout(60_000);
  let host: McpHost;
  let gateway: Gateway;
  let logger: RecordingLogger;
  let policy: GatewayPolicy;
  let approvals: GatewayCall[];
  let allow: boolean;
  const clients: Client[] = [];

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({
      echo: node(fixtureServer('crashing')),
      changing: node(fixtureServer('changing')),
      hanging: node(fixtureServer('hanging')),
      modern: { ...node(fixtureServer('era2026')), protocol: '2026-07-28' },
      bulky: node(fixtureServer('bulky')),
    });
    logger = new RecordingLogger();
    gateway = await startGateway({
      host, logger,
      policy: () => policy,
      approve: async call => { approvals.push(call); return allow; },
    });
  });
  beforeEach(() => { policy = { disabledTools: [], excludedServers: [] }; approvals = []; allow = true; });
  afterEach(async () => { await Promise.all(clients.splice(0).map(c => c.close().catch(() => undefined))); });
  after(async () => { gateway.dispose(); await host.shutdown(); });

  const open = async (server: string, negotiation?: VersionNegotiationOptions, who = WINDOW) => {
    const c = await connect(gateway.endpoint(server, who), negotiation);
    clients.push(c);
    return c;
  };

  it('serves a server\'s tools and calls them through the host\'s connection (2025-11-25 client)', async () => {
    const c = await open('echo');
    const { tools } = await c.listTools();
    assert.ok(tools.some(t => t.name === 'echo'));
    const r = await c.callTool({ name: 'echo', arguments: { text: 'through the gateway' } });
    assert.match(textOf(r), /through the gateway/);
    assert.equal(approvals.length, 0, 'a window client is not asked again: VS Code confirms the call itself');
  });

  it('serves a 2026-07-28-only server to a 2025-11-25 client, and to a 2026-07-28 client', async () => {
    const legacy = await open('modern');
    assert.match(textOf(await legacy.callTool({ name: 'era', arguments: {} })), /2026-07-28/);
    const modern = await open('modern', { mode: { pin: '2026-07-28' } });
    assert.ok((await modern.listTools()).tools.some(t => t.name === 'bump'));
    assert.match(textOf(await modern.callTool({ name: 'era', arguments: {} })), /2026-07-28/);
  });

  it('forwards list_changed from the real server to the client', async () => {
    const c = await open('changing');
    let changed = 0;
    c.setNotificationHandler('notifications/tools/list_changed', () => { changed++; });
    // The listening stream is opened after initialization; give the call a moment to be the first thing on it.
    await waitFor(async () => (await c.listTools()).tools.length > 0, 'tools');
    await c.callTool({ name: 'add-tool', arguments: { name: 'fresh' } });
    await waitFor(() => changed > 0, 'tools/list_changed through the gateway');
    await waitFor(async () => (await c.listTools()).tools.some(t => t.name === 'fresh'), 'the new tool listed');
  });

  it('passes progress through and cancels the real call when the client cancels', async () => {
    const c = await open('hanging');
    const seen: number[] = [];
    const r = await c.callTool({ name: 'slow', arguments: { ms: 400, progressEvery: 50 } }, { onprogress: p => seen.push(p.progress) });
    assert.ok(!r.isError, textOf(r));
    assert.ok(seen.length > 0, 'progress notifications reached the client');
    const abort = new AbortController();
    const call = c.callTool({ name: 'hang', arguments: {} }, { signal: abort.signal });
    setTimeout(() => abort.abort(), 200);
    await assert.rejects(call);
    await waitFor(async () => (JSON.parse(textOf(await c.callTool({ name: 'cancelled-count', arguments: {} }))) as { hangCancelled: number }).hangCancelled > 0, 'the real server saw the cancellation');
  });

  it('applies disabled tools and excluded servers as the chat does', async () => {
    const c = await open('echo');
    policy = { disabledTools: ['echo/echo'], excludedServers: [] };
    assert.ok(!(await c.listTools()).tools.some(t => t.name === 'echo'));
    const r = await c.callTool({ name: 'echo', arguments: { text: 'x' } });
    assert.ok(r.isError);
    assert.match(textOf(r), /disabled the tool "echo"/);
    policy = { disabledTools: [], excludedServers: ['echo'] };
    assert.deepEqual((await c.listTools()).tools, []);
    assert.match(textOf(await c.callTool({ name: 'pid', arguments: {} })), /excluded the MCP server "echo"/);
  });

  it('keeps a result over the budget and hands the client its start', async () => {
    const c = await open('bulky');
    policy = { disabledTools: [], excludedServers: [], maxResultTokens: 200 };
    const r = await c.callTool({ name: 'flood', arguments: { chars: 20_000 } });
    const text = textOf(r);
    assert.ok(text.length < 2_000, `cut to the budget (${text.length})`);
    const uri = /(mcp-result:\/[0-9a-f]{32}\/\S+\.txt)/.exec(text)?.[1];
    assert.ok(uri, text.slice(0, 300));
    const read = await c.readResource({ uri });
    assert.match(String((read.contents[0] as { text: string }).text), /FLOOD-END/);
  });

  it('answers at once with the host\'s message for a stopped server', async () => {
    const c = await open('echo');
    await host.require('echo').stop();
    try {
      assert.deepEqual((await c.listTools()).tools, []);
      const r = await c.callTool({ name: 'echo', arguments: { text: 'x' } });
      assert.ok(r.isError);
      assert.match(textOf(r), /stopped/);
    } finally { await host.require('echo').start(); }
  });

  it('asks the host for an agent\'s call, and refuses it when the user says no', async () => {
    const agent = gateway.issueAgentToken('Claude Code', ['echo']);
    const endpoint = { url: `${agent.url}echo`, headers: { Authorization: `Bearer ${agent.token}` } };
    const c = await connect(endpoint);
    clients.push(c);
    const r = await c.callTool({ name: 'echo', arguments: { text: 'agent' } });
    assert.match(textOf(r), /agent/);
    assert.deepEqual(approvals.map(a => [a.client.kind, a.server, a.tool]), [['agent', 'echo', 'echo']], 'asked exactly once');
    allow = false;
    const denied = await c.callTool({ name: 'echo', arguments: { text: 'nope' } });
    assert.ok(denied.isError);
    assert.match(textOf(denied), /did not allow/);
    assert.equal(approvals.length, 2);
    assert.deepEqual(gateway.agents.find(a => a.id === agent.id)?.lastCall?.tool, 'echo');
    gateway.revoke(agent.id);
  });

  it('refuses every agent call when the embedder gave no approver (consent defaults to no)', async () => {
    const strict = await startGateway({ host, logger: new RecordingLogger() });
    try {
      const agent = strict.issueAgentToken('Copilot CLI', ['echo']);
      const c = await connect({ url: `${agent.url}echo`, headers: { Authorization: `Bearer ${agent.token}` } });
      clients.push(c);
      const r = await c.callTool({ name: 'echo', arguments: { text: 'unasked' } });
      assert.ok(r.isError);
      assert.match(textOf(r), /did not allow Copilot CLI/);
      assert.equal(strict.agents[0].lastCall, undefined, 'nothing ran');
    } finally { strict.dispose(); }
  });
});

/**
 * What one server's lists weigh for a gateway client (listBounds.ts), against a hostile catalogue: 20,000
 * tools, megabyte descriptions, a schema of thousands of properties. Measured against a small server in
 * the same test: the big one's list may not weigh more, and the tools left out stay reachable through
 * find_tools and call_tool, whose calls MCP Host's consent asks about by the real tool's name.
 */
import * as assert from 'node:assert/strict';
import type { Client, Tool } from '@modelcontextprotocol/client';
import { startGateway, type Gateway, type GatewayCall, type GatewayPolicy, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger, waitFor } from './helpers';

const WINDOW = { id: 'window-1', label: 'VS Code window', kind: 'window' as const };
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).filter(c => c.type === 'text').map(c => c.text).join('\n');
const SMALL_TOOLS = 98;

describe('gateway list bounds (attacker: a server of 20,000 tools and megabyte descriptions)', function () {
  this.timeout(120_000);
  let host: McpHost;
  let gateway: Gateway;
  let policy: GatewayPolicy;
  let agentCalls: GatewayCall[];
  let windowCalls: GatewayCall[];
  let allow: boolean;
  const clients: Client[] = [];

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({
      small: { ...node(fixtureServer('paginated')), env: { FIXTURE_TOOLS: String(SMALL_TOOLS), FIXTURE_PAGE_SIZE: '50', FIXTURE_SPECIAL_TOOLS: '0' } },
      huge: { ...node(fixtureServer('paginated')), env: { FIXTURE_TOOLS: '20000', FIXTURE_PAGE_SIZE: '2000', FIXTURE_BIG_DESCRIPTIONS: '4', FIXTURE_SPECIAL_TOOLS: '0' } },
    });
    await waitFor(() => host.get('huge')?.catalog.get('tools').length === 20_000, 'the host to list all 20,000 tools', 90_000);
    gateway = await startGateway({
      host, logger: new RecordingLogger(), policy: () => policy,
      approve: async call => { agentCalls.push(call); return allow; },
      windowConsent: async call => { windowCalls.push(call); return allow; },
    });
  });
  beforeEach(() => { policy = { disabledTools: [], excludedServers: [] }; agentCalls = []; windowCalls = []; allow = true; });
  afterEach(async () => { await Promise.all(clients.splice(0).map(c => c.close().catch(() => undefined))); });
  after(async () => { gateway?.dispose(); await host.shutdown(); });

  const open = async (server: string, who: { id: string; label: string; kind: 'window' | 'agent' } = WINDOW) => {
    const c = await connect(gateway.endpoint(server, who));
    clients.push(c);
    return c;
  };
  const list = async (server: string) => {
    const { tools } = await (await open(server)).listTools();
    return { tools, chars: JSON.stringify(tools).length };
  };

  it('lists no more of the huge server than of a small one, says so, and cuts what a client is given', async () => {
    const small = await list('small');
    const huge = await list('huge');
    assert.equal(small.tools.length, SMALL_TOOLS, 'a small server is listed whole');
    assert.ok(huge.tools.length <= small.tools.length + 2, `${huge.tools.length} tools listed`);
    assert.ok(huge.chars <= 2 * small.chars, `the huge server's list is ${huge.chars} characters, the small one's ${small.chars}`);
    const find = huge.tools.find(t => t.name === 'find_tools')!;
    assert.match(find.description ?? '', /has 20000 tools; 98 are listed here and 19902 are not/);
    assert.ok(huge.tools.some(t => t.name === 'call_tool'));
    assert.ok(!huge.tools.some(t => t.name === 'tool-1'), 'the tool whose schema is too large is not listed');
    assert.ok(huge.tools.some(t => t.name === 'tool-0'), 'a tool with a megabyte description is listed, cut');
  });

  it('find_tools finds a tool that is not listed, and call_tool runs it once MCP Host\'s consent said yes, naming it', async () => {
    const c = await open('huge');
    const found = textOf(await c.callTool({ name: 'find_tools', arguments: { query: 'tool-17345' } }));
    assert.match(found, /"name": "tool-17345"/);
    const r = await c.callTool({ name: 'call_tool', arguments: { name: 'tool-17345', arguments: { text: 'deep' } } });
    assert.equal(r.isError, undefined, textOf(r));
    assert.match(textOf(r), /"text":"deep"/);
    assert.deepEqual(windowCalls.map(x => [x.tool, x.relayed]), [['tool-17345', true]], 'asked once, for the real tool, as not confirmed by the client');
  });

  it('call_tool runs nothing the user refused, disabled, or that the server does not have', async () => {
    const agent = await open('huge', { id: 'agent-1', label: 'Claude Code', kind: 'agent' });
    allow = false;
    const refused = await agent.callTool({ name: 'call_tool', arguments: { name: 'tool-19999', arguments: { text: 'no' } } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /did not allow Claude Code to run the tool "tool-19999"/);
    assert.deepEqual(agentCalls.map(x => x.tool), ['tool-19999']);
    allow = true;
    policy = { disabledTools: ['huge/tool-19998'], excludedServers: [] };
    assert.match(textOf(await agent.callTool({ name: 'call_tool', arguments: { name: 'tool-19998' } })), /disabled the tool "tool-19998"/);
    assert.doesNotMatch(textOf(await agent.callTool({ name: 'find_tools', arguments: { query: 'tool-19998' } })), /"name": "tool-19998"/, 'a disabled tool is not found');
    assert.match(textOf(await agent.callTool({ name: 'call_tool', arguments: { name: 'no-such-tool' } })), /has no tool "no-such-tool"/);
    assert.match(textOf(await agent.callTool({ name: 'call_tool', arguments: { name: 'tool-5', arguments: ['not', 'an', 'object'] } })), /takes \{ "name"/);
    assert.equal(agentCalls.length, 1, 'nothing refused before consent was asked about');
  });

  it('a small server\'s own find_tools is its own: the gateway adds nothing when nothing is left out', async () => {
    const tools: Tool[] = (await list('small')).tools;
    assert.ok(!tools.some(t => t.name === 'find_tools' || t.name === 'call_tool'));
  });
});

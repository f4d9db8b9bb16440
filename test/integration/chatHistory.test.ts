/** The history @mcp sends back is bounded: after listing 5,000 tools, the next request stays within the model's input. */
import * as assert from 'node:assert/strict';
import { scriptedLm } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast } from './chatDriver';
import { declareServers, type TestApi, fixture, nodeServer, waitState } from './mcpHost';
import { waitFor } from './helpers';

describe('chat history budget', function () {
  this.timeout(90_000);
  let api: TestApi;

  before(async () => {
    api = await declareServers({ many: { ...nodeServer(fixture('paginated')), env: { FIXTURE_TOOLS: '5000', FIXTURE_PAGE_SIZE: '1000' } } });
    await waitState(api.host.require('many'), 'running', 30_000);
    await waitFor(() => api.listTools('many').length >= 5_000, 30_000, '5,000 tools listed');
    await pickScriptedModel();
  });
  beforeEach(() => scriptedLm.reset());
  after(() => declareServers(undefined));

  it('after @mcp /tools lists 5,000 tools, the next request carries a summary of the listing, within the input limit', async () => {
    await ask('@mcp /tools');
    await scriptedLm.script('ok');
    // The listing answers without the model; the follow-up is the next request the model sees.
    await ask('@mcp what can tool-4711 do?');
    const [req] = await requestsAtLeast(1, 30_000);
    const chars = JSON.stringify(req.messages).length;
    assert.ok(chars < 16_000 * 4, `${chars} characters of messages`);
    assert.ok(req.messages.some(m => m.content.some(c => c.type === 'text' && c.value === '[listed the MCP tools]')), JSON.stringify(req.messages).slice(0, 500));
    const offered = req.options.tools.map(t => t.name);
    assert.ok(offered.includes('many_tool-4711') && offered.includes('find_tools') && offered.length <= 128, `${offered.length} tools`);
  });
});

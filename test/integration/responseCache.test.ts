/**
 * 2026-07-28 caching hints in a real VS Code: a resource list the server said is fresh (`ttlMs`) is
 * not asked for again by a catalogue refresh, but the Resources view's Refresh command (the user
 * has reason to believe it changed) asks the server. The fixture (SDK 2.x server) counts requests.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { declareServers, fixture, nodeServer, textOf, waitState, type TestApi } from './mcpHost';

describe('response cache (ttlMs, 2026-07-28)', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    api = await declareServers({ cached: nodeServer(fixture('cacheHints')) });
    await waitState(api.host.require('cached'), 'running');
  });
  after(() => declareServers(undefined));

  const stats = async () => JSON.parse(textOf(await api.host.require('cached').callTool('stats', {}))) as Record<string, number>;

  it('a fresh list is served from the cache; the Resources view\'s Refresh asks the server', async () => {
    const s = api.host.require('cached');
    assert.equal(s.protocolVersion, '2026-07-28');
    const listed = (await stats())['resources/list'];
    await s.catalog.refresh('resources');
    assert.equal((await stats())['resources/list'], listed, 'within its ttlMs the list was not requested again');
    await vscode.commands.executeCommand('mcpHost.refreshResources');
    assert.equal((await stats())['resources/list'], listed + 1);
    assert.deepEqual(s.catalog.get('resources').map(r => r.uri), ['cache://a', 'cache://b', 'cache://c', 'cache://big', 'cache://ask']);
  });
});

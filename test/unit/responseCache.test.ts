/**
 * Caching hints of 2026-07-28 (`ttlMs`, `cacheScope`): list pages and resource reads are answered
 * from the host's response cache while fresh, asked again once stale or after a change
 * notification; a hostile server's hints are bounded (TTL cap, entry and size budgets, no cache on
 * a 2025-era connection or for a multi-round-trip answer). Against test/fixtures/servers/cacheHints.ts
 * (SDK 2.x server), which counts what reaches it.
 */
import * as assert from 'node:assert/strict';
import type { ServerConnection, ServerLimits } from '../../src/core';
import { ResponseCache, freshFor } from '../../src/core/connection/responseCache';
import { createTestHost, fixtureServer, node, text, waitFor } from './helpers';

type Stats = Record<string, number>;

describe('response cache (ttlMs / cacheScope, 2026-07-28)', function () {
  this.timeout(30_000);

  async function withServer(env: Record<string, string>, limits: Partial<ServerLimits>, body: (s: ServerConnection, stats: () => Promise<Stats>) => Promise<void>, protocol?: '2025-11-25') {
    const { host } = createTestHost({ elicitation: async () => ({ action: 'accept', content: { ok: true } }) }, { limits });
    try {
      await host.apply({ cache: { ...node(fixtureServer('cacheHints')), env, ...(protocol ? { protocol } : {}) } });
      const s = host.require('cache');
      assert.equal(s.state, 'running', s.message);
      await body(s, async () => JSON.parse(text(await s.callTool('stats', {}))) as Stats);
    } finally { await host.shutdown(); }
  }
  const read = async (s: ServerConnection, uri: string) => text({ content: (await s.readResource(uri)).contents as { text?: string }[] });

  it('a fresh read or list page is not sent again; a stale one is (tiny TTL: polls until the read is re-sent)', async () => {
    await withServer({}, {}, async (s, stats) => {
      assert.equal(s.protocolVersion, '2026-07-28');
      assert.equal(await read(s, 'cache://a'), 'read 1 of cache://a');
      assert.equal(await read(s, 'cache://a'), 'read 1 of cache://a', 'the second read within the TTL came from the cache');
      assert.equal((await stats())['resources/read cache://a'], 1);

      // Listing again (what a reconnect or a catalogue refresh does) is answered page by page from the cache.
      const listed = (await stats())['tools/list'];
      assert.equal(listed, 2, 'tools/list spans two pages');
      await s.catalog.refresh('tools');
      assert.deepEqual(s.catalog.get('tools').map(t => t.name), ['stats', 'touch', 'hint']);
      assert.equal((await stats())['tools/list'], listed);
      // The user's Refresh asks the server (it has reason to believe something changed).
      await s.reload(['tools']);
      assert.equal((await stats())['tools/list'], listed + 2);

      // With a TTL of a few ms the read is sent again once stale; wait for that state, not for a time.
      await s.callTool('hint', { ttlMs: 5 });
      assert.equal(await read(s, 'cache://b'), 'read 1 of cache://b');
      await waitFor(async () => (await read(s, 'cache://b')) === 'read 2 of cache://b', 'the stale read of cache://b to be sent again');
    });
  });

  it('change notifications make cached results stale at once (resources/updated, list_changed)', async () => {
    await withServer({}, {}, async (s, stats) => {
      await s.subscribe('cache://a');
      assert.equal(await read(s, 'cache://a'), 'read 1 of cache://a');
      const updated = new Promise<void>(resolve => { const d = s.onDidUpdateResource(uri => { if (uri === 'cache://a') { d.dispose(); resolve(); } }); });
      await s.callTool('touch', { what: 'resources/updated', uri: 'cache://a' });
      await updated;
      assert.equal(await read(s, 'cache://a'), 'read 2 of cache://a');

      const listed = (await stats())['tools/list'];
      const relisted = new Promise<void>(resolve => { const d = s.catalog.onDidChange(k => { if (k === 'tools') { d.dispose(); resolve(); } }); });
      await s.callTool('touch', { what: 'tools/list_changed' });
      await relisted;
      assert.equal((await stats())['tools/list'], listed + 2, 'list_changed re-listed every page from the server');
    });
  });

  it('a hostile server cannot make us cache forever: an absurd ttlMs is capped (polls until re-sent)', async () => {
    await withServer({ FIXTURE_TTL_MS: String(Number.MAX_SAFE_INTEGER) }, { maxCacheTtlMs: 50 }, async s => {
      assert.equal(await read(s, 'cache://a'), 'read 1 of cache://a');
      await waitFor(async () => (await read(s, 'cache://a')) === 'read 2 of cache://a', 'the capped read to go stale and be sent again');
    });
  });

  it('nor grow the cache without bound: entry and size budgets evict the least recently used, and skip what is too big', async () => {
    await withServer({ FIXTURE_BIG_CHARS: '20000' }, { maxCacheEntries: 2, maxCacheBytes: 10_000 }, async (s, stats) => {
      for (const uri of ['cache://a', 'cache://b', 'cache://c']) await read(s, uri);
      await read(s, 'cache://c');
      await read(s, 'cache://a');
      await read(s, 'cache://big');
      await read(s, 'cache://big');
      const n = await stats();
      assert.equal(n['resources/read cache://c'], 1, 'the newest entry was kept');
      assert.equal(n['resources/read cache://a'], 2, 'the oldest entry was evicted past maxCacheEntries');
      assert.equal(n['resources/read cache://big'], 2, 'a result larger than maxCacheBytes is never cached');
    });
  });

  it('no result is cached without a positive ttlMs, from a 2025-era connection, or after input_required rounds', async () => {
    await withServer({ FIXTURE_TTL_MS: '-1' }, {}, async (s, stats) => {
      await read(s, 'cache://a');
      await read(s, 'cache://a');
      assert.equal((await stats())['resources/read cache://a'], 2, 'absent ttlMs means immediately stale');
      await s.callTool('hint', { ttlMs: 0 });
      await read(s, 'cache://b');
      await read(s, 'cache://b');
      assert.equal((await stats())['resources/read cache://b'], 2, 'ttlMs 0 means immediately stale');
      await s.callTool('hint', { ttlMs: 60_000 });
      assert.equal(await read(s, 'cache://ask'), 'read 1 of cache://ask');
      assert.equal(await read(s, 'cache://ask'), 'read 2 of cache://ask', 'a result that needed inputResponses is not cached');
    });
    await withServer({}, {}, async (s, stats) => {
      assert.equal(s.protocolVersion, '2025-11-25');
      await read(s, 'cache://a');
      await read(s, 'cache://a');
      assert.equal((await stats())['resources/read cache://a'], 2, 'a 2025-era result has no caching hints to honour');
    }, '2025-11-25');
  });

  describe('ResponseCache', () => {
    const limits = { maxCacheTtlMs: 1000, maxCacheEntries: 10, maxCacheBytes: 10_000 };
    const alice = { server: '["s","1"]', auth: 'token-alice' };
    const bob = { server: '["s","1"]', auth: 'token-bob' };

    it('serves a "private" result only in its authorization context, a "public" one in any of the same server', () => {
      const now = 0;
      const cache = new ResponseCache(limits, () => now);
      cache.put('resources/read', 'x://private', { contents: [], ttlMs: 500, cacheScope: 'private' }, alice, cache.begin());
      cache.put('resources/read', 'x://public', { contents: [], ttlMs: 500, cacheScope: 'public' }, alice, cache.begin());
      cache.put('resources/read', 'x://unscoped', { contents: [], ttlMs: 500 }, alice, cache.begin());
      assert.equal(cache.get('resources/read', 'x://private', bob), undefined, 'another token never sees a private result');
      assert.equal(cache.get('resources/read', 'x://unscoped', bob), undefined, 'no cacheScope is treated as private');
      assert.ok(cache.get('resources/read', 'x://public', bob));
      assert.equal(cache.get('resources/read', 'x://public', { ...bob, server: '["other","1"]' }), undefined, 'another server identity gets nothing');
    });

    it('caps the TTL, drops what an invalidation overtook, and hands out copies', () => {
      let now = 0;
      const cache = new ResponseCache(limits, () => now);
      assert.equal(freshFor({ ttlMs: 1e15 }, 1000), 1000);
      assert.equal(freshFor({ ttlMs: -5 }, 1000), 0);
      assert.equal(freshFor({ ttlMs: 'soon' }, 1000), 0);
      cache.put('tools/list', '', { tools: [{ name: 'a' }], ttlMs: 1e15 }, alice, cache.begin());
      now = 999;
      const hit = cache.get<{ tools: { name: string }[] }>('tools/list', '', alice);
      assert.equal(hit?.tools[0]?.name, 'a');
      hit!.tools[0]!.name = 'tampered';
      assert.equal(cache.get<{ tools: { name: string }[] }>('tools/list', '', alice)?.tools[0]?.name, 'a');
      now = 1000;
      assert.equal(cache.get('tools/list', '', alice), undefined, 'stale at t_received + min(ttlMs, cap)');

      const begun = cache.begin();
      cache.invalidate('tools/list');
      cache.put('tools/list', '', { tools: [], ttlMs: 500 }, alice, begun);
      assert.equal(cache.size, 0, 'a result requested before list_changed is not kept');
    });
  });
});

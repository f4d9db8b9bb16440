import * as assert from 'node:assert/strict';
import { createTestHost, fixtureServer, node, text, waitFor } from './helpers';

describe('catalogs', function () {
  this.timeout(20_000);

  it('fetches every page of tools, resources, templates and prompts', async () => {
    const { host, loggers } = createTestHost({}, {}, 1);
    try {
      await host.apply({ paged: { ...node(fixtureServer('paginated')), env: { FIXTURE_PAGE_SIZE: '5', FIXTURE_TOOLS: '12', FIXTURE_RESOURCES: '13', FIXTURE_PROMPTS: '11' } } });
      const s = host.require('paged');
      assert.equal(s.state, 'running', s.message);
      assert.equal(s.catalog.get('tools').length, 14, '12 echo tools + bad-schema-tool + wrong-output');
      // Resources past the first page load in the background, after the server counts as running.
      await waitFor(() => s.catalog.get('resources').length === 13, 'all 13 resources');
      assert.equal(s.catalog.get('prompts').length, 11);
      assert.ok(s.catalog.get('resourceTemplates').length >= 2);
      assert.deepEqual(s.catalog.get('resources').map(r => r.uri).slice(0, 2), ['fixture://resource/0', 'fixture://resource/1']);
      const trace = loggers.get('paged')!.text();
      assert.equal((trace.match(/"method":"tools\/list"/g) ?? []).length, 3, 'three pages of tools were requested');
    } finally { await host.shutdown(); }
  });

  it('a server whose resources/list never answers page 2 is running after page 1: tools callable, the first page listed', async () => {
    const { host } = createTestHost();
    try {
      // Before: the start waited for every page, so this server stayed "starting" until it timed out.
      await host.apply({ stall: { ...node(fixtureServer('paginated')), env: { FIXTURE_PAGE_SIZE: '5', FIXTURE_RESOURCES: '50', FIXTURE_RESOURCES_STALL: '1' } } });
      const s = host.require('stall');
      assert.equal(s.state, 'running', s.message);
      assert.equal(s.catalog.get('tools').length, 14, 'tools are listed in full before the server counts as running');
      assert.deepEqual(s.catalog.get('resources').map(r => r.uri), [0, 1, 2, 3, 4].map(i => `fixture://resource/${i}`));
      assert.equal(text(await s.callTool('tool-1', { a: 1 })), '{"a":1}');
    } finally { await host.shutdown(); }
  });

  it('is complete when the server is running, even when a list_changed refresh overtook the first listing', async () => {
    // The server announces a change while its first tools/list is pending and answers the refresh later
    // still (the "everything lists every tool … echo missing" flake under load): the first listing is
    // superseded, and the server must not count as running until the newer one has landed.
    const { host } = createTestHost();
    try {
      await host.apply({ racy: { ...node(fixtureServer('paginated')), env: { FIXTURE_TOOLS_LIST_RACE: '1', FIXTURE_PAGE_SIZE: '50' } } });
      const s = host.require('racy');
      assert.equal(s.state, 'running', s.message);
      assert.equal(s.catalog.get('tools').length, 14, s.catalog.get('tools').map(t => t.name).join(', '));
      assert.equal(host.tools.filter(t => t.server === 'racy').length, 14);
    } finally { await host.shutdown(); }
  });

  it('validates structured output with its own cache; a bad outputSchema disables validation for that tool only', async () => {
    const { host, loggers } = createTestHost();
    try {
      await host.apply({ paged: node(fixtureServer('paginated')) });
      const s = host.require('paged');
      // tool-0 is on page 1: the SDK's own cache would only cover the last page.
      const ok = await s.callTool('tool-0', { a: 1 });
      assert.ok(ok.structuredContent);
      await assert.rejects(s.callTool('wrong-output', {}), /paged: structuredContent of tool "wrong-output" does not match its outputSchema/);
      const bad = await s.callTool('bad-schema-tool', {});
      assert.ok(!bad.isError);
      assert.match(loggers.get('paged')!.text(), /warn Tool "bad-schema-tool" has an invalid outputSchema/);
      // Re-listing keeps validation working (the SDK drops its validators on listTools).
      await s.catalog.refresh('tools');
      await assert.rejects(s.callTool('wrong-output', {}), /does not match/);
    } finally { await host.shutdown(); }
  });

  it('refreshes tools, resources and prompts on list_changed (debounced, paginated)', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ changing: node(fixtureServer('changing')) });
      const s = host.require('changing');
      const kinds: string[] = [];
      host.onDidChangeCatalog(e => kinds.push(e.kind));
      await s.callTool('add-tool', { name: 'fresh' });
      await waitFor(() => s.catalog.get('tools').some(t => t.name === 'fresh'), 'new tool');
      assert.match(text(await s.callTool('fresh', {})), /dynamic tool fresh/);
      await s.callTool('remove-tool', { name: 'fresh' });
      await waitFor(() => !s.catalog.get('tools').some(t => t.name === 'fresh'), 'tool removed');
      await s.callTool('add-resource', { uri: 'fixture://changing/new' });
      await waitFor(() => s.catalog.get('resources').some(r => r.uri === 'fixture://changing/new'), 'new resource');
      await s.callTool('add-prompt', { name: 'new-prompt' });
      await waitFor(() => host.prompts.some(p => p.server === 'changing' && p.item.name === 'new-prompt'), 'new prompt');
      assert.ok(kinds.includes('tools') && kinds.includes('resources') && kinds.includes('prompts'));
    } finally { await host.shutdown(); }
  });
});

/**
 * Issue 30 item 10: `apply()` resolves once every start has settled — also for a server the host stops on
 * its own during the start (a catalogue past its budget): when apply() resolves it says `error` and why,
 * not `starting`. The hostile fixture (flooding.ts) pages forever, lists too many bytes, or sends one
 * page over the message limit; a good server next to it is running at the same moment.
 */
import * as assert from 'node:assert/strict';
import { createTestHost, fixtureServer, node } from './helpers';

const flooding = (env: Record<string, string>) => ({ ...node(fixtureServer('flooding')), env });

describe('apply() settles servers that a budget stops while they start (issue 30 item 10)', function () {
  this.timeout(60_000);

  it('each is in error with its reason when apply() resolves, and a start() likewise', async () => {
    const { host } = createTestHost({}, { limits: { maxCatalogBytes: 2_000_000 } });
    try {
      const r = await host.apply({
        endless: flooding({ FIXTURE_ENDLESS_PAGES: '1' }),
        huge: flooding({ FIXTURE_TOOLS: '500', FIXTURE_TOOL_PADDING: '10000', FIXTURE_PAGE_SIZE: '50' }),
        oversized: flooding({ FIXTURE_TOOLS: '1', FIXTURE_TOOL_PADDING: '20000000' }),
        quiet: node(fixtureServer('crashing')),
      });
      assert.deepEqual([...r.started].sort(), ['endless', 'huge', 'oversized', 'quiet']);
      // No waiting: the states as apply() left them.
      const states = Object.fromEntries(host.servers.map(s => [s.name, `${s.state}: ${s.message ?? ''}`]));
      assert.match(states.endless, /^error: tools\/list went on for more than 1000 pages/, JSON.stringify(states));
      assert.match(states.huge, /^error: tools\/list listed more than 1\.9 MB/, JSON.stringify(states));
      assert.match(states.oversized, /^error: tools\/list: the server sent a message of 19\.1 MB/, JSON.stringify(states));
      assert.match(states.quiet, /^running/, JSON.stringify(states));

      // The user starts it again: start() resolves with the same settled state.
      await host.require('endless').start();
      assert.equal(host.require('endless').state, 'error');
    } finally { await host.shutdown(); }
  });
});

import * as assert from 'node:assert/strict';
import { toolBudget } from '../../src/core';
import { runSearchBench } from '../bench/toolSearchBench';

// Quality targets of issue 19 over the labelled benchmark; times are printed by `node out/test/bench/toolSearch.js`, never asserted.
describe('tools: search benchmark (labelled requests over a large catalogue)', () => {
  for (const [label, input] of [['a 128k-token model', 128_000], ['a 16k-token model', 16_000]] as const) {
    it(`offers the needed tool in the first round for ≥ 95 % of requests and reaches all through find_tools, for ${label}`, () => {
      const r = runSearchBench(toolBudget(input));
      assert.ok(r.tools >= 5_000 && r.servers >= 50 && r.queries >= 200 && r.chineseQueries >= 50, JSON.stringify({ tools: r.tools, servers: r.servers, queries: r.queries }));
      const misses = r.misses.map(m => `${m.query.request} → ${m.query.server}/${m.query.tool} (rank ${m.rank})`).join('\n');
      assert.ok(r.firstRoundHits / r.queries >= 0.95, `${r.firstRoundHits}/${r.queries} in the first round; misses:\n${misses}`);
      assert.deepEqual(r.unreachable, []);
      assert.ok(r.meanSchemaTokens <= toolBudget(input).maxSchemaTokens);
    });
  }
});

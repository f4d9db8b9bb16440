/** Prints the tool-search benchmark for a large-input model (128k) and a small one (16k). `node out/test/bench/toolSearch.js` */
import { toolBudget } from '../../src/core';
import { runSearchBench } from './toolSearchBench';

const pct = (n: number, of: number) => `${(100 * n / of).toFixed(1)} %`;

for (const [label, input] of [['128k-token model', 128_000], ['16k-token model', 16_000]] as const) {
  const r = runSearchBench(toolBudget(input));
  console.log(`tool search, ${label}: ${r.tools} tools from ${r.servers} servers, ${r.queries} requests (${r.chineseQueries} in Chinese)`);
  console.log(`  needed tool offered in the first round: ${pct(r.firstRoundHits, r.queries)} (${r.firstRoundHits}/${r.queries})`);
  console.log(`  needed tool ranked in the top 10:       ${pct(r.top10, r.queries)} (${r.top10}/${r.queries})`);
  console.log(`  reachable through find_tools:           ${pct(r.reachable, r.queries)} (${r.reachable}/${r.queries})`);
  console.log(`  offered per request: ${r.meanOfferedTools.toFixed(1)} tools, ${Math.round(r.meanSchemaTokens)} schema tokens (estimated) vs ${r.first128SchemaTokens} for the first 128 tools`);
  console.log(`  index build ${r.indexMs.toFixed(1)} ms (once per catalogue change); request preparation median ${r.prepareMsMedian.toFixed(2)} ms, max ${r.prepareMsMax.toFixed(2)} ms`);
  for (const m of r.misses) console.log(`  miss (rank ${m.rank}): ${m.query.request} → ${m.query.server}/${m.query.tool}`);
  for (const q of r.unreachable) console.log(`  unreachable: ${q.request} → ${q.server}/${q.tool}`);
}

/**
 * `@mcp` request preparation with 5,000 tools across 50 servers (issue 16, target ≤ 20 ms): the steps
 * participant.ts runs before it sends a request — name the enabled tools (enabledTools), look up the
 * search index (catalogIndex: rebuilt only when the catalogue changed), rank for the prompt, pick the
 * offer within the budget, convert the offered tools (toChatTool) — over the labelled queries of the
 * tool-search benchmark. The VS Code parts (settings, the request) are left out: this runs in Node.
 * `node out/test/bench/chatPrep.js`
 */
import { performance } from 'node:perf_hooks';
import { estimateToolTokens, modelToolDescription, nameTools, offerTools, ToolIndex, toolBudget } from '../../src/core';
import { buildCatalogue } from '../fixtures/toolCatalog/catalogue';
import { labelledQueries } from '../fixtures/toolCatalog/queries';
import { median, percentile, record, spread } from './figures';

const TOOLS = 5000, SERVERS = 50, RUNS = 10;
// The labelled catalogue's tools, spread over 50 servers.
const owned = buildCatalogue().slice(0, TOOLS).map((c, i) => ({ server: `server${i % SERVERS}`, item: c.tool }));
const queries = labelledQueries().map(q => q.request);
const budget = toolBudget(128_000);

function prepare(query: string, index?: ToolIndex<{ server: string; tool: (typeof owned)[number]['item']; name: string }>) {
  const named = nameTools(owned.map(o => ({ server: o.server, tool: o.item.name })));
  const tools = owned.map((o, i) => ({ server: o.server, tool: o.item, name: named[i].name }));
  const idx = index ?? new ToolIndex(tools);
  const offer = offerTools(idx.rank(query), budget, estimateToolTokens);
  const chatTools = offer.offered.map(t => ({ name: t.name, description: modelToolDescription(t.server, t.tool), inputSchema: t.tool.inputSchema }));
  return { idx, chatTools };
}

const { idx } = prepare('warm up');
for (const q of queries.slice(0, 20)) prepare(q, idx);
const warm: number[] = [], runMedians: number[] = [], cold: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    prepare(q, idx);
    times.push(performance.now() - t);
  }
  warm.push(...times);
  runMedians.push(median(times));
  // The first request after the catalogue changed also builds the index.
  const t = performance.now();
  prepare(queries[r % queries.length]);
  cold.push(performance.now() - t);
}
console.log(`\n@mcp request preparation, ${TOOLS} tools across ${SERVERS} servers, ${queries.length} requests × ${RUNS} runs`);
console.log(`  index cached (the catalogue unchanged): median ${median(runMedians).toFixed(2)} ms (runs ${spread(runMedians, 2)}), p99 ${percentile(warm, 0.99).toFixed(2)} ms (target ≤ 20 ms)`);
console.log(`  first request after a catalogue change (index rebuilt): median ${median(cold).toFixed(1)} ms (${spread(cold)})`);
record({ name: 'chat.prepare.5000tools', value: median(runMedians), unit: 'ms', target: '≤ 20 ms', samples: warm.length, failures: 0, note: `p99 ${percentile(warm, 0.99).toFixed(2)} ms; runs ${spread(runMedians, 2)} ms` });
record({ name: 'chat.prepare.5000tools.indexRebuilt', value: median(cold), unit: 'ms', target: 'report', samples: cold.length, failures: 0, note: spread(cold) });

/**
 * Tool search over the labelled benchmark (test/fixtures/toolCatalog): how often the tool a request
 * needs is offered in the first round, whether find_tools reaches it, the schema tokens offered
 * compared with offering the first 128 tools, and the time to prepare a request. Shared by the
 * benchmark (prints) and a unit test (asserts the quality targets, never times).
 */
import { performance } from 'node:perf_hooks';
import { estimateToolTokens, MAX_FOUND_TOOLS, MAX_REQUEST_TOOLS, nameTools, offerTools, ToolIndex, toolBudget, type SearchableTool, type ToolBudget } from '../../src/core';
import { buildCatalogue, type CatalogueTool } from '../fixtures/toolCatalog/catalogue';
import { labelledQueries, type LabelledQuery } from '../fixtures/toolCatalog/queries';

export interface BenchTool extends SearchableTool { readonly tool: CatalogueTool['tool'] }

export interface SearchBenchResult {
  readonly tools: number;
  readonly servers: number;
  readonly queries: number;
  readonly chineseQueries: number;
  readonly firstRoundHits: number;
  /** The needed tool ranked in the first 10 (a stricter view than the first round). */
  readonly top10: number;
  readonly reachable: number;
  readonly misses: readonly { query: LabelledQuery; rank: number }[];
  readonly unreachable: readonly LabelledQuery[];
  readonly meanOfferedTools: number;
  readonly meanSchemaTokens: number;
  readonly first128SchemaTokens: number;
  readonly indexMs: number;
  readonly prepareMsMedian: number;
  readonly prepareMsMax: number;
}

export function catalogueTools(): BenchTool[] {
  const cat = buildCatalogue();
  const names = nameTools(cat.map(c => ({ server: c.server, tool: c.tool.name })));
  return cat.map((c, i) => ({ server: c.server, tool: c.tool, name: names[i].name }));
}

export function runSearchBench(budget: ToolBudget = toolBudget(128_000)): SearchBenchResult {
  const tools = catalogueTools();
  const t0 = performance.now();
  const index = new ToolIndex(tools);
  const indexMs = performance.now() - t0;
  const cost = new Map(tools.map(t => [t, estimateToolTokens(t)]));
  const queries = labelledQueries();
  const misses: { query: LabelledQuery; rank: number }[] = [];
  const unreachable: LabelledQuery[] = [];
  const times: number[] = [];
  let hits = 0, top10 = 0, reachable = 0, offeredTools = 0, offeredTokens = 0;
  for (const q of queries) {
    const s = performance.now();
    const ranked = index.rank(q.request);
    const offer = offerTools(ranked, budget, t => cost.get(t)!);
    times.push(performance.now() - s);
    offeredTools += offer.offered.length;
    offeredTokens += offer.schemaTokens;
    const isNeeded = (t: BenchTool) => t.server === q.server && t.tool.name === q.tool;
    if (!tools.some(isNeeded)) throw new Error(`label names no catalogue tool: ${q.server}/${q.tool}`);
    if (ranked.slice(0, 10).some(isNeeded)) top10++;
    if (offer.offered.some(isNeeded)) hits++;
    else misses.push({ query: q, rank: ranked.findIndex(isNeeded) });
    if (offer.offered.some(isNeeded) || index.search(q.find ?? q.request, MAX_FOUND_TOOLS).some(h => isNeeded(h.tool))) reachable++;
    else unreachable.push(q);
  }
  times.sort((a, b) => a - b);
  return {
    tools: tools.length,
    servers: new Set(tools.map(t => t.server)).size,
    queries: queries.length,
    chineseQueries: queries.filter(q => /[\u4e00-\u9fff]/.test(q.request)).length,
    firstRoundHits: hits,
    top10,
    reachable,
    misses,
    unreachable,
    meanOfferedTools: offeredTools / queries.length,
    meanSchemaTokens: offeredTokens / queries.length,
    first128SchemaTokens: tools.slice(0, MAX_REQUEST_TOOLS).reduce((n, t) => n + cost.get(t)!, 0),
    indexMs,
    prepareMsMedian: times[Math.floor(times.length / 2)],
    prepareMsMax: times[times.length - 1],
  };
}

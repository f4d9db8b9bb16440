/**
 * Lexical tool search (BM25F) over every offered tool's name, title, description, parameter names and
 * server name — no embeddings, no network, same answer for the same inputs. Ranking ties keep the
 * catalogue order. Field text is capped so a server cannot make indexing slow with a huge
 * description, and BM25's length normalisation keeps a description stuffed with every word from
 * outranking a short, specific one.
 */
import { queryTokens, tokenize } from './searchTokens';

export interface SearchableTool {
  readonly server: string;
  /** Model-facing name. */
  readonly name: string;
  readonly tool: { readonly name: string; readonly title?: string; readonly description?: string; readonly inputSchema?: unknown };
}

export interface ToolHit<T> { readonly tool: T; readonly score: number }

const WEIGHTS = { name: 3, title: 2, params: 1.5, server: 1.5, description: 1 };
/** Characters of a description that are indexed; descriptions longer than this are mostly examples. */
export const INDEXED_DESCRIPTION_CHARS = 2_000;
const MAX_PARAMS = 50;
const K1 = 1.2;
const B = 0.75;

export function parameterNames(schema: unknown): string[] {
  const props = (schema as { properties?: unknown } | undefined)?.properties;
  return props && typeof props === 'object' ? Object.keys(props).slice(0, MAX_PARAMS) : [];
}

export class ToolIndex<T extends SearchableTool> {
  // term → [doc, weighted tf, doc, weighted tf, …]
  private readonly postings = new Map<string, number[]>();
  private readonly lengths: Float64Array;
  private readonly avgLength: number;

  constructor(readonly tools: readonly T[]) {
    this.lengths = new Float64Array(tools.length);
    let total = 0;
    tools.forEach((t, doc) => {
      const tf = new Map<string, number>();
      const add = (text: string | undefined, weight: number) => {
        if (!text) return;
        for (const w of tokenize(text)) { tf.set(w, (tf.get(w) ?? 0) + weight); this.lengths[doc] += weight; }
      };
      add(t.tool.name, WEIGHTS.name);
      add(t.tool.title?.slice(0, 200), WEIGHTS.title);
      add(t.tool.description?.slice(0, INDEXED_DESCRIPTION_CHARS), WEIGHTS.description);
      add(parameterNames(t.tool.inputSchema).join(' '), WEIGHTS.params);
      add(t.server, WEIGHTS.server);
      for (const [w, n] of tf) {
        const list = this.postings.get(w);
        if (list) list.push(doc, n); else this.postings.set(w, [doc, n]);
      }
      total += this.lengths[doc];
    });
    this.avgLength = tools.length ? total / tools.length || 1 : 1;
  }

  /** Tools matching `query`, best first; tools sharing no word with the query are left out. */
  search(query: string, limit = Infinity): ToolHit<T>[] {
    const scores = this.score(query);
    const hits: number[] = [];
    scores.forEach((s, i) => { if (s > 0) hits.push(i); });
    hits.sort((a, b) => scores[b] - scores[a] || a - b);
    return hits.slice(0, limit).map(i => ({ tool: this.tools[i], score: scores[i] }));
  }

  /** Every tool, best first; those that share no word with the query keep catalogue order after the rest. */
  rank(query: string): T[] {
    const scores = this.score(query);
    const order = this.tools.map((_, i) => i);
    order.sort((a, b) => scores[b] - scores[a] || a - b);
    return order.map(i => this.tools[i]);
  }

  private score(query: string): Float64Array {
    const scores = new Float64Array(this.tools.length);
    const n = this.tools.length;
    for (const w of new Set(queryTokens(query))) {
      const list = this.postings.get(w);
      if (!list) continue;
      const df = list.length / 2;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (let k = 0; k < list.length; k += 2) {
        const doc = list[k], tf = list[k + 1];
        const norm = K1 * (1 - B + B * this.lengths[doc] / this.avgLength);
        scores[doc] += idf * tf * (K1 + 1) / (tf + norm);
      }
    }
    return scores;
  }
}

/**
 * What one tool result may put into a model's context. A server decides how much it returns (a
 * megabyte log, a whole table); the host decides how much of it the model reads at once. Larger
 * results are kept whole as a read-only document that the user can open and the model can page
 * through (`mcpHost_readResource` with offset/length); the model gets a summary line and the start.
 */
import { randomBytes } from 'node:crypto';

/** URI scheme of kept results: `mcp-result:/<id>/<server>-<tool>.txt`, `<id>` 32 random hex digits. */
export const RESULT_SCHEME = 'mcp-result';
/** The reading tool offered next to MCP tools once a result was kept; no MCP tool is given this name. */
export const READ_RESULT_TOOL = 'mcpHost_readResource';
/** Characters one page read returns at most. */
export const MAX_PAGE_CHARS = 50_000;

export const estimateTextTokens = (s: string) => Math.ceil(s.length / 4);

/**
 * Tokens one result of `server` may use: `setting` is a number (every server) or an object of
 * server → number with `*` for the rest; 0 or absent means a quarter of the model's input limit.
 */
export function resultTokenBudget(server: string, maxInputTokens: number, setting?: unknown): number {
  let n: unknown = setting;
  if (setting && typeof setting === 'object' && !Array.isArray(setting)) {
    const map = setting as Record<string, unknown>;
    n = Object.hasOwn(map, server) ? map[server] : map['*'];
  }
  const auto = Math.floor((maxInputTokens > 0 ? maxInputTokens : 16_000) / 4);
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.max(100, Math.floor(n)) : Math.max(500, auto);
}

export interface KeptResult { readonly id: string; readonly uri: string; readonly server: string; readonly tool: string; readonly text: string }

/** Kept results, oldest evicted first once their total passes `maxChars` (a server cannot fill memory). */
export class ResultStore {
  private readonly results = new Map<string, KeptResult>();
  private total = 0;

  constructor(private readonly maxChars = 64_000_000) {}

  keep(server: string, tool: string, text: string): KeptResult {
    // Random, not a counter: the URI is also a read key (VS Code's content provider and the
    // language-model tool mcpHost_readResource answer any extension), so it must not be guessable.
    const id = randomBytes(16).toString('hex');
    const safe = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60) || 'x';
    const kept = { id, uri: `${RESULT_SCHEME}:/${id}/${safe(server)}-${safe(tool)}.txt`, server, tool, text };
    this.results.set(id, kept);
    this.total += text.length;
    for (const [oldId, old] of this.results) {
      if (this.total <= this.maxChars || oldId === id) break;
      this.results.delete(oldId);
      this.total -= old.text.length;
    }
    return kept;
  }

  /** The kept result a `mcp-result:` URI names (undefined when unknown or evicted). */
  get(uri: string): KeptResult | undefined {
    const m = new RegExp(`^${RESULT_SCHEME}:/([0-9a-f]{32})/`).exec(uri);
    return m ? this.results.get(m[1]) : undefined;
  }
}

/** One page of `text` for a model, saying where it is and how to read on. */
export function pageOf(uri: string, text: string, offset = 0, length = MAX_PAGE_CHARS): string {
  const start = Math.max(0, Math.min(text.length, Math.floor(offset) || 0));
  const end = Math.min(text.length, start + Math.max(1, Math.min(MAX_PAGE_CHARS, Math.floor(length) || MAX_PAGE_CHARS)));
  const more = end < text.length ? ` Read on with offset ${end}.` : ' This is the end.';
  return `[Characters ${start}–${end} of ${text.length} of ${uri}.${more}]\n${text.slice(start, end)}`;
}

/**
 * The result as the model should read it: unchanged when it fits `budgetTokens`, otherwise kept in
 * `store` and replaced by a summary line and as much of its start as fits. `tokens` is the model's
 * count of `text` when known (the estimate otherwise).
 */
export function budgetResult(store: ResultStore, server: string, tool: string, text: string, budgetTokens: number, tokens = estimateTextTokens(text)): { text: string; kept?: KeptResult } {
  if (tokens <= budgetTokens) return { text };
  const kept = store.keep(server, tool, text);
  const summary = `[MCP Host: the result of tool "${tool}" (server "${server}") has ${text.length} characters (about ${tokens} tokens), `
    + `more than the ${budgetTokens} tokens one result may use here. It is kept whole as the read-only document ${kept.uri}; `
    + `read any part with ${READ_RESULT_TOOL} {"uri": "${kept.uri}", "offset": <character>, "length": <characters>}. Its first characters follow.]\n`;
  // The start that fits, at this text's own characters per token (the model's count, when given).
  const charsPerToken = tokens > 0 ? Math.min(4, text.length / tokens) : 4;
  const head = Math.max(0, Math.floor(budgetTokens * charsPerToken) - summary.length);
  return { text: summary + text.slice(0, head), kept };
}

export const readResultDefinition = {
  name: READ_RESULT_TOOL,
  description: 'Read part of a large MCP tool result that was kept as a document (its URI starts with mcp-result:), by character offset and length.',
  inputSchema: {
    type: 'object',
    properties: {
      uri: { type: 'string', description: 'The mcp-result: URI named in the tool result.' },
      offset: { type: 'number', description: 'First character to read (0-based).' },
      length: { type: 'number', description: `Characters to read (at most ${MAX_PAGE_CHARS}).` },
    },
    required: ['uri'],
  },
} as const;

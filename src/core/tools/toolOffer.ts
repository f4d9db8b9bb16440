/**
 * Which tools one model request carries: the best-ranked tools that fit a budget in tools and in
 * schema tokens, plus `find_tools` when some were left out, so the model can pull more into its next
 * round (progressive discovery). Pulling a tool in only makes it callable; running it still goes
 * through consent. Tool text a server wrote is attributed to the server and capped.
 */
import { modelText } from '../text/modelBlock';
import { plainText } from '../text/plainText';
import { FIND_TOOLS } from './toolNames';
import type { SearchableTool, ToolHit } from './toolSearch';

/** VS Code rejects requests with more tools than this. */
export const MAX_REQUEST_TOOLS = 128;
/** Characters of a server's tool description offered to a model. */
export const MAX_TOOL_DESCRIPTION = 1_024;
/** Tools one `find_tools` call may return. */
export const MAX_FOUND_TOOLS = 10;

export interface ToolBudget {
  readonly maxTools: number;
  /** Tokens the offered tools' names, descriptions and input schemas may take together. */
  readonly maxSchemaTokens: number;
}

export interface BudgetSettings { readonly maxTools?: number; readonly maxSchemaTokens?: number }

/** The budget for a model: settings win; by default at most 128 tools in a quarter of the model's input. */
export function toolBudget(maxInputTokens: number, settings: BudgetSettings = {}): ToolBudget {
  const maxTools = Math.max(1, Math.min(MAX_REQUEST_TOOLS, Math.floor(settings.maxTools || MAX_REQUEST_TOOLS)));
  const auto = Math.floor((maxInputTokens > 0 ? maxInputTokens : 16_000) / 4);
  return { maxTools, maxSchemaTokens: Math.max(256, Math.floor(settings.maxSchemaTokens || auto)) };
}

/**
 * The description a model reads for an MCP tool: `[server] title: description`, cleaned and capped, and
 * passed through {@link modelText} like every tool result: it is quoted in `find_tools`'s result and sits
 * in the same request as the host's blocks, so it must not open or close one.
 */
export function modelToolDescription(server: string, tool: SearchableTool['tool']): string {
  const text = [tool.title, tool.description].filter(Boolean).join(': ') || `${tool.name} (MCP server ${server})`;
  return modelText(`[${server}] ${plainText(text, { maxLength: MAX_TOOL_DESCRIPTION })}`);
}

// Worked out once per tool definition: every request ranks the whole catalogue.
const tokenCache = new WeakMap<object, { name: string; server: string; tokens: number }>();

/** Estimated tokens of a tool as offered (≈ 4 characters a token, the usual rule for JSON and English). */
export function estimateToolTokens(t: SearchableTool): number {
  const hit = tokenCache.get(t.tool);
  if (hit && hit.name === t.name && hit.server === t.server) return hit.tokens;
  const tokens = Math.ceil((t.name.length + modelToolDescription(t.server, t.tool).length + JSON.stringify(t.tool.inputSchema ?? {}).length) / 4);
  tokenCache.set(t.tool, { name: t.name, server: t.server, tokens });
  return tokens;
}

export interface Offer<T> {
  readonly offered: T[];
  /** Whether every candidate was offered (then `find_tools` is not needed). */
  readonly complete: boolean;
  readonly schemaTokens: number;
}

/**
 * Takes `pinned` tools first (pulled in by `find_tools`), then `ranked` in order, skipping tools
 * whose schema would not fit, until the budget is used; one slot and its tokens are kept for
 * `find_tools` whenever not everything fits.
 */
export function offerTools<T extends SearchableTool>(ranked: readonly T[], budget: ToolBudget, cost: (t: T) => number = estimateToolTokens, pinned: readonly T[] = []): Offer<T> {
  const all = new Set([...pinned, ...ranked]);
  if (all.size <= budget.maxTools) {
    let total = 0;
    for (const t of all) if ((total += cost(t)) > budget.maxSchemaTokens) break;
    if (total <= budget.maxSchemaTokens) return { offered: [...all], complete: true, schemaTokens: total };
  }
  const offered: T[] = [];
  let tokens = FIND_TOOLS_TOKENS;
  for (const t of all) {
    if (offered.length >= budget.maxTools - 1) break;
    const c = cost(t);
    if (tokens + c > budget.maxSchemaTokens) continue;
    offered.push(t);
    tokens += c;
  }
  return { offered, complete: false, schemaTokens: tokens };
}

export const findToolsDefinition = {
  name: FIND_TOOLS,
  description: 'Search all available MCP tools by keywords (any language) and make the best matches callable in your next step. '
    + 'Use it when none of the offered tools fits the task.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'What the tool should do, e.g. "create github issue".' } },
    required: ['query'],
  },
} as const;
const FIND_TOOLS_TOKENS = Math.ceil(JSON.stringify(findToolsDefinition).length / 4);

/** What the model reads after `find_tools`: the tools now callable, each attributed to its server. */
export function findToolsResult<T extends SearchableTool>(query: string, hits: readonly ToolHit<T>[]): string {
  if (!hits.length) return `No MCP tool matches "${plainText(query, { singleLine: true, maxLength: 200 })}". Try other words.`;
  const lines = hits.map(h => `- ${h.tool.name}: ${modelToolDescription(h.tool.server, h.tool.tool).replace(/\s+/g, ' ').slice(0, 300)}`);
  return `These MCP tools are now available to call (descriptions are written by each server):\n${lines.join('\n')}`;
}

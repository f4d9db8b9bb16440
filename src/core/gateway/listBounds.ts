/**
 * What one server's `tools/list` may weigh for a gateway client. VS Code's built-in MCP host keeps no
 * limit of its own: it registers every listed tool as a language-model tool in the workbench and in
 * every extension host, adds it to the server's tool set and caches the list in storage, so one
 * server of thousands of tools (or of megabyte descriptions) grows the window by gigabytes and stalls
 * every chat request. A terminal agent puts every listed tool before its model the same way.
 *
 * So a client is shown at most {@link MAX_LISTED_TOOLS} tools of a server, each description cut and
 * no input schema over {@link MAX_LISTED_SCHEMA_CHARS}; when something was left out, two tools of the
 * gateway's own say so and reach the rest: `find_tools` searches the whole catalogue (the same index
 * @mcp uses) and `call_tool` runs a tool that is not listed — through MCP Host's own consent, since the
 * client's confirmation names only `call_tool`.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { plainText } from '../text/plainText';
import { ToolIndex, type SearchableTool } from '../tools/toolSearch';
import { MAX_FOUND_TOOLS, MAX_TOOL_DESCRIPTION } from '../tools/toolOffer';

/** Tools of one server a client is shown, the gateway's two included. */
export const MAX_LISTED_TOOLS = 100;
/** Characters of a listed input schema (as JSON); a tool with a larger one is reached through `call_tool`. */
export const MAX_LISTED_SCHEMA_CHARS = 16_384;
export const GATEWAY_FIND_TOOLS = 'find_tools';
export const GATEWAY_CALL_TOOL = 'call_tool';
const GATEWAY_TOOLS = new Set([GATEWAY_FIND_TOOLS, GATEWAY_CALL_TOOL]);

export interface ListedTools {
  /** The server's tools a client is shown (descriptions cut), in catalogue order. */
  readonly listed: Tool[];
  /** How many offered tools were left out (then the gateway's two tools are listed as well). */
  readonly left: number;
}

// Worked out once per tool definition: every list and every call of a big server measures them all.
const sizes = new WeakMap<Tool, number>();
function schemaChars(t: Tool): number {
  let n = sizes.get(t);
  if (n === undefined) sizes.set(t, n = JSON.stringify(t.inputSchema ?? {}).length);
  return n;
}

/** A description as a client reads it: cleaned of what cannot be seen, and cut. */
function listedDescription(text: string | undefined): string | undefined {
  // Cut before cleaning: a megabyte description costs no more than its start.
  return text === undefined ? undefined : plainText(text.slice(0, MAX_TOOL_DESCRIPTION * 2), { maxLength: MAX_TOOL_DESCRIPTION });
}

/**
 * The tools of `offered` a client is shown. A server's own tool named like one of the gateway's is
 * listed only while nothing is left out (then the gateway lists none of its own).
 */
export function listTools(offered: readonly Tool[]): ListedTools {
  const fits = (t: Tool) => schemaChars(t) <= MAX_LISTED_SCHEMA_CHARS;
  if (offered.length <= MAX_LISTED_TOOLS && offered.every(fits)) return { listed: offered.map(cutTool), left: 0 };
  const listed: Tool[] = [];
  for (const t of offered) {
    if (listed.length >= MAX_LISTED_TOOLS - GATEWAY_TOOLS.size) break;
    if (fits(t) && !GATEWAY_TOOLS.has(t.name)) listed.push(cutTool(t));
  }
  return { listed, left: offered.length - listed.length };
}

/** Whether `name` is one of the gateway's own tools for this catalogue (only when something is left out). */
export function isGatewayTool(name: string, offered: readonly Tool[]): boolean {
  return GATEWAY_TOOLS.has(name) && listTools(offered).left > 0;
}

function cutTool(t: Tool): Tool {
  const description = listedDescription(t.description);
  return description === t.description ? t : { ...t, ...(description !== undefined ? { description } : {}) };
}

/** Prompts of one server a client is shown (VS Code makes each a `/` command); the rest stay reachable with `prompts/get`. */
export const MAX_LISTED_PROMPTS = 100;

export function listPrompts<P extends { description?: string }>(prompts: readonly P[]): P[] {
  return prompts.slice(0, MAX_LISTED_PROMPTS).map(p => {
    const description = listedDescription(p.description);
    return description === p.description ? p : { ...p, description };
  });
}

/** The gateway's two tools for a server of which `left` of `total` tools are not listed. */
export function gatewayTools(server: string, total: number, left: number): Tool[] {
  const notice = `MCP server "${server}" has ${total} tools; ${total - left} are listed here and ${left} are not (MCP Host lists at most ${MAX_LISTED_TOOLS - GATEWAY_TOOLS.size} of a server).`;
  return [
    {
      name: GATEWAY_FIND_TOOLS,
      description: `${notice} Search all of them by keywords; then run one that is not listed with ${GATEWAY_CALL_TOOL}.`,
      inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What the tool should do, e.g. "create issue".' } }, required: ['query'] },
      annotations: { readOnlyHint: true },
    },
    {
      name: GATEWAY_CALL_TOOL,
      description: `Run a tool of MCP server "${server}" that is not listed here, by its name as ${GATEWAY_FIND_TOOLS} gives it. MCP Host asks the user before it runs unless they approved that tool.`,
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'The tool\'s name.' }, arguments: { type: 'object', description: 'The tool\'s arguments, as its input schema describes them.' } },
        required: ['name'],
      },
      // The client need not confirm this call: the gateway asks for the tool it runs (MCP Host's consent names it).
      annotations: { readOnlyHint: true },
    },
  ];
}

const indexes = new WeakMap<readonly Tool[], ToolIndex<SearchableTool & { tool: Tool }>>();

/**
 * What `find_tools` answers: the best matches among `offered` with what a caller needs to call them.
 * The index is built once per `catalogue` (the host's list, of which `offered` is what the policy leaves).
 */
export function findTools(server: string, catalogue: readonly Tool[], offered: readonly Tool[], query: string): string {
  let index = indexes.get(catalogue);
  if (!index) indexes.set(catalogue, index = new ToolIndex(catalogue.map(tool => ({ server, name: tool.name, tool }))));
  const allowed = new Set(offered);
  const hits = index.search(query).filter(h => allowed.has(h.tool.tool)).slice(0, MAX_FOUND_TOOLS);
  if (!hits.length) return `No tool of MCP server "${server}" matches "${plainText(query, { singleLine: true, maxLength: 200 })}". Try other words.`;
  const listed = new Set(listTools(offered).listed.map(t => t.name));
  const entries = hits.map(({ tool: { tool } }) => ({
    name: tool.name,
    ...(listed.has(tool.name) ? { listed: true } : {}),
    description: plainText((tool.description ?? '').slice(0, 600), { singleLine: true, maxLength: 300 }),
    inputSchema: schemaChars(tool) <= MAX_LISTED_SCHEMA_CHARS ? tool.inputSchema : `(${schemaChars(tool)} characters: too large to show)`,
  }));
  return `Tools of MCP server "${server}" (descriptions are written by the server; call one that is not listed with ${GATEWAY_CALL_TOOL}):\n${JSON.stringify(entries, null, 1)}`;
}

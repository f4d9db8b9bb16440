/**
 * Names under which MCP tools are offered to language models: `<server>_<tool>`, restricted to
 * `[A-Za-z0-9_-]`, at most 64 characters (the limit of the VS Code and vendor tool APIs), unique.
 * The prefix is the server's declared name, cut to {@link MAX_PREFIX} characters so the tool's own
 * name stays readable. Long or colliding names keep a readable prefix and end with a short hash of
 * the (server, tool) pair, so a name depends only on its own pair and on which pairs collide with
 * it — never on the order servers started in — and is the same after a restart.
 */
import { createHash } from 'node:crypto';
import { READ_RESULT_TOOL } from './resultBudget';

export const MAX_TOOL_NAME = 64;
/** Characters of the server prefix. */
export const MAX_PREFIX = 24;
/** The progressive-discovery tool offered next to MCP tools; no MCP tool is given this name (nor READ_RESULT_TOOL's). */
export const FIND_TOOLS = 'find_tools';
/** The skills tool of `@mcp` (core/skills LOAD_SKILL; spelled here so tools/ does not import skills/). */
const LOAD_SKILL_TOOL = 'load_skill';
const RESERVED = new Set([FIND_TOOLS, READ_RESULT_TOOL, LOAD_SKILL_TOOL]);

export interface NamedTool { readonly server: string; readonly tool: string; readonly name: string }

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'x';
const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 6);
const key = (server: string, tool: string) => `${server}\u0000${tool}`;

function prefix(server: string): string {
  const c = clean(server);
  return c.length <= MAX_PREFIX ? c : `${c.slice(0, MAX_PREFIX - 7)}-${hash(server)}`;
}

export function toolName(server: string, tool: string): string {
  const name = `${prefix(server)}_${clean(tool)}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 7)}_${hash(key(server, tool))}`;
}

const hashed = (server: string, tool: string) => `${toolName(server, tool).slice(0, MAX_TOOL_NAME - 7)}_${hash(`${key(server, tool)}\u0000dup`)}`;

/**
 * Assigns unique model-facing names to (server, tool) pairs. When several pairs clean to the same
 * name, the pair that spells it exactly (or else the first in sorted order) keeps it and the others
 * get hashed names: the same for any order of `pairs`.
 */
export function nameTools(pairs: readonly { server: string; tool: string }[]): NamedTool[] {
  // Every chat request names the same catalogue again (5,000 tools: most of the request's preparation);
  // the names depend on the pairs only, so the last answer stands while the pairs are the same.
  if (last && last.pairs.length === pairs.length && pairs.every((p, i) => p.server === last!.pairs[i].server && p.tool === last!.pairs[i].tool)) return last.named.slice();
  const named = assignNames(pairs);
  last = { pairs: pairs.map(({ server, tool }) => ({ server, tool })), named };
  return named.slice();
}

let last: { pairs: readonly { server: string; tool: string }[]; named: readonly NamedTool[] } | undefined;

function assignNames(pairs: readonly { server: string; tool: string }[]): NamedTool[] {
  const groups = new Map<string, { server: string; tool: string }[]>();
  for (const p of pairs) {
    const n = toolName(p.server, p.tool);
    const g = groups.get(n);
    if (g) g.push(p); else groups.set(n, [p]);
  }
  const names = new Map<string, string>();
  for (const [n, group] of groups) {
    const exact = group.filter(p => `${p.server}_${p.tool}` === n);
    const keeper = RESERVED.has(n) ? undefined : (exact.length === 1 ? exact[0] : [...group].sort((a, b) => key(a.server, a.tool) < key(b.server, b.tool) ? -1 : 1)[0]);
    for (const p of group) names.set(key(p.server, p.tool), p === keeper ? n : hashed(p.server, p.tool));
  }
  // A server may list the same name more than once: every copy needs a name of its own.
  const used = new Set<string>();
  return pairs.map(({ server, tool }) => {
    let name = names.get(key(server, tool))!;
    for (let copy = 0; used.has(name); copy++) name = `${name.slice(0, MAX_TOOL_NAME - 7)}_${hash(`${server}\u0000${tool}\u0000dup${copy ? copy : ''}`)}`;
    used.add(name);
    return { server, tool, name };
  });
}

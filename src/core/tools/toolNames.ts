/**
 * Names under which MCP tools are offered to language models: `<server>_<tool>`, restricted to
 * `[A-Za-z0-9_-]`, at most 64 characters (the limit of the VS Code and vendor tool APIs), unique.
 * Long or colliding names keep a readable prefix and end with a short stable hash.
 */
import { createHash } from 'node:crypto';
import { READ_RESULT_TOOL } from './resultBudget';

export const MAX_TOOL_NAME = 64;
/** The progressive-discovery tool offered next to MCP tools; no MCP tool is given this name (nor READ_RESULT_TOOL's). */
export const FIND_TOOLS = 'find_tools';

export interface NamedTool { readonly server: string; readonly tool: string; readonly name: string }

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'x';
const hash = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 6);

export function toolName(server: string, tool: string): string {
  const name = `${clean(server)}_${clean(tool)}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  return `${name.slice(0, MAX_TOOL_NAME - 7)}_${hash(`${server}\u0000${tool}`)}`;
}

/** Assigns unique model-facing names to (server, tool) pairs, stable for the same inputs. */
export function nameTools(pairs: readonly { server: string; tool: string }[]): NamedTool[] {
  const used = new Set<string>([FIND_TOOLS, READ_RESULT_TOOL]);
  return pairs.map(({ server, tool }) => {
    let name = toolName(server, tool);
    if (used.has(name)) name = `${name.slice(0, MAX_TOOL_NAME - 7)}_${hash(`${server}\u0000${tool}\u0000dup`)}`;
    used.add(name);
    return { server, tool, name };
  });
}

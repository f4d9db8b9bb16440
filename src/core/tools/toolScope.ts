/**
 * Scoping a request to some servers or named tool sets: `#github #jira fix the login bug` or
 * `/use github,jira fix the login bug` offer only those servers' tools; a tool set
 * (`mcpHost.toolSets`: name → `server/tool` or `server/*` patterns) offers only its tools. Scoping
 * only narrows what is offered: a disabled or excluded tool stays out whatever the scope says.
 */
import { matchesToolPattern } from './toolApproval';

export type ToolSets = Readonly<Record<string, readonly string[]>>;

const PATTERN = /^[^/\s]+\/[^/\s]+$/;
const SET_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** `mcpHost.toolSets` as written by the user: valid sets kept, each problem described. */
export function parseToolSets(value: unknown): { sets: Record<string, string[]>; problems: string[] } {
  const sets: Record<string, string[]> = {};
  const problems: string[] = [];
  if (value === undefined || value === null) return { sets, problems };
  if (typeof value !== 'object' || Array.isArray(value)) return { sets, problems: ['mcpHost.toolSets must be an object of name → list of "server/tool" patterns.'] };
  for (const [name, patterns] of Object.entries(value as Record<string, unknown>)) {
    if (!SET_NAME.test(name)) { problems.push(`Tool set "${name}": names use letters, digits, ".", "_" and "-" only.`); continue; }
    if (!Array.isArray(patterns) || !patterns.every(p => typeof p === 'string' && PATTERN.test(p))) {
      problems.push(`Tool set "${name}": expected a list of "server/tool" or "server/*" patterns.`);
      continue;
    }
    sets[name] = patterns as string[];
  }
  return { sets, problems };
}

export interface RequestScope {
  /** Servers and tool sets the request named, in order. */
  readonly names: readonly string[];
  /** `server/tool` patterns the offered tools must match; undefined: no scope. */
  readonly patterns?: readonly string[];
  /** Names that are neither a server nor a tool set. */
  readonly unknown: readonly string[];
  /** The request without the scope. */
  readonly prompt: string;
}

/**
 * Reads a scope from the start of a request: `#name` words (chat) or, for `/use`, a first word of
 * comma-separated names. A `#word` that names no server or tool set is left in the request.
 */
export function parseScope(prompt: string, servers: readonly string[], sets: ToolSets, use = false): RequestScope {
  const known = (n: string) => servers.includes(n) || Object.hasOwn(sets, n);
  const names: string[] = [];
  const unknown: string[] = [];
  let rest = prompt.trimStart();
  if (use) {
    const m = /^(\S+)\s*/.exec(rest);
    if (m) {
      for (const n of m[1].split(',').map(s => s.replace(/^#/, '')).filter(Boolean)) (known(n) ? names : unknown).push(n);
      rest = rest.slice(m[0].length);
    }
  } else {
    for (let m = /^#([^\s#,]+)[\s,]*/.exec(rest); m && known(m[1]); m = /^#([^\s#,]+)[\s,]*/.exec(rest)) {
      names.push(m[1]);
      rest = rest.slice(m[0].length);
    }
  }
  if (!names.length) return { names, unknown, prompt: use ? rest : prompt };
  const patterns = names.flatMap(n => Object.hasOwn(sets, n) ? sets[n] : [`${n}/*`]);
  return { names, patterns, unknown, prompt: rest };
}

/** Whether a tool is inside `scope` (every tool is when the request named no scope). */
export function inScope(scope: Pick<RequestScope, 'patterns'>, server: string, tool: string): boolean {
  return !scope.patterns || matchesToolPattern(scope.patterns, server, tool);
}

/**
 * Data of the Servers view, apart from the provider: one node per server, per broken declaration
 * and per server withheld by Workspace Trust, and the discovered servers under their source.
 */
import type { Prompt, Tool } from '@modelcontextprotocol/client';
import type { CachedCatalog, ConfigProblem, ServerConnection } from '../../core';
import type { HostController } from '../hostController';
import { isDiscovered, sourceNodes } from './discoveryNodes';
import type { ServerNode } from './serverNode';

export type { ServerNode } from './serverNode';

/** Servers of MCP Host's settings at the top, sorted; then one node per enabled discovery source. */
export function serverNodes(controller: HostController): ServerNode[] {
  const nodes: ServerNode[] = controller.host.servers.filter(conn => !isDiscovered(controller, conn.name)).map(conn => ({ kind: 'server', name: conn.name, conn }));
  const byServer = new Map<string, ConfigProblem[]>();
  for (const p of controller.problems) {
    if (p.severity !== 'error' || isDiscovered(controller, p.server)) continue;
    const list = byServer.get(p.server) ?? [];
    list.push(p);
    byServer.set(p.server, list);
  }
  for (const [name, problems] of byServer) nodes.push({ kind: 'problem', name, problems });
  for (const name of controller.untrusted) nodes.push({ kind: 'untrusted', name });
  return [...nodes.sort((a, b) => a.name.localeCompare(b.name)), ...sourceNodes(controller)];
}

/**
 * What a server shows: what it lists while it runs; otherwise what it listed last time (the catalogue
 * cache, `cached`), so a server that starts when used, or one stopped, still shows its tools.
 */
export function shownCatalog(conn: ServerConnection, cached: CachedCatalog | undefined): { tools: readonly Tool[]; prompts: readonly Prompt[]; resources: number; cached: boolean } {
  const live = { tools: conn.catalog.get('tools'), prompts: conn.catalog.get('prompts'), resources: conn.catalog.get('resources').length };
  if (conn.state === 'running' || !cached || live.tools.length || live.prompts.length) return { ...live, cached: false };
  return { tools: cached.tools, prompts: cached.prompts, resources: cached.resources.length, cached: true };
}

/** Children of a server: its prompts (run them from the inline button or the context menu), then its tools (run them by hand with "Run Tool…"). */
export function catalogNodes(conn: ServerConnection, cached: CachedCatalog | undefined): ServerNode[] {
  const shown = shownCatalog(conn, cached);
  const mark = shown.cached ? { cached: true as const } : {};
  return [
    ...shown.prompts.map(prompt => ({ kind: 'prompt' as const, name: prompt.name, server: conn.name, prompt, ...mark })),
    ...shown.tools.map(tool => ({ kind: 'tool' as const, name: tool.name, server: conn.name, tool, ...mark })),
  ];
}

/** How many tools, resources and prompts a server lists (the view words them). */
export function catalogCounts(conn: ServerConnection, cached?: CachedCatalog): { tools: number; resources: number; prompts: number; cached: boolean } {
  const shown = shownCatalog(conn, cached);
  return { tools: shown.tools.length, resources: shown.resources, prompts: shown.prompts.length, cached: shown.cached };
}

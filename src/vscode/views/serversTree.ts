/**
 * Data of the Servers view, apart from the provider: one node per server, per broken declaration
 * and per server withheld by Workspace Trust, and the discovered servers under their source.
 */
import type { ConfigProblem, ServerConnection } from '../../core';
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

/** Children of a server: its prompts (run them from the inline button or the context menu). */
export function promptNodes(conn: ServerConnection): ServerNode[] {
  return conn.catalog.get('prompts').map(prompt => ({ kind: 'prompt', name: prompt.name, server: conn.name, prompt }));
}

/** Tools of a server, after its prompts: run them by hand with "Run Tool…" (the tool runner). */
export function toolNodes(conn: ServerConnection): ServerNode[] {
  return conn.catalog.get('tools').map(tool => ({ kind: 'tool', name: tool.name, server: conn.name, tool }));
}

/** How many tools, resources and prompts a server lists (the view words them). */
export function catalogCounts(conn: ServerConnection): { tools: number; resources: number; prompts: number } {
  return { tools: conn.catalog.get('tools').length, resources: conn.catalog.get('resources').length, prompts: conn.catalog.get('prompts').length };
}

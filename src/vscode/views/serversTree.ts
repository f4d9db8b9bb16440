/**
 * Data of the Servers view, apart from the provider: one node per server, per broken declaration
 * and per server withheld by Workspace Trust. `contextValue`s are composite (`server:running`).
 */
import type { Prompt, Tool } from '@modelcontextprotocol/client';
import type { ConfigProblem, ServerConnection } from '../../core';
import type { HostController } from '../hostController';

export type ServerNode =
  | { readonly kind: 'server'; readonly name: string; readonly conn: ServerConnection }
  | { readonly kind: 'problem'; readonly name: string; readonly problems: readonly ConfigProblem[] }
  | { readonly kind: 'untrusted'; readonly name: string }
  | { readonly kind: 'prompt'; readonly name: string; readonly server: string; readonly prompt: Prompt }
  | { readonly kind: 'tool'; readonly name: string; readonly server: string; readonly tool: Tool };

export function serverNodes(controller: HostController): ServerNode[] {
  const nodes: ServerNode[] = controller.host.servers.map(conn => ({ kind: 'server', name: conn.name, conn }));
  const byServer = new Map<string, ConfigProblem[]>();
  for (const p of controller.problems) {
    if (p.severity !== 'error') continue;
    const list = byServer.get(p.server) ?? [];
    list.push(p);
    byServer.set(p.server, list);
  }
  for (const [name, problems] of byServer) nodes.push({ kind: 'problem', name, problems });
  for (const name of controller.untrusted) nodes.push({ kind: 'untrusted', name });
  return nodes.sort((a, b) => a.name.localeCompare(b.name));
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

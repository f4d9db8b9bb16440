/** Builds the exported API over the running host (see api.ts for the contract). */
import type * as vscode from 'vscode';
import { toolVisibility, type Event, type McpHost, type ServerConnection } from '../core';
import type { McpHostApi } from './api';
import type { ToolActivityLog } from './chat/activityLog';
import type { ToolRun } from './chat/toolInvoker';
import { chatExcludedServers, isServerDisabledForModels, isToolEnabled } from './chat/toolSettings';

/**
 * Why the user's choices keep other extensions away from a whole server (undefined: they may use it):
 * the same choices that cut it off from models — disabled, excluded from chat, every tool disabled.
 * One rule for every member of the API that reaches a server (lists, tools, resources, prompts).
 */
function serverRefusal(conn: ServerConnection): string | undefined {
  if (conn.declaration.disabled) return `The user disabled the MCP server "${conn.name}".`;
  if (chatExcludedServers().includes(conn.name)) return `The user excluded the MCP server "${conn.name}" from chat and from other extensions.`;
  if (isServerDisabledForModels(conn.name)) return `The user disabled every tool of the MCP server "${conn.name}" for language models and other extensions.`;
  return undefined;
}

/**
 * Why the user's choices keep another extension from running `tool` (undefined: it may run). The same
 * choices as for models: a disabled tool or server, a server excluded from chat, a tool only its app may call.
 */
function refusal(conn: ServerConnection, tool: string): string | undefined {
  const server = serverRefusal(conn);
  if (server) return server;
  if (!isToolEnabled(conn.name, tool)) return `The user disabled the tool "${tool}" of MCP server "${conn.name}".`;
  const definition = conn.tool(tool);
  if (definition && !toolVisibility(definition).model) return `The tool "${tool}" of MCP server "${conn.name}" is only for its MCP App.`;
  return undefined;
}

/** Tools other extensions may call (what {@link refusal} lets through). */
function callable(host: McpHost, o: { server: string; item: { name: string; _meta?: Record<string, unknown> } }): boolean {
  const conn = host.get(o.server);
  return !!conn && refusal(conn, o.item.name) === undefined;
}

/**
 * The façade other extensions get. All of them share the returned object, so it is frozen (one
 * extension cannot wrap `callTool` to watch another's calls), and every value handed out is a copy of
 * the host's own (the catalog items the model and the confirmations see stay as the server sent them).
 */
/** `onToolRun` sees every successful call (MCP Apps open the tool's app from it). */
export function createApi(host: McpHost, activity: ToolActivityLog, activationMs: number, onToolRun?: (run: ToolRun) => void): McpHostApi {
  // A list holds only servers other extensions may use (see serverRefusal).
  const of = (server?: string) => (o: { server: string }) => (!server || o.server === server) && usable(o.server);
  const usable = (server: string) => { const conn = host.get(server); return !!conn && serverRefusal(conn) === undefined; };
  const cutOff = (server: string) => { const conn = host.get(server); return conn ? serverRefusal(conn) !== undefined : chatExcludedServers().includes(server) || isServerDisabledForModels(server); };
  const api: McpHostApi = {
    version: 2,
    listServers: () => host.servers.map(s => copy({
      name: s.name, state: s.state, message: s.message, transport: s.transportKind ?? s.declaration.type,
      // Instructions are text for models: not for a server the user cut off from them.
      serverInfo: s.serverInfo, protocolVersion: s.protocolVersion, instructions: serverRefusal(s) === undefined ? s.instructions : undefined,
    })),
    listTools: server => host.tools.filter(of(server)).filter(o => callable(host, o)).map(o => ({ server: o.server, tool: copy(o.item) })),
    listResources: server => host.resources.filter(of(server)).map(o => ({ server: o.server, resource: copy(o.item) })),
    listResourceTemplates: server => host.resourceTemplates.filter(of(server)).map(o => ({ server: o.server, template: copy(o.item) })),
    listPrompts: server => host.prompts.filter(of(server)).map(o => ({ server: o.server, prompt: copy(o.item) })),
    async callTool(server, tool, args = {}, options = {}) {
      // What the server receives is JSON anyway; copying first keeps the activity log true to what was
      // sent even if the caller changes its object while the call runs.
      const sent = jsonCopy(args);
      const started = Date.now();
      try {
        const conn = host.require(server);
        // The server's own refusal first (a disabled server never gets ready); the catalogue (app-only
        // tools) is known once the server is ready, and a restart is waited for as callTool would.
        let refused = serverRefusal(conn);
        if (!refused) {
          await conn.ready({ signal: options.signal }, 'tools/call');
          refused = refusal(conn, tool);
        }
        if (refused) {
          activity.add({ server, tool, args: sent, outcome: 'disabled', durationMs: Date.now() - started, result: refused, approvedBy: 'extension API' });
          return Promise.reject(new Error(refused)); // returned, not thrown: the catch below would log it again as failed
        }
        const r = await conn.callTool(tool, sent, options);
        const definition = conn.tool(tool);
        if (definition) onToolRun?.({ server, tool: definition, args: sent, result: r });
        activity.add({ server, tool, args: sent, outcome: r.isError ? 'error-result' : 'ok', durationMs: Date.now() - started, result: JSON.stringify(r.content).slice(0, 2000), approvedBy: 'extension API' });
        return r;
      } catch (e) {
        activity.add({ server, tool, args: sent, outcome: 'failed', durationMs: Date.now() - started, result: e instanceof Error ? e.message : String(e), approvedBy: 'extension API' });
        throw e;
      }
    },
    async readResource(server, uri, options) {
      const conn = host.require(server);
      const refused = serverRefusal(conn);
      if (refused) throw new Error(refused);
      return conn.readResource(uri, options);
    },
    async getPrompt(server, name, args, options) {
      const conn = host.require(server);
      const refused = serverRefusal(conn);
      if (refused) throw new Error(refused);
      return conn.getPrompt(name, args, options);
    },
    onDidChangeServers: relay(host.onDidChangeServers, () => undefined),
    onDidChangeServerState: relay(host.onDidChangeState, e => ({ server: e.server, state: e.state, message: e.message })),
    onDidChangeCatalog: relay(host.onDidChangeCatalog, e => ({ server: e.server, kind: e.kind })),
    activationMs,
    // The log holds results the servers sent: none of a server the user cut off (also one since removed whose name is still excluded).
    get toolActivity() { return activity.recent.filter(a => !cutOff(a.server)).map(copy); },
  };
  return Object.freeze(api);
}

function copy<T>(value: T): T {
  return structuredClone(value);
}

function jsonCopy(args: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
}

/** A core event as a `vscode.Event` whose listeners each get their own payload (none can change what the next one sees). */
function relay<T, U>(event: Event<T>, map: (e: T) => U): vscode.Event<U> {
  return (listener, thisArgs, disposables) => event(e => listener.call(thisArgs, map(e)), undefined, disposables);
}

/** Builds the exported API over the running host (see api.ts for the contract). */
import type * as vscode from 'vscode';
import { toolVisibility, type Event, type McpHost, type ServerConnection } from '../core';
import type { McpHostApi } from './api';
import type { ToolActivityLog } from './chat/activityLog';
import type { ToolRun } from './chat/toolInvoker';
import { chatExcludedServers, isServerDisabledForModels, isToolEnabled } from './chat/toolSettings';

/**
 * Why the user's choices keep another extension from running `tool` (undefined: it may run). The same
 * choices as for models: a disabled tool or server, a server excluded from chat, a tool only its app may call.
 */
function refusal(conn: ServerConnection, tool: string): string | undefined {
  if (conn.declaration.disabled) return `The user disabled the MCP server "${conn.name}".`;
  if (chatExcludedServers().includes(conn.name)) return `The user excluded the MCP server "${conn.name}" from chat and from other extensions.`;
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
  const of = (server?: string) => (o: { server: string }) => !server || o.server === server;
  const api: McpHostApi = {
    version: 2,
    listServers: () => host.servers.map(s => copy({
      name: s.name, state: s.state, message: s.message, transport: s.transportKind ?? s.declaration.type,
      serverInfo: s.serverInfo, protocolVersion: s.protocolVersion, instructions: s.instructions,
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
        // The catalogue (app-only tools) is known once the server is ready; a restart is waited for as callTool would.
        await conn.ready({ signal: options.signal }, 'tools/call');
        const refused = refusal(conn, tool);
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
    readResource: (server, uri, options) => {
      const conn = host.require(server);
      // A server cut off from models (all its tools disabled, or excluded from chat) is cut off from other extensions too.
      if (conn.declaration.disabled || isServerDisabledForModels(server)) return Promise.reject(new Error(`The user disabled the MCP server "${server}" for language models and other extensions.`));
      return conn.readResource(uri, options);
    },
    getPrompt: (server, name, args, options) => host.require(server).getPrompt(name, args, options),
    onDidChangeServers: relay(host.onDidChangeServers, () => undefined),
    onDidChangeServerState: relay(host.onDidChangeState, e => ({ server: e.server, state: e.state, message: e.message })),
    onDidChangeCatalog: relay(host.onDidChangeCatalog, e => ({ server: e.server, kind: e.kind })),
    activationMs,
    get toolActivity() { return activity.recent.map(copy); },
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

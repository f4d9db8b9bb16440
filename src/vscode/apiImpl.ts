/** Builds the exported API over the running host (see api.ts for the contract). */
import type * as vscode from 'vscode';
import type { McpHost } from '../core';
import type { McpHostApi } from './api';
import type { ToolActivityLog } from './chat/activityLog';

export function createApi(host: McpHost, activity: ToolActivityLog, extra: Pick<McpHostApi, 'activationMs' | 'logUri' | 'serversView' | 'resourcesView' | 'reload'>): McpHostApi {
  const of = (server?: string) => (o: { server: string }) => !server || o.server === server;
  return {
    version: 1,
    listServers: () => host.servers.map(s => ({
      name: s.name, state: s.state, message: s.message, transport: s.transportKind ?? s.declaration.type,
      serverInfo: s.serverInfo, protocolVersion: s.protocolVersion, instructions: s.instructions,
    })),
    listTools: server => host.tools.filter(of(server)).map(o => ({ server: o.server, tool: o.item })),
    listResources: server => host.resources.filter(of(server)).map(o => ({ server: o.server, resource: o.item })),
    listResourceTemplates: server => host.resourceTemplates.filter(of(server)).map(o => ({ server: o.server, template: o.item })),
    listPrompts: server => host.prompts.filter(of(server)).map(o => ({ server: o.server, prompt: o.item })),
    async callTool(server, tool, args = {}, options = {}) {
      const started = Date.now();
      try {
        const r = await host.require(server).callTool(tool, args, options);
        activity.add({ server, tool, args, outcome: r.isError ? 'error-result' : 'ok', durationMs: Date.now() - started, result: JSON.stringify(r.content).slice(0, 2000), approvedBy: 'extension API' });
        return r;
      } catch (e) {
        activity.add({ server, tool, args, outcome: 'failed', durationMs: Date.now() - started, result: e instanceof Error ? e.message : String(e), approvedBy: 'extension API' });
        throw e;
      }
    },
    readResource: (server, uri, options) => host.require(server).readResource(uri, options),
    getPrompt: (server, name, args, options) => host.require(server).getPrompt(name, args, options),
    onDidChangeServers: host.onDidChangeServers as vscode.Event<void>,
    onDidChangeServerState: ((listener, thisArgs, disposables) =>
      host.onDidChangeState(e => listener.call(thisArgs, { server: e.server, state: e.state, message: e.message }), undefined, disposables)) as McpHostApi['onDidChangeServerState'],
    onDidChangeCatalog: host.onDidChangeCatalog as McpHostApi['onDidChangeCatalog'],
    host,
    toolActivity: activity.recent, // the log's own array: stays current (extension.ts spreads this object, which would freeze a getter)
    ...extra,
  };
}

/**
 * The exported API as activate() returns it, before the host bundle has loaded: the same version-2
 * façade (api.ts), whose calls wait for the host. `listServers()` lists the declared servers at once
 * (`starting`; disabled and excluded servers are in no list, as in api.ts), read by the early bundle; the
 * catalogues are empty until servers run. The host's own first list follows with onDidChangeServers.
 */
import * as vscode from 'vscode';
import type { McpHostApi } from '../api';
import type { DeclaredServer, LoadedHost } from './contract';

export interface LazyApi {
  readonly api: McpHostApi;
  /** Called once the host has loaded: from now on the façade forwards to the host's. */
  attach(host: LoadedHost): vscode.Disposable;
}

/** `declared`: the servers the early bundle read, starting it if it has not run yet (undefined when it could not run). */
export function createLazyApi(load: () => Promise<LoadedHost>, activationMs: number, declared: () => readonly DeclaredServer[] | undefined): LazyApi {
  let host: McpHostApi | undefined;
  const servers = new vscode.EventEmitter<void>();
  const states = new vscode.EventEmitter<Parameters<Parameters<McpHostApi['onDidChangeServerState']>[0]>[0]>();
  const catalog = new vscode.EventEmitter<Parameters<Parameters<McpHostApi['onDidChangeCatalog']>[0]>[0]>();
  const loaded = async () => (await load()).api;
  const api: McpHostApi = {
    version: 2,
    // As the host lists them once it has loaded: a disabled server `stopped`, an excluded one not at all.
    listServers: () => host?.listServers() ?? (declared() ?? []).filter(d => !d.excluded).map(d => ({ name: d.name, state: d.disabled ? 'stopped' : 'starting', transport: d.transport })),
    listTools: server => host?.listTools(server) ?? [],
    listResources: server => host?.listResources(server) ?? [],
    listResourceTemplates: server => host?.listResourceTemplates(server) ?? [],
    listPrompts: server => host?.listPrompts(server) ?? [],
    callTool: async (...args) => (await loaded()).callTool(...args),
    readResource: async (...args) => (await loaded()).readResource(...args),
    getPrompt: async (...args) => (await loaded()).getPrompt(...args),
    onDidChangeServers: servers.event,
    // Each listener gets its own payload, as from the host's façade (one extension cannot change what the next sees).
    onDidChangeServerState: (listener, thisArgs, disposables) => states.event(e => listener.call(thisArgs, { ...e }), undefined, disposables),
    onDidChangeCatalog: (listener, thisArgs, disposables) => catalog.event(e => listener.call(thisArgs, { ...e }), undefined, disposables),
    activationMs,
    get toolActivity() { return host?.toolActivity ?? []; },
  };
  return {
    api: Object.freeze(api),
    attach(loadedHost) {
      host = loadedHost.api;
      const subscriptions = [
        host.onDidChangeServers(() => servers.fire()),
        host.onDidChangeServerState(e => states.fire(e)),
        host.onDidChangeCatalog(e => catalog.fire(e)),
      ];
      return new vscode.Disposable(() => { for (const d of [...subscriptions, servers, states, catalog]) d.dispose(); });
    },
  };
}

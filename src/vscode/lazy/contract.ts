/**
 * The boundary between the two bundles (esbuild.mjs): the activation entry (src/extension.ts) registers
 * every contribution without loading the MCP SDK, then `require`s the host bundle (src/host.ts), which
 * builds the core and fills those contributions in. Both sides import this file; it holds types and
 * constants only, so it pulls nothing into the activation bundle.
 */
import type * as vscode from 'vscode';
import type { McpHostApi } from '../api';
import type { EarlyProcesses } from '../../core/connection/earlyProcesses';

export const PARTICIPANT_ID = 'mcpHost.mcp';
export const SERVERS_VIEW_ID = 'mcpHost.servers';
export const RESOURCES_VIEW_ID = 'mcpHost.resources';
/** `contributes.mcpServerDefinitionProviders[].id` in package.json. */
export const MCP_PROVIDER_ID = 'mcpHost.servers';

/** The file the activation entry loads, next to it (dist/host.js in the .vsix, out/src/host.js under tsc). */
export const HOST_BUNDLE_FILE = 'host.js';

/** The bundle that starts the user's local servers while the host bundle loads (src/early.ts; no SDK). */
export const EARLY_BUNDLE_FILE = 'early.js';

/** What the early bundle started; the host hands each process to the connection of the same launch. */
export interface EarlyStartup {
  readonly processes: EarlyProcesses;
  /** Settles once every process that could start early was spawned (no I/O is awaited before that). */
  readonly ready: Promise<void>;
  /** The servers the host will take, as the settings declare them at activation (parsed like the host does, Workspace Trust applied). */
  readonly declared: readonly DeclaredServer[];
}

/** What the API lists of a server before the host bundle has loaded. */
export interface DeclaredServer {
  readonly name: string;
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly disabled: boolean;
  /** In `mcpHost.chat.excludedServers`: cut off from models, so in no list of the API. */
  readonly excluded: boolean;
}

export interface EarlyBundle {
  /**
   * `ledgerDir`: where every launch is written down, so the next activation can end what a dead host left.
   * `catalogDir`: the catalogue cache; an on-demand server with an entry there is not started early.
   */
  start(ledgerDir?: string, catalogDir?: string): EarlyStartup;
}

/** The launch ledger's folder under the extension's global storage (core/connection/processLedger.ts). */
export function ledgerDir(globalStorage: string): string { return `${globalStorage}/launches`; }

/** The catalogue cache's folder under the extension's global storage (core/catalog/catalogCache.ts). */
export function catalogDir(globalStorage: string): string { return `${globalStorage}/catalogs`; }

/** What the host gets of the early start: the processes, or why the early bundle could not run. */
export type EarlyOutcome = EarlyStartup | { readonly error: string };

/** What the activation entry registered before the host loaded; the host bundle supplies the implementations. */
export interface LateContributions {
  /** The view created at activation (showing "starting" until now); `provider` gives its data from now on. */
  treeView<T>(id: string, provider: vscode.TreeDataProvider<T>): vscode.TreeView<T>;
  /** Implements a language-model tool declared in package.json (registered at activation). */
  registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable;
  /** Handles requests to the `@mcp` participant (created at activation). */
  chatHandler(handler: vscode.ChatRequestHandler): vscode.Disposable;
  /**
   * Supplies the MCP server definitions of the provider registered at activation (VS Code asks for
   * providers during activation); undefined when this VS Code has no such API.
   */
  mcpServerDefinitions(provider: vscode.McpServerDefinitionProvider): vscode.Disposable | undefined;
}

export interface LoadedHost {
  /** The façade over the running host (apiImpl.ts); the activation entry's API forwards to it. */
  readonly api: McpHostApi;
  /** Stops every server and waits for their process trees to exit. */
  shutdown(): Promise<void>;
}

/** The host bundle's exports. */
export interface HostBundle {
  /**
   * `early`: what the early bundle started, or why it could not run (the host then starts every server
   * itself). The activation entry stops what no server took when the host goes (deactivate, a failed load).
   */
  start(context: vscode.ExtensionContext, late: LateContributions, activationMs: number, early: EarlyOutcome | undefined): LoadedHost;
}

/**
 * The API returned from `activate()` for other extensions:
 *
 *   const api = await vscode.extensions.getExtension<McpHostApi>('mcp-host.mcp-host')!.activate();
 *   const result = await api.callTool('everything', 'echo', { message: 'hi' });
 *
 * Versioned: `version` changes only when a member is removed or changes meaning. MCP payloads use
 * the types of `@modelcontextprotocol/sdk/types.js` (protocol 2025-11-25).
 */
import type * as vscode from 'vscode';
import type { CallToolResult, GetPromptResult, Implementation, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogKind, McpHost, ServerState } from '../core';
import type { McpHostTestHooks } from './testHooks';
import type { ToolActivity } from './chat/activityLog';

export interface McpServerSummary {
  readonly name: string;
  readonly state: ServerState;
  /** Why the server is in its state (error text, restart countdown). */
  readonly message?: string;
  readonly transport: 'stdio' | 'http' | 'sse';
  readonly serverInfo?: Implementation;
  readonly protocolVersion?: string;
  readonly instructions?: string;
}

export interface McpCallOptions {
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

export interface McpHostApi {
  readonly version: 1;
  listServers(): McpServerSummary[];
  /** Tools of running servers; `server` narrows to one server. */
  listTools(server?: string): { server: string; tool: Tool }[];
  listResources(server?: string): { server: string; resource: Resource }[];
  listResourceTemplates(server?: string): { server: string; template: ResourceTemplate }[];
  listPrompts(server?: string): { server: string; prompt: Prompt }[];
  /** Calls a tool directly (no confirmation: extensions are trusted code); recorded in the tool activity log. */
  callTool(server: string, tool: string, args?: Record<string, unknown>, options?: McpCallOptions): Promise<CallToolResult>;
  readResource(server: string, uri: string, options?: McpCallOptions): Promise<ReadResourceResult>;
  getPrompt(server: string, name: string, args?: Record<string, string>, options?: McpCallOptions): Promise<GetPromptResult>;
  /** Servers were added or removed. */
  readonly onDidChangeServers: vscode.Event<void>;
  readonly onDidChangeServerState: vscode.Event<{ server: string; state: ServerState; message?: string }>;
  readonly onDidChangeCatalog: vscode.Event<{ server: string; kind: CatalogKind }>;

  // ---- advanced and diagnostics ----
  /** The embeddable core behind the extension (see src/core); for advanced embedders and tests. */
  readonly host: McpHost;
  /** Milliseconds from the first statement of the bundle to the end of activate() (servers start afterwards, in the background). */
  readonly activationMs: number;
  /** Folder of this extension's log files (one per server channel). */
  readonly logUri: string;
  /** The Servers view's data provider (its tree items are what the user sees). */
  readonly serversView: vscode.TreeDataProvider<unknown>;
  /** The Resources view's data provider. */
  readonly resourcesView?: vscode.TreeDataProvider<unknown>;
  /** Re-applies the settings; resolves when every server start has settled. */
  reload(): Promise<unknown>;
  /** The tool activity log's recent entries (oldest first, at most 500), as the log recorded them. */
  readonly toolActivity: readonly ToolActivity[];
  /** Hooks for MCP Host's own integration tests (see testHooks.ts); not a stable API. */
  readonly testing?: McpHostTestHooks;
}

/**
 * The API returned from `activate()` for other extensions. Versioned; this first version exposes
 * the running host so tests and embedders can observe servers (the full typed API comes with the
 * "Tools for chat" issue).
 */
import type * as vscode from 'vscode';
import type { McpHost } from '../core';
import type { McpHostTestHooks } from './testHooks';

export interface McpHostApi {
  readonly version: 0;
  readonly host: McpHost;
  /** Milliseconds from the first statement of the bundle to the end of activate() (servers start afterwards, in the background). */
  readonly activationMs: number;
  /** Folder of this extension's log files (one per server channel), for diagnostics. */
  readonly logUri: string;
  /** The Resources view's data provider (servers → templates and resources, paged), for diagnostics and tests. */
  readonly resourcesView?: vscode.TreeDataProvider<unknown>;
  /** Applies the current settings and resolves when every server start has settled. */
  reload(): Promise<unknown>;
  /** Hooks for MCP Host's own integration tests (see testHooks.ts); not a stable API. */
  readonly testing?: McpHostTestHooks;
}

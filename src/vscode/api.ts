/**
 * The API returned from `activate()` for other extensions. Versioned; this first version exposes
 * the running host so tests and embedders can observe servers (the full typed API comes with the
 * "Tools for chat" issue).
 */
import type { McpHost } from '../core';
import type { McpHostTestHooks } from './testHooks';

export interface McpHostApi {
  readonly version: 0;
  readonly host: McpHost;
  /** Folder of this extension's log files (one per server channel), for diagnostics. */
  readonly logUri: string;
  /** Applies the current settings and resolves when every server start has settled. */
  reload(): Promise<unknown>;
  /** Hooks for MCP Host's own integration tests (see testHooks.ts); not a stable API. */
  readonly testing?: McpHostTestHooks;
}

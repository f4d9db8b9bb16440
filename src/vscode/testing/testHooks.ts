/**
 * Hooks for MCP Host's own integration tests, exported as `testing` next to the API — only by
 * development bundles: extension.ts builds them under MCP_HOST_TEST_BUILD, which the production
 * bundle (the .vsix) defines false, so this module and everything only it uses are not shipped.
 * Not an API: they reach the core (secret store included), the live QuickInput and the UI.
 */
import type * as vscode from 'vscode';
import type { EarlyStart } from '../../core/connection/earlyProcesses';
import type { McpHost } from '../../core';
import type { SamplingLogEntry } from '../../core/sampling';
import type { AppsFeature } from '../apps/appsFeature';
import type { ElicitationUi } from '../elicitation/elicitationUi';
import type { SamplingFeature } from '../sampling/samplingFeature';
import { quickInputProbe } from './quickInputProbe';

export interface McpHostTestHooks {
  /** The embeddable core behind the extension (src/core). */
  readonly host: McpHost;
  /** Folder of this extension's log files (one per server channel). */
  readonly logUri: string;
  /** The Servers view's data provider (its tree items are what the user sees). */
  readonly serversView: vscode.TreeDataProvider<unknown>;
  /** The Resources view's data provider. */
  readonly resourcesView?: vscode.TreeDataProvider<unknown>;
  /** Re-applies the settings; resolves when every server start has settled. */
  reload(): Promise<unknown>;
  /** The QuickPick/InputBox a multi-step flow shows right now, and an event when a new one appears. */
  readonly quickInput: typeof quickInputProbe;
  /** The elicitation UI (pending URL completions, `callWithUrlElicitation`). */
  readonly elicitation: ElicitationUi;
  /** MCP Apps: the open panels (their documents, policies and webview HTML). */
  readonly apps: AppsFeature;
  /** The sampling log's entries as plain JSON. */
  samplingLogEntries(): SamplingLogEntry[];
  /**
   * How this window's host started, on the extension host's `performance.now()` clock: when the host
   * bundle's evaluation began (undefined unbundled), and what the early bundle spawned before it.
   */
  readonly startup: { readonly hostLoadStart?: number; readonly early?: readonly EarlyStart[] };
}

export function createTestHooks(deps: Omit<McpHostTestHooks, 'quickInput' | 'samplingLogEntries'> & { sampling: SamplingFeature }): McpHostTestHooks {
  const { sampling, ...rest } = deps;
  return {
    ...rest,
    quickInput: quickInputProbe,
    samplingLogEntries: () => JSON.parse(JSON.stringify(sampling.service.log.entries)) as SamplingLogEntry[],
  };
}

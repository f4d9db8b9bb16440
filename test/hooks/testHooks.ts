/**
 * Hooks for MCP Host's own integration tests, exported as `testing` next to the API by the test build
 * only (esbuild.mjs: a development build bundles test/hooks/extension.ts and host.ts as its entries;
 * the production bundle, the .vsix, is built from src/ alone and has none of this).
 * Not an API: they reach the core (secret store included), the live QuickInput and the UI.
 */
import type * as vscode from 'vscode';
import type { EarlyStart } from '../../src/core/connection/earlyProcesses';
import type { McpHost } from '../../src/core';
import type { SamplingLogEntry } from '../../src/core/sampling';
import type { AppsFeature } from '../../src/vscode/apps/appsFeature';
import type { ElicitationUi } from '../../src/vscode/elicitation/elicitationUi';
import type { BuiltHost } from '../../src/host';
import { quickInputProbe } from './quickInputProbe';

export interface McpHostTestHooks {
  /** The embeddable core behind the extension (src/core). */
  readonly host: McpHost;
  /** Folder of this extension's log files (one per server channel). */
  readonly logUri: string;
  /** The Servers view's data provider (its tree items are what the user sees). */
  readonly serversView: vscode.TreeDataProvider<unknown>;
  /** Where the Servers view's icon files are written (`<globalStorage>/server-icons`), if storage is a local folder. */
  readonly serverIconsFolder?: string;
  /** The Resources view's data provider. */
  readonly resourcesView?: vscode.TreeDataProvider<unknown>;
  /** Re-applies the settings; resolves when every server start has settled. */
  reload(): Promise<unknown>;
  /** The QuickPick/InputBox MCP Host shows right now, and an event when a new one appears. */
  readonly quickInput: typeof quickInputProbe;
  /** The elicitation UI (pending URL completions, `callWithUrlElicitation`). */
  readonly elicitation: ElicitationUi;
  /** MCP Apps: the open panels (their documents, policies and webview HTML). */
  readonly apps: AppsFeature;
  /** The `mcp-host-resource:` URI this window mints for a resource (as opening it would), without reading it. */
  resourceUri(server: string, uri: string, part: number, fileName: string): vscode.Uri;
  /** This window's gateway (started on first use) and the MCP server definitions VS Code's chat gets. */
  readonly gateway: BuiltHost['gateway'];
  readonly native: BuiltHost['native'];
  /** The sampling log's entries as plain JSON. */
  samplingLogEntries(): SamplingLogEntry[];
  /**
   * How this window's host started, on the extension host's `performance.now()` clock: when the host
   * bundle's evaluation began (undefined unbundled), and what the early bundle spawned before it.
   */
  readonly startup: { readonly hostLoadStart?: number; readonly early?: readonly EarlyStart[] };
}

export function createTestHooks(built: BuiltHost, logUri: vscode.Uri, startup: McpHostTestHooks['startup']): McpHostTestHooks {
  const { controller, serversProvider, serverIcons, resources, elicitation, sampling, apps, gateway, native } = built;
  return {
    host: controller.host,
    logUri: logUri.toString(),
    serversView: serversProvider,
    serverIconsFolder: serverIcons.folder,
    resourcesView: resources.view,
    reload: () => controller.reload(),
    quickInput: quickInputProbe,
    elicitation,
    apps,
    resourceUri: (server, uri, part, fileName) => resources.fs.uriFor(server, uri, part, fileName),
    gateway,
    native,
    samplingLogEntries: () => JSON.parse(JSON.stringify(sampling.service.log.entries)) as SamplingLogEntry[],
    startup,
  };
}

/**
 * MCP Apps in VS Code: when a tool whose `_meta.ui.resourceUri` names a `ui://` resource runs for a
 * model (from @mcp, the language-model tools or the API), its app opens in the server's webview panel
 * and gets the input and result; later runs of the server's tools go to the same panel.
 * **MCP: Open App** brings a closed app back with the last run.
 */
import * as vscode from 'vscode';
import { AppLog, appResourceUri, plainText, type AppModelContext, type McpHost } from '../../core';
import type { ToolInvoker, ToolRun } from '../chat/toolInvoker';
import { AppPanel, type AppPanelDeps } from './appPanel';
import { showInfo, showWarning } from '../notify';

export const OPEN_APP_COMMAND = 'mcpHost.openApp';

export class AppsFeature implements vscode.Disposable {
  private readonly panels = new Map<string, AppPanel>();
  private readonly lastRuns = new Map<string, ToolRun>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly deps: AppPanelDeps;

  constructor(host: McpHost, invoker: ToolInvoker, log: (server: string) => vscode.LogOutputChannel, version: string) {
    // An app's lines go into its server's own log gate: one budget for the server and its apps.
    this.deps = { host, invoker, log, version, appLog: server => new AppLog(() => host.get(server)?.serverLog) };
    this.subscriptions.push(
      invoker.onDidRunTool(run => void this.open(run)),
      vscode.commands.registerCommand(OPEN_APP_COMMAND, (server?: unknown) => this.reopen(typeof server === 'string' ? server : undefined)),
    );
    const removed = host.onDidChangeServers(() => {
      for (const [server, panel] of this.panels) if (!host.get(server)) panel.dispose();
    });
    this.subscriptions.push({ dispose: () => removed.dispose() });
  }

  /** The panel of `server`'s app, if it is open (tests read its document and policy). */
  panel(server: string): AppPanel | undefined { return this.panels.get(server); }

  /** The context the open apps of `servers` last set for the model (`ui/update-model-context`). */
  modelContexts(servers: readonly string[]): { server: string; context: AppModelContext }[] {
    return servers.flatMap(server => { const context = this.panels.get(server)?.modelContext; return context ? [{ server, context }] : []; });
  }

  /** Opens (or updates) the app of `run`'s tool; tools without a UI are ignored. */
  async open(run: ToolRun): Promise<void> {
    const uri = appResourceUri(run.tool);
    if (!uri) return;
    this.lastRuns.set(run.server, run);
    let panel = this.panels.get(run.server);
    if (!panel) {
      const created = new AppPanel(run.server, this.deps, () => { if (this.panels.get(run.server) === created) this.panels.delete(run.server); });
      this.panels.set(run.server, created);
      panel = created;
    }
    try {
      await panel.show(run, uri);
    } catch (e) {
      // The URI is the tool's and the message may quote it or the server's answer: one clean line each,
      // or a line break in them would print lines that read as the host's own.
      const message = plainText(e instanceof Error ? e.message : String(e), { singleLine: true, maxLength: 500 });
      this.deps.log(run.server).error(`MCP App ${plainText(uri, { singleLine: true, maxLength: 200 })} could not be shown: ${message}`);
      panel.dispose();
      const showLog = vscode.l10n.t('Show Log');
      if (await showWarning(vscode.l10n.t('The app of MCP server "{0}" could not be shown: {1}', run.server, message), showLog) === showLog) this.deps.log(run.server).show(true);
    }
  }

  private async reopen(server?: string): Promise<void> {
    const servers = [...this.lastRuns.keys()];
    const chosen = server ?? (servers.length === 1 ? servers[0] : await vscode.window.showQuickPick(servers, { placeHolder: vscode.l10n.t('Open the app of which MCP server?') }));
    if (!chosen) return;
    const open = this.panels.get(chosen);
    if (open) { open.panel.reveal(); return; }
    const run = this.lastRuns.get(chosen);
    if (run) await this.open(run);
    else void showInfo(vscode.l10n.t('No app of MCP server "{0}" has run yet.', chosen));
  }

  dispose(): void {
    for (const p of [...this.panels.values()]) p.dispose();
    this.panels.clear();
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }
}

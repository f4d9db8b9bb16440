/**
 * The end every way of adding a server shares (Add Server, registry and link installs, bundles): write
 * the declaration where the user chose, show the Servers view, start the server under a progress
 * notification, and say how it went. A failed start is reported by the host controller (error
 * notification with "Show Log"); a workspace declaration in an untrusted workspace waits for trust.
 */
import * as vscode from 'vscode';
import type { HostController } from '../hostController';
import type { InputStore } from '../inputs';
import type { ServerLogs } from '../logs';
import type { RegistryInstallRecords } from '../registry/installRecords';
import { waitForStart, writeAdditions, type Additions, type Target } from './settingsWriter';
import { showInfo, showWarning, withProgress } from '../notify';

/** What every way of adding a server needs of the extension (Add Server, imports, registry and link installs, bundles). */
export interface OnboardingContext {
  readonly controller: HostController;
  readonly inputs: InputStore;
  readonly logs: ServerLogs;
  /** Where an install from the registry is recorded (what a registryOnly policy admits); absent: nothing is. */
  readonly registryInstalls?: RegistryInstallRecords;
}

export async function declareAndStart(ctx: OnboardingContext, target: Target, name: string, additions: Additions): Promise<{ state?: string; message?: string }> {
  await writeAdditions(target, additions, ctx.inputs);
  void vscode.commands.executeCommand('mcpHost.servers.focus');
  const settled = await withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting MCP server "{0}"…', name) },
    () => waitForStart(ctx.controller.host, () => ctx.controller.reload(), name),
  );
  if (settled?.state === 'running') {
    const tools = ctx.controller.host.get(name)?.catalog.get('tools').length ?? 0;
    const showLog = vscode.l10n.t('Show Log');
    void showInfo(vscode.l10n.t('MCP server "{0}" is running with {1} tool(s).', name, tools), showLog)
      .then(choice => { if (choice === showLog) ctx.logs.show(name); });
  } else if (target === 'workspace' && !vscode.workspace.isTrusted) {
    void showWarning(vscode.l10n.t('MCP server "{0}" was added to the workspace settings; it starts once you trust this workspace.', name));
  }
  return { state: settled?.state, message: settled?.message };
}

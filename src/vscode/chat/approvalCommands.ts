/** MCP: Manage Tool Approvals…: the stored approvals (each bound to a program and a caller, see core toolApproval) of every lifetime — this session's, this workspace's, always — unchecking one revokes it. */
import * as vscode from 'vscode';
import type { StoredApproval, ToolApprovals } from '../../core';
import { pickText } from '../pickText';
import { showInfo } from '../notify';

export function registerApprovalCommands(approvals: ToolApprovals): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mcpHost.manageToolApprovals', async () => {
      const all = approvals.all();
      if (!all.length) { void showInfo(vscode.l10n.t('No MCP tool approvals are stored.')); return; }
      type Item = vscode.QuickPickItem & { approval: StoredApproval };
      const items: Item[] = all.map(a => ({ label: describe(a), description: [scopeLabel(a), lifetimeLabel(a), ...(a.caller === 'app' ? [vscode.l10n.t('when its app asks')] : [])].join(' · '), detail: vscode.l10n.t('allowed {0}', a.granted), picked: true, approval: a }));
      const kept = await vscode.window.showQuickPick(items, {
        canPickMany: true,
        title: vscode.l10n.t('MCP tool approvals'),
        placeHolder: vscode.l10n.t('Uncheck an approval to revoke it (the next use asks again)'),
      });
      if (!kept) return;
      const keep = new Set(kept.map(k => k.approval));
      for (const item of items) if (!keep.has(item.approval)) await approvals.revoke(item.approval);
    }),
  ];
}

function describe(a: StoredApproval): string {
  const server = pickText(a.server, 100);
  switch (a.kind) {
    case 'tool': return vscode.l10n.t('Tool "{0}" of "{1}"', pickText(a.tool ?? '', 100), server);
    case 'server': return vscode.l10n.t('Every tool of "{0}"', server);
    case 'resources': return vscode.l10n.t('Reading resources of "{0}"', server);
    case 'sampling': return vscode.l10n.t('Language model requests (sampling) of "{0}"', server);
  }
}

/** How long the approval lasts: this session (memory only), this workspace, or always. */
function lifetimeLabel(a: StoredApproval): string {
  return a.lifetime === 'session' ? vscode.l10n.t('for this session') : a.lifetime === 'workspace' ? vscode.l10n.t('in this workspace') : vscode.l10n.t('always');
}

function scopeLabel(a: StoredApproval): string {
  return a.scope === 'user' ? vscode.l10n.t('server from user settings') : vscode.l10n.t('server from this workspace');
}

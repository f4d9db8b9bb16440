/** Commands of the tools feature: enable/disable tools, show and export the activity log. */
import * as vscode from 'vscode';
import type { McpHost } from '../../core';
import type { ToolActivityLog } from './activityLog';
import { pickText } from '../pickText';
import { disabledPatterns, isToolEnabled, setDisabled, userDisabledPatterns } from './toolSettings';
import { showInfo } from '../notify';

export function registerToolCommands(host: McpHost, log: ToolActivityLog): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('mcpHost.configureTools', async () => {
      const disabled = disabledPatterns();
      // Titles and descriptions are the server's text: no icons, controls or bidi in the picker (pickText).
      const items = host.tools.map(o => ({ label: pickText(o.item.title ?? o.item.name), description: pickText(o.server), detail: o.item.description ? pickText(o.item.description.split('\n')[0]) : undefined, picked: isToolEnabled(o.server, o.item.name, disabled), key: `${o.server}/${o.item.name}`, server: o.server, tool: o.item.name }));
      if (!items.length) { void showInfo(vscode.l10n.t('No MCP tools are available.')); return; }
      const picked = await vscode.window.showQuickPick(items, { canPickMany: true, title: vscode.l10n.t('Enabled MCP tools'), placeHolder: vscode.l10n.t('Unchecked tools are never offered to language models') });
      if (!picked) return;
      const on = new Set(picked.map(p => p.key));
      // A tool only the workspace disables stays the workspace's choice: it is not copied into user settings.
      const mine = userDisabledPatterns();
      const byWorkspaceOnly = (i: typeof items[number]) => !i.picked && isToolEnabled(i.server, i.tool, mine);
      await setDisabled(items.filter(i => !on.has(i.key) && !byWorkspaceOnly(i)).map(i => i.key));
    }),
    vscode.commands.registerCommand('mcpHost.showToolActivity', () => log.show()),
    // Any extension can execute a command: `target` (a Uri) is only what the save dialog proposes, the
    // user picks the file. Returns the written file.
    vscode.commands.registerCommand('mcpHost.exportToolActivity', async (target?: unknown) => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const uri = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Tool Activity'),
        defaultUri: target instanceof vscode.Uri ? target : folder ? vscode.Uri.joinPath(folder, 'mcp-tool-activity.json') : undefined,
        filters: { JSON: ['json'] },
      });
      if (!uri) return undefined;
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(log.toJson()));
      return uri;
    }),
  ];
}

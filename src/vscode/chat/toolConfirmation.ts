/**
 * Asks before a tool runs: a QuickPick naming the server, the tool and its arguments, with
 * allow once / always for this tool / always for this server / deny. Closing it means deny.
 */
import * as vscode from 'vscode';

export type ToolDecision = 'once' | 'tool' | 'server' | 'deny';

export async function confirmToolCall(server: string, tool: string, title: string | undefined, args: unknown, token?: vscode.CancellationToken): Promise<ToolDecision> {
  const argText = JSON.stringify(args ?? {});
  type Item = vscode.QuickPickItem & { decision: ToolDecision };
  const items: Item[] = [
    { label: `$(check) ${vscode.l10n.t('Allow once')}`, decision: 'once' },
    { label: `$(check-all) ${vscode.l10n.t('Always allow "{0}"', tool)}`, description: vscode.l10n.t('from {0}', server), decision: 'tool' },
    { label: `$(server) ${vscode.l10n.t('Always allow every tool from "{0}"', server)}`, decision: 'server' },
    { label: `$(close) ${vscode.l10n.t('Deny')}`, decision: 'deny' },
  ];
  const qp = vscode.window.createQuickPick<Item>();
  qp.title = vscode.l10n.t('MCP server "{0}" wants to run tool "{1}"', server, title ?? tool);
  qp.placeholder = argText.length > 300 ? `${argText.slice(0, 300)}…` : argText;
  qp.items = items;
  qp.ignoreFocusOut = true;
  const disposables: vscode.Disposable[] = [qp];
  try {
    return await new Promise<ToolDecision>(resolve => {
      disposables.push(
        qp.onDidAccept(() => resolve(qp.selectedItems[0]?.decision ?? 'deny')),
        qp.onDidHide(() => resolve('deny')),
      );
      if (token) disposables.push(token.onCancellationRequested(() => resolve('deny')));
      qp.show();
    });
  } finally {
    for (const d of disposables) d.dispose();
  }
}

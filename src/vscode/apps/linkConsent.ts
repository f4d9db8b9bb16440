/**
 * `ui/open-link` from an app: the safe-URL rule first (a refused link is reported and never offered),
 * then the user confirms in a QuickPick that names the full host — Cancel is the active item, so a
 * stray Enter opens nothing — and only then the shared opener opens exactly the checked URL.
 */
import * as vscode from 'vscode';
import { checkOpenableUrl, plainText } from '../../core';
import { hostLabel, openUrlForServer, type OpenOutcome } from '../safeUrl';

type Item = vscode.QuickPickItem & { readonly open: boolean };

export async function openAppLink(server: string, url: string): Promise<OpenOutcome> {
  const checked = checkOpenableUrl(url);
  if (!checked.ok) return openUrlForServer(url, { server });
  const host = hostLabel(checked);
  const items: Item[] = [
    { label: vscode.l10n.t('$(close) Cancel'), open: false },
    { label: vscode.l10n.t('$(link-external) Open {0}', host), detail: plainText(checked.url.href, { singleLine: true, maxLength: 500 }), open: true },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('The app of MCP server "{0}" wants to open a link on {1}', server, host),
    placeHolder: vscode.l10n.t('Your browser opens the page only if you choose to open it.'),
    ignoreFocusOut: true,
  });
  if (!picked?.open) return 'cancelled';
  // The user has seen the host above: the opener checks again and opens exactly this URL.
  return openUrlForServer(checked.url, { server });
}

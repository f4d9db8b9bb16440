/**
 * The one consent for installing a server, whoever asks (the registry browser, an install link,
 * another extension): a QuickPick that shows the full command line (or URL), every variable and
 * header, and where the request came from. Cancel is the active item, so a stray Enter, Escape or a
 * click elsewhere installs nothing; only choosing an "Install in …" item does.
 */
import * as vscode from 'vscode';
import { chunkText, launchPreview } from '../../core/registry';
import { hasWorkspace, type Target } from '../onboarding/settingsWriter';

/** Labels render `$(icon)`; a command line must read as typed. */
const literal = (line: string) => line.replace(/\$\(/g, '\\$(');

interface ConsentItem extends vscode.QuickPickItem { readonly target?: Target | 'cancel' }

export interface InstallConsentRequest {
  readonly name: string;
  readonly declaration: Readonly<Record<string, unknown>>;
  /** Who asks: "the MCP registry at …", "an install link", "extension x.y". Shown as it is (our own text). */
  readonly source: string;
}

/** Where the user chose to install, or undefined. The caller has refused declarations that hide characters. */
export async function confirmInstall(request: InstallConsentRequest): Promise<Target | undefined> {
  const preview = launchPreview(request.declaration);
  const isUrl = typeof request.declaration.url === 'string';
  const items: ConsentItem[] = [
    { target: 'cancel', label: `$(close) ${vscode.l10n.t('Cancel')}`, description: vscode.l10n.t('install nothing') },
    { target: 'user', label: `$(account) ${vscode.l10n.t('Install in User settings')}`, description: vscode.l10n.t('available in every workspace') },
    ...(hasWorkspace() ? [{ target: 'workspace' as const, label: `$(folder) ${vscode.l10n.t('Install in Workspace settings')}`, description: vscode.l10n.t('only in this workspace') }] : []),
    { kind: vscode.QuickPickItemKind.Separator, label: isUrl ? vscode.l10n.t('Connects to') : vscode.l10n.t('Will run') },
    ...chunkText(preview.commandLine).map(line => ({ label: literal(line) })),
    ...(preview.settings.length ? [{ kind: vscode.QuickPickItemKind.Separator, label: isUrl ? vscode.l10n.t('Headers') : vscode.l10n.t('Environment') }] : []),
    ...preview.settings.flatMap(s => chunkText(s.text).map((line, i) => ({
      label: literal(line),
      ...(i === 0 && s.risk ? { description: `$(warning) ${vscode.l10n.t('makes the program load or fetch other code')}` } : {}),
    }))),
  ];
  const qp = vscode.window.createQuickPick<ConsentItem>();
  qp.title = vscode.l10n.t('Install MCP server "{0}"? Requested by {1}', request.name, request.source);
  qp.placeholder = isUrl
    ? vscode.l10n.t('Read the URL below. Values shown as ${input:…} are asked for when the server first starts.')
    : vscode.l10n.t('Read the whole command line below: it runs on this computer with your rights. Values shown as ${input:…} are asked for when the server first starts.');
  qp.items = items;
  qp.activeItems = [items[0]];
  qp.ignoreFocusOut = true;
  qp.matchOnDescription = false;
  const disposables: vscode.Disposable[] = [];
  try {
    return await new Promise<Target | undefined>(resolve => {
      disposables.push(
        qp.onDidAccept(() => {
          const target = qp.selectedItems[0]?.target;
          if (!target) return; // a line of the preview: keep reading
          resolve(target === 'cancel' ? undefined : target);
        }),
        qp.onDidHide(() => resolve(undefined)),
      );
      qp.show();
    });
  } finally {
    disposables.forEach(d => d.dispose());
    qp.dispose();
  }
}

/**
 * The only way MCP Host opens a URL for a server (OAuth authorization pages, URL elicitations, links
 * from apps): the core's safe-URL rule decides (https; http only to this machine; no credentials), a
 * refused URL is reported and never reaches `vscode.env.openExternal`, and the full host (its
 * punycode form too, so a look-alike shows) is put in front of the user before anything opens.
 */
import * as vscode from 'vscode';
import { checkOpenableUrl, type SafeUrl, type SafeUrlCheck } from '../core';
import { showError, showWarning } from './notify';

export type OpenOutcome = 'opened' | 'refused' | 'cancelled' | 'failed';

export interface OpenForServerOptions {
  /** The server the URL comes from, as the user knows it. */
  readonly server: string;
  /**
   * Ask before opening, in a modal whose detail names the full host. Leave it out only when the
   * caller's own consent already showed {@link hostLabel} of this URL (the URL elicitation step).
   */
  readonly confirm?: { readonly message: string; readonly button: string };
  /**
   * Opens the checked URL. Default: `vscode.env.openExternal` with the exact string, which it accepts
   * at run time (ExtHostWindow.openUri); a parsed `Uri` would re-encode the query (`%2F`, `+`).
   */
  readonly open?: (url: URL) => Thenable<boolean>;
}

/**
 * Checks `raw`, asks if requested, then opens it. A refused URL is reported to the user (the reason,
 * and which server asked) and `'refused'` returned; nothing is opened then.
 */
export async function openUrlForServer(raw: string | URL, options: OpenForServerOptions): Promise<OpenOutcome> {
  const checked = checkOpenableUrl(raw);
  if (!checked.ok) {
    void showError(refusalMessage(options.server, checked));
    return 'refused';
  }
  if (options.confirm) {
    const choice = await showWarning(options.confirm.message, {
      modal: true,
      detail: vscode.l10n.t('Your browser opens a page on {0}:\n{1}', hostLabel(checked), checked.url.href),
    }, options.confirm.button);
    if (choice !== options.confirm.button) return 'cancelled';
  }
  const open = options.open ?? (url => vscode.env.openExternal(url.href as unknown as vscode.Uri));
  return await open(checked.url) ? 'opened' : 'failed';
}

/** The host as the user must read it: the ASCII form the browser resolves, plus the Unicode form when IDN makes them differ. */
export function hostLabel(safe: Pick<SafeUrl, 'host' | 'unicodeHost'>): string {
  return safe.unicodeHost !== safe.host ? vscode.l10n.t('{0} (displayed as "{1}")', safe.host, safe.unicodeHost) : safe.host;
}

/** Why a URL from `server` was not opened, in the user's language. */
export function refusalMessage(server: string, refused: Extract<SafeUrlCheck, { ok: false }>): string {
  switch (refused.code) {
    case 'scheme': return vscode.l10n.t('MCP Host did not open a link for MCP server "{0}": only https links are opened, not "{1}:" links.', server, refused.scheme ?? '?');
    case 'insecureHttp': return vscode.l10n.t('MCP Host did not open a link for MCP server "{0}": plain http links are opened only to this computer; {1} needs https.', server, refused.host ?? '?');
    case 'credentials': return vscode.l10n.t('MCP Host did not open a link for MCP server "{0}": it puts a user name or password before the host {1}, which disguises the site it goes to.', server, refused.host ?? '?');
    case 'controlCharacters': return vscode.l10n.t('MCP Host did not open a link for MCP server "{0}": it contains spaces or invisible characters.', server);
    default: return vscode.l10n.t('MCP Host did not open a link for MCP server "{0}": it is not a valid URL.', server);
  }
}

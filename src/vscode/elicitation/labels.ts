/** How the requesting server and its message are named in every elicitation input. */
import * as vscode from 'vscode';
import { plainText, unlinked, type ServerRef } from '../../core';

/** `Title (name)` when the server has a distinct title (its own words, so cleaned), else its configured name. */
export function serverLabel(server: ServerRef): string {
  const title = server.title && oneLine(server.title);
  return title && title !== server.name ? `${title} (${server.name})` : server.name;
}

/**
 * One clean line: servers may send multi-line messages (a QuickInput title shows one) and hide text in
 * escapes, bidi or invisible characters; the one cleaner removes them. Unlinked too: these labels also
 * reach notifications (and QuickInput titles of other kinds may render Markdown one day).
 */
export function oneLine(text: string): string {
  return unlinked(plainText(text, { singleLine: true }));
}

/** Title of a form step: names the server and shows its message. */
export function formTitle(server: ServerRef, message: string): string {
  const m = oneLine(message);
  return m ? vscode.l10n.t('MCP server "{0}" asks: {1}', serverLabel(server), m) : vscode.l10n.t('MCP server "{0}" asks for input', serverLabel(server));
}

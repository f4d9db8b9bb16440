/** How the requesting server and its message are named in every elicitation input. */
import * as vscode from 'vscode';
import type { ServerRef } from '../../core';

/** `Title (name)` when the server has a distinct title, else its configured name. */
export function serverLabel(server: ServerRef): string {
  return server.title && server.title !== server.name ? `${server.title} (${server.name})` : server.name;
}

/** One line: servers may send multi-line messages, a QuickInput title shows one. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Title of a form step: names the server and shows its message. */
export function formTitle(server: ServerRef, message: string): string {
  const m = oneLine(message);
  return m ? vscode.l10n.t('MCP server "{0}" asks: {1}', serverLabel(server), m) : vscode.l10n.t('MCP server "{0}" asks for input', serverLabel(server));
}

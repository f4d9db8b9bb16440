/** The Servers view's line that says where a server's tools are offered to language models. */
import * as vscode from 'vscode';
import type { ServerConnection } from '../../core';
import { SECTION } from '../config';
import { chatExcludedServers } from '../chat/toolSettings';
import { NATIVE_SETTING, nativeServersEnabled } from './nativeSetting';

export interface OfferLines {
  line(conn: ServerConnection): string | undefined;
  /** A setting that changes the lines changed. */
  readonly onDidChange: vscode.Event<unknown>;
}

/** `native`: this VS Code has the MCP server definition API and MCP Host registered its provider. */
export function offerLines(native: boolean): OfferLines {
  return {
    line(conn) {
      if (conn.declaration.disabled) return undefined;
      if (chatExcludedServers().includes(conn.name)) return vscode.l10n.t('Not offered to language models: excluded from chat (mcpHost.chat.excludedServers).');
      return native && nativeServersEnabled()
        ? vscode.l10n.t('Offered to language models in VS Code\'s chat as a native MCP server, in @mcp and through the MCP Host tools.')
        : vscode.l10n.t('Offered to language models in @mcp and through the MCP Host tools (not as a native MCP server of VS Code\'s chat).');
    },
    onDidChange: listener => vscode.workspace.onDidChangeConfiguration(e => {
      if ([NATIVE_SETTING, 'chat.excludedServers'].some(k => e.affectsConfiguration(`${SECTION}.${k}`))) listener(e);
    }),
  };
}

/**
 * `ui/download-file` from an app: every file goes through a save dialog that proposes only a bare
 * file name (in the first workspace folder, else the home folder); nothing is written unless the user
 * picks the place. Linked resources are read from the app's own server only.
 */
import * as vscode from 'vscode';
import * as os from 'node:os';
import type { EmbeddedResource, ResourceLink } from '@modelcontextprotocol/client';
import { downloadFileName, embeddedDownload, plainText, type AppDownload, type Logger, type ServerConnection } from '../../core';

export type DownloadItem = EmbeddedResource | ResourceLink;

/** Saves what the app offers, one save dialog per file; resolves with how many files were written. */
export async function saveAppDownloads(server: string, conn: ServerConnection, contents: readonly DownloadItem[], log: Pick<Logger, 'info' | 'warn'>): Promise<number> {
  let saved = 0;
  for (const item of (Array.isArray(contents) ? contents : []).slice(0, 10)) {
    const file = await fileOf(conn, item);
    if ('refused' in file) {
      log.warn(`MCP App download refused: ${file.refused}`);
      continue;
    }
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
    const target = await vscode.window.showSaveDialog({
      title: vscode.l10n.t('Save the file the app of MCP server "{0}" offers', server),
      saveLabel: vscode.l10n.t('Save'),
      defaultUri: vscode.Uri.joinPath(folder, file.name),
    });
    if (!target) { log.info(`MCP App download of ${file.name}: the user cancelled`); continue; }
    await vscode.workspace.fs.writeFile(target, file.bytes);
    log.info(`MCP App download of ${file.name} (${file.bytes.length} bytes) saved to ${target.toString()}`);
    saved++;
  }
  return saved;
}

async function fileOf(conn: ServerConnection, item: DownloadItem): Promise<AppDownload | { refused: string }> {
  if (item?.type === 'resource' && item.resource) return embeddedDownload(item.resource);
  if (item?.type === 'resource_link' && typeof item.uri === 'string') {
    // The server's own resource, read like any other (never a URL fetched by the host).
    const read = await conn.readResource(item.uri);
    const first = read.contents[0];
    if (!first) return { refused: `${plainText(item.uri, { singleLine: true, maxLength: 200 })} has no contents` };
    const file = embeddedDownload(first);
    return 'refused' in file ? file : { ...file, name: downloadFileName(typeof item.name === 'string' && item.name ? item.name : item.uri) };
  }
  return { refused: 'not an embedded resource or a resource link' };
}

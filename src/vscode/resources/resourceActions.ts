/**
 * What the user can do with a resource: open it (text in an editor with the language from its MIME
 * type, images in VS Code's image preview, other binary data offered for saving; every content of a
 * multi-content read), save it into the workspace, attach it to chat.
 */
import * as vscode from 'vscode';
import { plainText } from '../../core';
import { describeParts, contentBytes, type ContentPart } from './contents';
import { fileNameFor, formatSize, languageForMime } from './mime';
import type { ResourceFileSystem } from './resourceFileSystem';
import { toFileSystemError } from './resourceFileSystem';
import { showError, showInfo } from '../notify';
import { pickText } from '../pickText';

/** A resource to act on: its server and URI, plus what the listing said about it. */
export interface ResourceTarget {
  readonly server: string;
  readonly uri: string;
  readonly name?: string;
  readonly mimeType?: string;
}

/**
 * A notification's message on one line: its parts that the server chose (a URI, a MIME type, a file name,
 * an error's text) are in it; notify.ts unlinks it.
 */
function notified(message: string): string {
  return plainText(message, { singleLine: true, maxLength: 1000 });
}

/** Above this many contents, the user picks which ones to open. */
const OPEN_ALL_LIMIT = 5;

/** Opens every content of a resource; resolves to the `mcp-host-resource:` URIs opened (empty on error or cancel). */
export async function openResource(fs: ResourceFileSystem, target: ResourceTarget): Promise<vscode.Uri[]> {
  let parts: ContentPart[];
  try {
    parts = describeParts(await fs.read(target.server, target.uri), target.uri, target);
  } catch (e) {
    void showError(notified(toFileSystemError(e, { server: target.server, uri: target.uri, part: 0 }).message));
    return [];
  }
  if (!parts.length) {
    void showInfo(notified(vscode.l10n.t('{0} returned no content for {1}.', target.server, target.uri)));
    return [];
  }
  let chosen = parts;
  if (parts.length > OPEN_ALL_LIMIT) {
    // The MIME types and URIs are the server's, and QuickPick items draw `$(icons)`.
    const picked = await vscode.window.showQuickPick(parts.map(p => ({ label: pickText(p.fileName), description: p.mimeType === undefined ? undefined : pickText(p.mimeType), detail: pickText(p.uri), picked: p.index < OPEN_ALL_LIMIT, part: p })), {
      canPickMany: true,
      title: vscode.l10n.t('{0} returned {1} contents — choose which to open', target.uri, parts.length),
    });
    if (!picked?.length) return [];
    chosen = picked.map(p => p.part);
  }
  const opened: vscode.Uri[] = [];
  for (const [i, part] of chosen.entries()) {
    const uri = fs.uriFor(target.server, target.uri, part.index, part.fileName);
    const options: vscode.TextDocumentShowOptions = { preview: chosen.length === 1, preserveFocus: i > 0 };
    if (part.kind === 'text') {
      let doc = await vscode.workspace.openTextDocument(uri);
      const language = languageForMime(part.mimeType);
      if (language && doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language).then(d => d, () => doc);
      await vscode.window.showTextDocument(doc, options);
    } else if (part.kind === 'image') {
      await vscode.commands.executeCommand('vscode.open', uri, options);
    } else {
      offerBinary(fs, target, part, uri);
      continue;
    }
    opened.push(uri);
  }
  return opened;
}

/** Binary content has no useful editor: say what it is and offer to save it (or open it anyway). */
function offerBinary(fs: ResourceFileSystem, target: ResourceTarget, part: ContentPart, uri: vscode.Uri): void {
  const save = vscode.l10n.t('Save As…');
  const open = vscode.l10n.t('Open Anyway');
  void fs.read(target.server, target.uri).then(result => {
    const size = formatSize(contentBytes(result.contents[part.index]).byteLength);
    return showInfo(notified(vscode.l10n.t('{0} is binary data ({1}, {2}). Save it to open it with another program.', part.fileName, part.mimeType ?? vscode.l10n.t('unknown type'), size ?? '?')), save, open);
  }).then(choice => {
    if (choice === save) return saveResources(fs, [target]);
    if (choice === open) return vscode.commands.executeCommand('vscode.open', uri);
  }, e => showError(notified(e instanceof Error ? e.message : String(e))));
}

/**
 * Saves resources to disk. One single-content resource: a Save dialog proposing a file in the workspace
 * (or `target`). Several, or several contents: every content into one folder chosen in a dialog (proposing
 * `target` when it is a folder), without overwriting existing files. Resolves to the files written.
 */
export async function saveResources(fs: ResourceFileSystem, targets: readonly ResourceTarget[], target?: vscode.Uri): Promise<vscode.Uri[]> {
  const items: { part: ContentPart; bytes: Uint8Array }[] = [];
  for (const t of targets) {
    try {
      const result = await fs.read(t.server, t.uri);
      for (const part of describeParts(result, t.uri, t)) items.push({ part, bytes: contentBytes(result.contents[part.index]) });
    } catch (e) {
      void showError(notified(toFileSystemError(e, { server: t.server, uri: t.uri, part: 0 }).message));
      return [];
    }
  }
  if (!items.length) return [];
  const workspace = vscode.workspace.workspaceFolders?.[0]?.uri;
  // Any extension can execute the command: `target` is only what the dialog proposes, the user picks where to write.
  const targetIsFolder = target ? await isFolder(target) : false;

  if (items.length === 1 && !targetIsFolder) {
    const file = await vscode.window.showSaveDialog({
      defaultUri: target ?? (workspace ? vscode.Uri.joinPath(workspace, items[0].part.fileName) : undefined),
      title: vscode.l10n.t('Save {0} to the workspace', targets[0].uri),
    });
    if (!file) return [];
    await vscode.workspace.fs.writeFile(file, items[0].bytes);
    announceSaved([file]);
    return [file];
  }

  const folder = (await vscode.window.showOpenDialog({
    canSelectFolders: true, canSelectFiles: false, canSelectMany: false, defaultUri: targetIsFolder ? target : workspace,
    openLabel: vscode.l10n.t('Save Here'), title: vscode.l10n.t('Save {0} resource contents into a folder', items.length),
  }))?.[0];
  if (!folder) return [];
  const written: vscode.Uri[] = [];
  const used = new Set<string>();
  for (const { part, bytes } of items) {
    const file = await freeName(folder, part.fileName, used);
    await vscode.workspace.fs.writeFile(file, bytes);
    written.push(file);
  }
  announceSaved(written);
  return written;
}

function announceSaved(files: vscode.Uri[]): void {
  const open = vscode.l10n.t('Open');
  const msg = files.length === 1
    ? notified(vscode.l10n.t('Saved {0}.', vscode.workspace.asRelativePath(files[0])))
    : vscode.l10n.t('Saved {0} files.', files.length);
  void showInfo(msg, open).then(c => { if (c === open) void vscode.commands.executeCommand('vscode.open', files[0]); });
}

async function isFolder(uri: vscode.Uri): Promise<boolean> {
  try { return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0; } catch { return false; }
}

async function freeName(folder: vscode.Uri, name: string, used: Set<string>): Promise<vscode.Uri> {
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${stem}-${n}${ext}`;
    if (used.has(candidate)) continue;
    const uri = vscode.Uri.joinPath(folder, candidate);
    try { await vscode.workspace.fs.stat(uri); continue; } catch { /* free */ }
    used.add(candidate);
    return uri;
  }
}

/**
 * Opens chat with `@mcp ` typed and the resources attached as `mcp-host-resource:` files.
 * `workbench.action.chat.open` takes `{ query, isPartialQuery, attachFiles }` (checked in the
 * workbench of VS Code 1.104–1.139: each `attachFiles` entry must exist in the file service, which
 * our file system provider answers). `isPartialQuery` leaves the request for the user to finish.
 * NOTE: the `@mcp` participant comes with the "Tools for chat" issue; until then `@mcp` is plain text.
 */
export async function attachToChat(fs: ResourceFileSystem, targets: readonly ResourceTarget[]): Promise<vscode.Uri[]> {
  const files = targets.map(t => fs.uriFor(t.server, t.uri, 0, fileNameFor(t.uri, t.name, t.mimeType)));
  await vscode.commands.executeCommand('workbench.action.chat.open', chatOpenOptions(files));
  return files;
}

export function chatOpenOptions(files: readonly vscode.Uri[]): { query: string; isPartialQuery: boolean; attachFiles: vscode.Uri[] } {
  return { query: '@mcp ', isPartialQuery: true, attachFiles: [...files] };
}

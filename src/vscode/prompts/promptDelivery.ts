/**
 * Where a prompt's result goes: a chat request to `@mcp` (text as the query, images, audio and
 * embedded resources written to files under the extension's storage and attached), or an untitled
 * Markdown editor. The chat request is filled in, never sent: the user reads the query and the
 * attachments and sends it, since both were written by the server.
 */
import * as vscode from 'vscode';
import { screenFileLinks, type DroppedFileLink, type PromptChatRequest } from '../../core/prompts';
import { readSetting } from '../settingsReader';

export type PromptTarget = 'chat' | 'editor';
export const CHAT_PARTICIPANT = '@mcp';
/** Attachment folders kept; older ones are deleted (a chat that still shows them loses the preview). */
const KEEP_ATTACHMENT_RUNS = 50;

export function configuredTarget(): PromptTarget {
  return readSetting<string>('prompts.openIn') === 'editor' ? 'editor' : 'chat';
}

/**
 * Opens `markdown` in a new untitled editor named after the prompt ("Simple Prompt (everything).md",
 * then "… 2.md"), so several results are told apart and "Untitled-1" names are never reused.
 */
export async function openInEditor(markdown: string, title: string): Promise<vscode.TextDocument> {
  const base = title.replace(/[\\/:*?"<>|#%\n\r\t]+/g, '_').trim().slice(0, 80) || 'Prompt';
  const taken = new Set(vscode.workspace.textDocuments.filter(d => d.uri.scheme === 'untitled').map(d => d.uri.path));
  let name = `${base}.md`;
  for (let n = 2; taken.has(name); n++) name = `${base} ${n}.md`;
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'untitled', path: name }));
  const edit = new vscode.WorkspaceEdit();
  edit.insert(doc.uri, new vscode.Position(0, 0), markdown);
  if (!await vscode.workspace.applyEdit(edit)) throw new Error(vscode.l10n.t('Could not write the prompt into {0}', name));
  const md = doc.languageId === 'markdown' ? doc : await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
  await vscode.window.showTextDocument(md, { preview: false });
  return md;
}

export interface SentToChat {
  readonly query: string;
  readonly attachments: readonly vscode.Uri[];
  /** `file:` links of the prompt that were not attached (outside `allowedFolders`). */
  readonly dropped: readonly DroppedFileLink[];
}

/**
 * Fills the chat input with `@mcp <text>` and the attachments, for the user to send; rejects if the
 * chat cannot be opened. Only `file:` links inside `allowedFolders` are attached (see the core's
 * screenFileLinks).
 */
export async function sendToChat(request: PromptChatRequest, storage: vscode.Uri, allowedFolders: readonly string[]): Promise<SentToChat> {
  const screened = await screenFileLinks(request, allowedFolders);
  const attachments = await writeAttachments(screened.request, storage);
  const query = `${CHAT_PARTICIPANT} ${screened.request.text}`;
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, attachFiles: attachments, isPartialQuery: true });
  return { query, attachments, dropped: screened.dropped };
}

async function writeAttachments(request: PromptChatRequest, storage: vscode.Uri): Promise<vscode.Uri[]> {
  const uris: vscode.Uri[] = [];
  const data = request.attachments.filter(a => a.kind === 'data');
  let dir: vscode.Uri | undefined;
  if (data.length) {
    const root = vscode.Uri.joinPath(storage, 'prompt-attachments');
    dir = vscode.Uri.joinPath(root, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
    await vscode.workspace.fs.createDirectory(dir);
    await prune(root);
  }
  for (const a of request.attachments) {
    if (a.kind === 'file') { uris.push(vscode.Uri.parse(a.uri)); continue; }
    const uri = vscode.Uri.joinPath(dir!, a.fileName);
    await vscode.workspace.fs.writeFile(uri, a.text !== undefined ? new TextEncoder().encode(a.text) : Buffer.from(a.base64 ?? '', 'base64'));
    uris.push(uri);
  }
  return uris;
}

async function prune(root: vscode.Uri): Promise<void> {
  try {
    const runs = (await vscode.workspace.fs.readDirectory(root)).filter(([, t]) => t === vscode.FileType.Directory).map(([n]) => n).sort();
    for (const name of runs.slice(0, Math.max(0, runs.length - KEEP_ATTACHMENT_RUNS))) {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, name), { recursive: true });
    }
  } catch { /* best effort: a leftover folder only costs disk space */ }
}

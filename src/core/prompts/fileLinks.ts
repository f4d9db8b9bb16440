/**
 * Which `file:` links of a server's prompt may become chat attachments. A prompt is written by the
 * server, so its links are the server's choice: attached blindly, `~/.ssh/id_rsa` titled
 * "README.md" would reach the model. A link is kept only when the file it names — after `..`
 * segments, percent-escapes and symbolic links are resolved — lies inside one of the allowed
 * folders (the workspace folders and the roots the server was given, themselves resolved). Links
 * to another host (`file://server/share/…`, a UNC path on Windows) are never followed. Everything
 * dropped is returned so the user can be told. A kept link points at the resolved path, so the
 * attachment is the file that was checked, not whatever a link resolves to later.
 */
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isInside, realPath } from '../fsPaths';
import type { PromptChatAttachment, PromptChatRequest } from './promptChat';

export type FileLinkDropReason =
  /** The file (as resolved) is not inside any allowed folder. */
  | 'outside'
  /** The URI names another host. */
  | 'remoteHost'
  /** The file does not exist (or cannot be resolved). */
  | 'missing'
  /** Not a usable `file:` URI. */
  | 'invalid';

export interface DroppedFileLink {
  /** The URI as the server sent it. */
  readonly uri: string;
  /** The name the server gave the link (not to be trusted: shown next to the real path). */
  readonly name: string;
  /** The local path the URI names (resolved when it could be), for the user to see; absent when invalid. */
  readonly path?: string;
  readonly reason: FileLinkDropReason;
}

export interface ScreenedChatRequest {
  readonly request: PromptChatRequest;
  readonly dropped: readonly DroppedFileLink[];
}

/**
 * Keeps the `file` attachments of `request` that lie inside `allowedFolders` (`file:` URIs or
 * absolute paths; ones that do not exist are ignored) and drops the rest. Data attachments (content
 * the server sent itself) are kept as they are.
 */
export async function screenFileLinks(request: PromptChatRequest, allowedFolders: readonly string[]): Promise<ScreenedChatRequest> {
  const roots = (await Promise.all(allowedFolders.map(async f => {
    const p = toPath(f);
    return p === undefined ? undefined : realPath(p);
  }))).filter((p): p is string => !!p);
  const attachments: PromptChatAttachment[] = [];
  const dropped: DroppedFileLink[] = [];
  for (const a of request.attachments) {
    if (a.kind !== 'file') { attachments.push(a); continue; }
    const verdict = await checkLink(a.uri, roots);
    if ('real' in verdict) attachments.push({ ...a, uri: pathToFileURL(verdict.real).href });
    else dropped.push({ uri: a.uri, name: a.name, ...verdict });
  }
  return { request: { ...request, attachments }, dropped };
}

async function checkLink(uri: string, roots: readonly string[]): Promise<{ real: string } | { reason: FileLinkDropReason; path?: string }> {
  let url: URL;
  try { url = new URL(uri); } catch { return { reason: 'invalid' }; }
  if (url.protocol !== 'file:') return { reason: 'invalid' };
  if (url.hostname && url.hostname.toLowerCase() !== 'localhost') return { reason: 'remoteHost', path: uri };
  let lexical: string;
  try { lexical = fileURLToPath(url.hostname ? new URL(url.pathname, 'file://') : url); } catch { return { reason: 'invalid' }; }
  const real = await realPath(lexical);
  if (real === undefined) return { reason: 'missing', path: lexical };
  return roots.some(r => isInside(real, r)) ? { real } : { reason: 'outside', path: real };
}

function toPath(folder: string): string | undefined {
  if (!folder.startsWith('file:')) return path.isAbsolute(folder) ? folder : undefined;
  try {
    const url = new URL(folder);
    return url.hostname && url.hostname.toLowerCase() !== 'localhost' ? undefined : fileURLToPath(url.hostname ? new URL(url.pathname, 'file://') : url);
  } catch { return undefined; }
}

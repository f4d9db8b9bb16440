/**
 * The `mcp-host-resource:` URI of a server's resource (VS Code's built-in MCP support already owns
 * `mcp-resource:`, and a scheme can have only one file system provider), as a path only:
 *   /<token>/<server>/<base64url(resource URI)>[/<content index>]/<file name>
 * A file system provider answers every extension (`vscode.workspace.fs`), so the path carries a token:
 * an HMAC of server, resource URI and content index under a key that never leaves the window. Only URIs
 * the host minted itself (for a document it opens, a chat attachment, a tree item) are read; a guessed
 * one names no server and reads nothing. The token is 128 bits, compared in constant time.
 * The path ends in a file name whose extension comes from the MIME type, so VS Code picks the
 * language, the file icon and its image preview by itself. Only path characters that never need
 * percent-encoding are used (webviews such as the image preview re-encode paths), and no query,
 * so every consumer of the URI (editors, chat attachments, webviews) round-trips it unchanged.
 * No `vscode` import: unit-tested in plain Node.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';

export const RESOURCE_SCHEME = 'mcp-host-resource';

export interface ResourceRef {
  readonly server: string;
  readonly uri: string;
  /** Index into `contents` of the read result (a read may return several contents). */
  readonly part: number;
}

const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/;

/** The path of `ref` under the window's `key` (32 random bytes that only the host holds). */
export function encodeResourcePath(ref: ResourceRef, fileName: string, key: Uint8Array): string {
  const server = PLAIN_NAME.test(ref.server) && !ref.server.startsWith('=') ? ref.server : `=${b64(ref.server)}`;
  const name = fileName.replace(/[/\\]/g, '_') || 'resource';
  return `/${token(ref, key).toString('base64url')}/${server}/${b64(ref.uri)}${ref.part ? `/${ref.part}` : ''}/${name}`;
}

/** Parses a path made by {@link encodeResourcePath} with the same `key`; undefined for anything else. */
export function decodeResourcePath(path: string, key: Uint8Array): ResourceRef | undefined {
  const seg = path.split('/');
  if (seg[0] !== '' || (seg.length !== 5 && seg.length !== 6)) return undefined;
  const server = seg[2].startsWith('=') ? unb64(seg[2].slice(1)) : seg[2];
  const uri = unb64(seg[3]);
  const part = seg.length === 6 ? Number(seg[4]) : 0;
  if (!server || !uri || !Number.isInteger(part) || part < 0 || (seg.length === 6 && String(part) !== seg[4])) return undefined;
  const ref = { server, uri, part };
  const given = /^[A-Za-z0-9_-]{22}$/.test(seg[1]) ? Buffer.from(seg[1], 'base64url') : undefined;
  return given && given.length === 16 && timingSafeEqual(given, token(ref, key)) ? ref : undefined;
}

function token(ref: ResourceRef, key: Uint8Array): Buffer {
  return createHmac('sha256', key).update(JSON.stringify([ref.server, ref.uri, ref.part])).digest().subarray(0, 16);
}

/** Key of a resource regardless of content index: `server` + NUL + `uri`. */
export function resourceKey(server: string, uri: string): string { return `${server}\u0000${uri}`; }

function b64(s: string): string { return Buffer.from(s, 'utf8').toString('base64url'); }

function unb64(s: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return undefined;
  return Buffer.from(s, 'base64url').toString('utf8');
}

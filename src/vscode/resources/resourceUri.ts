/**
 * The `mcp-host-resource:` URI of a server's resource (VS Code's built-in MCP support already owns
 * `mcp-resource:`, and a scheme can have only one file system provider), as a path only:
 *   /<server>/<base64url(resource URI)>[/<content index>]/<file name>
 * The path ends in a file name whose extension comes from the MIME type, so VS Code picks the
 * language, the file icon and its image preview by itself. Only path characters that never need
 * percent-encoding are used (webviews such as the image preview re-encode paths), and no query,
 * so every consumer of the URI (editors, chat attachments, webviews) round-trips it unchanged.
 * No `vscode` import: unit-tested in plain Node.
 */

export const RESOURCE_SCHEME = 'mcp-host-resource';

export interface ResourceRef {
  readonly server: string;
  readonly uri: string;
  /** Index into `contents` of the read result (a read may return several contents). */
  readonly part: number;
}

const PLAIN_NAME = /^[A-Za-z0-9_.-]+$/;

export function encodeResourcePath(ref: ResourceRef, fileName: string): string {
  const server = PLAIN_NAME.test(ref.server) && !ref.server.startsWith('=') ? ref.server : `=${b64(ref.server)}`;
  const name = fileName.replace(/[/\\]/g, '_') || 'resource';
  return `/${server}/${b64(ref.uri)}${ref.part ? `/${ref.part}` : ''}/${name}`;
}

/** Parses a path made by {@link encodeResourcePath}; undefined for anything else. */
export function decodeResourcePath(path: string): ResourceRef | undefined {
  const seg = path.split('/');
  if (seg[0] !== '' || (seg.length !== 4 && seg.length !== 5)) return undefined;
  const server = seg[1].startsWith('=') ? unb64(seg[1].slice(1)) : seg[1];
  const uri = unb64(seg[2]);
  const part = seg.length === 5 ? Number(seg[3]) : 0;
  if (!server || !uri || !Number.isInteger(part) || part < 0) return undefined;
  return { server, uri, part };
}

/** Key of a resource regardless of content index: `server` + NUL + `uri`. */
export function resourceKey(server: string, uri: string): string { return `${server}\u0000${uri}`; }

function b64(s: string): string { return Buffer.from(s, 'utf8').toString('base64url'); }

function unb64(s: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return undefined;
  return Buffer.from(s, 'base64url').toString('utf8');
}

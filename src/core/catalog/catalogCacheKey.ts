/**
 * Where a declaration's cached catalogue is kept: a file named by a SHA-256 of everything that
 * changes what the server lists. That is the program identity the approvals use (command, arguments,
 * working folder, environment, env file or URL, and where it is declared: a workspace's declaration
 * never shares a user declaration's cache), plus what an HTTP server may list differently by (its
 * headers, e.g. a tool-set header) and the protocol era. Only the hash is on disk, never the values.
 * The server's version from `initialize` is kept inside the entry: a start that meets another version
 * replaces the entry. No MCP SDK here: the early bundle (src/early.ts) asks whether an entry exists.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { canonicalJson } from '../tools/canonicalJson';
import { programIdentity, type DeclarationPlace } from '../tools/programIdentity';

/** The file name (without folder) of the cache entry of a raw `mcpHost.servers` entry; undefined when it is no declaration. */
export function catalogCacheKey(declaration: unknown, place: DeclarationPlace): string | undefined {
  const identity = programIdentity(declaration, place);
  if (!identity) return undefined;
  const d = declaration as Record<string, unknown>;
  const material = canonicalJson({ format: CATALOG_CACHE_FORMAT, program: identity.id, headers: d.headers, protocol: d.protocol });
  return createHash('sha256').update(material).digest('hex');
}

/** Bumped when the entry's shape changes: older entries are then simply missing. */
export const CATALOG_CACHE_FORMAT = 1;

export function catalogCacheFile(dir: string, key: string): string { return path.join(dir, `${key}.json`); }

/** Whether an entry for `key` is on disk (the early start leaves cached on-demand servers alone). */
export function hasCatalogEntry(dir: string, key: string): boolean {
  return existsSync(catalogCacheFile(dir, key));
}

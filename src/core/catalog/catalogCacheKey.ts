/**
 * Where a declaration's cached catalogue is kept: a file named by a SHA-256 of everything that
 * changes what the server lists. That is the program identity the approvals use (command, arguments,
 * working folder, environment, the env file and what it holds, or URL, headers and auth, and where it
 * is declared: a workspace's declaration never shares a user declaration's cache), plus the folder a
 * local program runs in when its declaration does not fix it (no `cwd`: the first workspace folder when
 * trusted, else the user's home; `npx pkg` or `python -m mod` there runs that folder's code, so the
 * same user declaration in two workspaces has two entries) and the protocol era. Only the hash is on
 * disk, never the values. The server's version from `initialize` is kept inside the entry: a start
 * that meets another version replaces the entry. No MCP SDK here: the early bundle (src/early.ts)
 * asks whether an entry exists.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { envFileContent, launchBase } from '../config/envFileContent';
import type { VariableContext } from '../config/types';
import { canonicalJson } from '../tools/canonicalJson';
import { programIdentity, type DeclarationPlace, type ProgramInputs } from '../tools/programIdentity';

/** What the key depends on beyond the declaration's text, read by {@link catalogKeyInputs}. */
// The launch folder (where a relative or missing `cwd` starts) is part of the program identity itself.
export type CatalogKeyInputs = ProgramInputs;

/** The file name (without folder) of the cache entry of a raw `mcpHost.servers` entry; undefined when it is no declaration. */
export function catalogCacheKey(declaration: unknown, place: DeclarationPlace, inputs: CatalogKeyInputs = {}): string | undefined {
  const identity = programIdentity(declaration, place, inputs);
  if (!identity) return undefined;
  const d = declaration as Record<string, unknown>;
  const material = canonicalJson({ format: CATALOG_CACHE_FORMAT, program: identity.id, headers: d.headers, protocol: d.protocol });
  return createHash('sha256').update(material).digest('hex');
}

/**
 * Reads what {@link catalogCacheKey} needs besides the declaration: the env file's content (bounded,
 * never a FIFO: config/envFile.ts) and the launch folder. The early bundle passes the launch folder only:
 * a declaration with an env file never starts early (core/connection/earlyProcesses.ts).
 */
export async function catalogKeyInputs(declaration: unknown, ctx: VariableContext): Promise<CatalogKeyInputs> {
  const envFileText = await envFileContent(declaration, ctx).catch(() => 'unreadable');
  return { launchBase: launchBase(ctx), workspaceFolders: ctx.workspaceFolders, ...(envFileText !== undefined ? { envFileText } : {}) };
}

/** Bumped when the entry's shape changes: older entries are then simply missing. */
export const CATALOG_CACHE_FORMAT = 1;

export function catalogCacheFile(dir: string, key: string): string { return path.join(dir, `${key}.json`); }

/** Whether an entry for `key` is on disk (the early start leaves cached on-demand servers alone). */
export function hasCatalogEntry(dir: string, key: string): boolean {
  return existsSync(catalogCacheFile(dir, key));
}

/**
 * Where a `dev.watch` glob looks: a base folder plus a glob relative to it, as file watchers want.
 * Relative globs (and `${workspaceFolder}/…`) are read against the first workspace folder.
 */
import * as path from 'node:path';

export type WatchTarget =
  | { readonly kind: 'watch'; readonly base: string; readonly pattern: string }
  /** The glob names workspace files and the workspace is not trusted: nothing is watched yet. */
  | { readonly kind: 'needsTrust' }
  | { readonly kind: 'invalid'; readonly reason: string };

export interface WatchContext {
  readonly workspaceFolders: readonly { readonly path: string }[];
  readonly trusted: boolean;
  readonly userHome: string;
}

const GLOB_CHARS = /[*?[\]{}]/;

export function watchTarget(glob: string, ctx: WatchContext): WatchTarget {
  let g = glob.trim().replace(/\\/g, '/');
  let inWorkspace = false;
  const folderVar = /^\$\{workspaceFolder\}\/?/;
  if (folderVar.test(g)) { g = g.replace(folderVar, ''); inWorkspace = true; }
  else if (g.startsWith('${userHome}/') || g.startsWith('~/')) g = `${ctx.userHome.replace(/\\/g, '/')}/${g.replace(/^(\$\{userHome\}|~)\//, '')}`;
  if (g.includes('${')) return { kind: 'invalid', reason: 'dev.watch may use only ${workspaceFolder} and ${userHome}' };
  const absolute = g.startsWith('/') || /^[A-Za-z]:\//.test(g);
  if (!absolute) inWorkspace = true;
  if (inWorkspace) {
    const folder = ctx.workspaceFolders[0]?.path;
    if (!folder) return { kind: 'invalid', reason: `dev.watch "${glob}" is relative to the workspace folder, but no folder is open` };
    // A workspace's files are the workspace's to change: an untrusted one must not drive restarts.
    if (!ctx.trusted) return { kind: 'needsTrust' };
    return { kind: 'watch', base: folder, pattern: g || '**' };
  }
  const parts = g.split('/');
  const firstGlob = parts.findIndex(p => GLOB_CHARS.test(p));
  if (firstGlob < 0) return { kind: 'watch', base: path.dirname(g), pattern: path.basename(g) };
  const base = parts.slice(0, firstGlob).join('/') || '/';
  if (!ctx.trusted && ctx.workspaceFolders.some(f => isInside(base, f.path) || isInside(f.path, base))) return { kind: 'needsTrust' };
  return { kind: 'watch', base, pattern: parts.slice(firstGlob).join('/') };
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Whether a path lies inside a folder, decided on resolved paths: used wherever the answer is a
 * security decision (a prompt's `file:` links, where an imported file's servers go), so `..`
 * segments and symbolic links cannot move a path across the boundary.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** `child` is `root` or below it (both absolute and already resolved); whole segments only. */
export function isInside(child: string, root: string, platform: NodeJS.Platform = process.platform): boolean {
  const p = platform === 'win32' ? path.win32 : path.posix;
  // fs.promises.realpath is the native realpath: it returns the on-disk casing, except for drive letters.
  const fold = (s: string) => platform === 'win32' ? s.toLowerCase() : s;
  const rel = p.relative(fold(root), fold(child));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${p.sep}`) && !p.isAbsolute(rel));
}

/** The real path (symbolic links and `..` resolved), or undefined when it does not exist. */
export function realPath(p: string): Promise<string | undefined> {
  return fs.realpath(p).catch(() => undefined);
}

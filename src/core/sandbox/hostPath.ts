/**
 * The editor's PATH as the sandbox sees it. srt, the shells it starts and `which` (which srt runs to
 * find `bash`) run outside the sandbox and look programs up on the editor's PATH. An entry of it inside
 * a folder a sandboxed server may write (a root, its data or temp folder: `PATH_add bin` of direnv, a
 * dotfiles repository's `bin`) would let the server plant `which`, `bash` or `git` there and have it run
 * outside the sandbox: at its own next start, in VS Code's Git extension, in the user's terminal. So such
 * entries are left out of the PATH srt gets, and are read-only in the sandbox.
 */
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../fsPaths';

/**
 * `p` as the kernel resolves it, as far as it exists (a missing tail is kept as written). The native
 * realpath follows a link before a `..` after it, as the kernel does (`link/../bin` is the link target's
 * parent's `bin`), and gives the case on disk; the JS one drops `..` by the spelling first.
 */
function kernelResolved(p: string): string {
  const parts = p.split(path.sep);
  for (let n = parts.length; n > 1; n--) {
    try { return path.join(realpathSync.native(parts.slice(0, n).join(path.sep) || path.sep), ...parts.slice(n)); } catch { /* not there (yet): try its parent */ }
  }
  return path.resolve(p);
}

/** Both spellings of a path: as written and as the kernel resolves it (a link to a root names the root). */
const spellings = (p: string) => [...new Set([path.resolve(p), kernelResolved(p)])];

const absoluteEntries = (pathEnv: string | undefined) => (pathEnv ?? '').split(path.delimiter).filter(d => path.isAbsolute(d));

/**
 * An entry with a `.` or `..` segment means another folder once a link appears before it (a server that may
 * write a root can make `<root>/scripts` a link, and `<root>/scripts/../../bin` then lands in the root).
 */
const hasDotSegment = (entry: string) => entry.split(/[\\/]/).some(s => s === '.' || s === '..');

const insideAny = (entry: string, folders: readonly string[]) => {
  const within = folders.flatMap(spellings);
  return spellings(entry).some(e => within.some(f => isInside(e, f)));
};

/**
 * The PATH for srt and its helpers: the absolute entries of `pathEnv` without `.` or `..` segments outside
 * every one of `untrusted` (an empty or relative entry is the folder srt runs in, the server's).
 */
export function hostPath(pathEnv: string | undefined, untrusted: readonly string[]): string {
  return absoluteEntries(pathEnv).filter(d => !hasDotSegment(d) && !insideAny(d, untrusted)).join(path.delimiter);
}

/** The entries of `pathEnv` inside one of `writable`, in both spellings: they are held read-only. */
export function pathEntriesIn(pathEnv: string | undefined, writable: readonly string[]): string[] {
  return [...new Set(absoluteEntries(pathEnv).filter(d => insideAny(d, writable)).flatMap(spellings))];
}

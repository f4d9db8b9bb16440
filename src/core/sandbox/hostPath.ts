/**
 * The editor's PATH as the sandbox sees it. srt, the shells it starts and `which` (which srt runs to
 * find `bash`) run outside the sandbox and look programs up on the editor's PATH. An entry of it inside
 * a folder a sandboxed server may write (a root, its data or temp folder: `PATH_add bin` of direnv, a
 * dotfiles repository's `bin`) would let the server plant `which`, `bash` or `git` there and have it run
 * outside the sandbox: at its own next start, in VS Code's Git extension, in the user's terminal. So such
 * entries are left out of the PATH srt gets, and are read-only in the sandbox.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../fsPaths';

/** A name may hold `\\` on Linux and macOS, as the kernel reads it; Windows takes both. */
const SEPARATORS = path.sep === '/' ? /\/+/ : /[\\/]+/;

/** Links followed in one walk before giving up (Linux's own bound is 40). */
const MAX_LINKS = 40;

interface Walk {
  /** Every path the walk stood on: each name as reached, each link's own path and where it led, the end. */
  readonly steps: readonly string[];
  /** Where it leads (a missing tail kept as written). */
  readonly end: string;
  /** It could not be followed (too long, a loop, no access, a file on the way): where it leads is unknown. */
  readonly broken: boolean;
}

/**
 * `p` walked as the kernel walks it, one name at a time, following each link as it is met (so `link/..`
 * is the parent of the link's target). Not realpath: that fails on a path longer than PATH_MAX, which the
 * kernel still walks when links lead there, and it names only the end, not the links on the way, which a
 * server may repoint when they lie in its root.
 */
function walk(p: string): Walk {
  const steps: string[] = [];
  let at = path.parse(path.resolve(p)).root;
  let rest = p.split(SEPARATORS).filter(Boolean);
  let links = 0;
  while (rest.length) {
    const name = rest.shift()!;
    if (name === '.') continue;
    if (name === '..') { at = path.dirname(at); steps.push(at); continue; }
    const next = path.join(at, name);
    steps.push(next);
    let isLink: boolean;
    try { isLink = lstatSync(next).isSymbolicLink(); } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return { steps, end: next, broken: true };
      const end = path.join(next, ...rest);
      return { steps: [...steps, end], end, broken: false };
    }
    if (!isLink) { at = next; continue; }
    if (++links > MAX_LINKS) return { steps, end: next, broken: true };
    let target: string;
    try { target = readlinkSync(next); } catch { return { steps, end: next, broken: true }; }
    if (path.isAbsolute(target)) at = path.parse(target).root;
    rest = [...target.split(SEPARATORS).filter(Boolean), ...rest];
  }
  steps.push(at);
  return { steps, end: at, broken: false };
}

const absoluteEntries = (pathEnv: string | undefined) => (pathEnv ?? '').split(path.delimiter).filter(d => path.isAbsolute(d));

/**
 * An entry with a `.` or `..` segment means another folder once a link appears before it (a server that may
 * write a root can make `<root>/scripts` a link, and `<root>/scripts/../../bin` then lands in the root).
 */
const hasDotSegment = (entry: string) => entry.split(SEPARATORS).some(s => s === '.' || s === '..');

/** A folder as written and where it leads. */
const folderSpellings = (folders: readonly string[]) => [...new Set(folders.flatMap(f => [path.resolve(f), walk(f).end]))];

/** Whether walking `entry` stands, at any step, inside one of `folders` (or cannot be walked at all). */
function touches(entry: string, folders: readonly string[]): boolean {
  const w = walk(entry);
  // macOS folders are case-insensitive by default: `~/Proj/bin` is inside `~/proj` there.
  const fold = (p: string) => process.platform === 'darwin' ? p.toLowerCase() : p;
  const within = folderSpellings(folders).map(fold);
  return w.broken || [path.resolve(entry), ...w.steps].some(s => within.some(f => isInside(fold(s), f)));
}

/**
 * The PATH for srt and its helpers: the absolute entries of `pathEnv` without `.` or `..` segments outside
 * every one of `untrusted` (an empty or relative entry is the folder srt runs in, the server's).
 */
export function hostPath(pathEnv: string | undefined, untrusted: readonly string[]): string {
  return absoluteEntries(pathEnv).filter(d => !hasDotSegment(d) && !touches(d, untrusted)).join(path.delimiter);
}

/**
 * The folders entries of `pathEnv` lead to inside one of `writable` (as written and where they lead): they are
 * held read-only. An entry whose way only passes through a link in a root (`~/tools` → `<root>/current` →
 * `/opt/tools`), or that cannot be walked, is left out of srt's PATH but not held: a link cannot be held
 * without its whole folder (SECURITY.md §42).
 */
export function pathEntriesIn(pathEnv: string | undefined, writable: readonly string[]): string[] {
  const within = folderSpellings(writable);
  const inside = (p: string) => within.some(f => isInside(p, f));
  return [...new Set(absoluteEntries(pathEnv).flatMap(d => {
    const w = walk(d);
    return w.broken ? [] : [path.resolve(d), w.end].filter(inside);
  }))];
}

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

/** macOS folders are case-insensitive by default: `~/Proj/bin` is inside `~/proj` there. */
const fold = (p: string) => process.platform === 'darwin' ? p.toLowerCase() : p;
const insideOf = (folders: readonly string[]) => {
  const within = folderSpellings(folders).map(fold);
  return (p: string) => within.some(f => isInside(fold(p), f));
};

/** Whether walking `entry` stands, at any step, inside the folders of `inside` (or cannot be walked at all). */
function touches(entry: string, inside: (p: string) => boolean): boolean {
  const w = walk(entry);
  return w.broken || [path.resolve(entry), ...w.steps].some(inside);
}

/**
 * Whether every step of walking `entry` is root's and writable by root alone (sudo's `secure_path` rule): no
 * process of the user's, sandboxed or not, in this window or another, can change where it leads or what it holds.
 */
function rootsAlone(entry: string): boolean {
  const w = walk(entry);
  if (w.broken) return false;
  return [path.parse(path.resolve(entry)).root, ...w.steps].every(s => {
    try {
      const st = lstatSync(s);
      return st.uid === 0 && (st.isSymbolicLink() || (st.mode & 0o022) === 0);
    } catch { return false; } // missing: nothing to find there
  });
}

export interface HostPathOptions {
  /** The editor's user id (process.getuid()): for any user but root, only root's folders are kept. */
  readonly uid?: number;
}

/**
 * The PATH for srt and its helpers: the absolute entries of `pathEnv` without `.` or `..` segments that stand
 * in none of `untrusted` at any step of their way (an empty or relative entry is the folder srt runs in, the
 * server's) and, unless the editor runs as root, whose every step is root's alone: srt needs only system
 * programs (`which`, `bash`), and a folder of the user's may lie in another window's root. As root, every
 * folder is root's, and only the first rule holds.
 */
export function hostPath(pathEnv: string | undefined, untrusted: readonly string[], options: HostPathOptions = {}): string {
  const inside = insideOf(untrusted);
  const strict = options.uid !== undefined && options.uid !== 0;
  return absoluteEntries(pathEnv).filter(d => !hasDotSegment(d) && !touches(d, inside) && (!strict || rootsAlone(d))).join(path.delimiter);
}

/**
 * The folders entries of `pathEnv` lead to inside one of `writable` (as written and where they lead): they are
 * held read-only. An entry whose way only passes through a link in a root (`~/tools` → `<root>/current` →
 * `/opt/tools`), or that cannot be walked, is left out of srt's PATH but not held: a link cannot be held
 * without its whole folder (SECURITY.md §42).
 */
export function pathEntriesIn(pathEnv: string | undefined, writable: readonly string[]): string[] {
  const inside = insideOf(writable);
  return [...new Set(absoluteEntries(pathEnv).flatMap(d => {
    const w = walk(d);
    return w.broken ? [] : [path.resolve(d), w.end].filter(inside);
  }))];
}

/**
 * Why srt must not run `file` on the host (undefined: it may): it stands in one of `untrusted` at some step of
 * its way, or cannot be walked, or — `strict`, for an editor that is not root — someone but root could change it.
 */
export function refusedProgram(file: string, untrusted: readonly string[], strict: boolean, options: HostPathOptions = {}): string | undefined {
  if (touches(file, insideOf(untrusted))) return 'it lies in, or its way passes through, a folder this sandboxed server may write';
  if (strict && options.uid !== undefined && options.uid !== 0 && !rootsAlone(file)) return 'it, or a folder on its way, is not root\'s alone (another program of yours could change it)';
  return undefined;
}

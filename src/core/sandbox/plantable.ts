/**
 * Where the files that make another program run code later, outside the sandbox, lie in a folder a
 * sandboxed server may write (the names and why: plantableNames.ts; SECURITY.md section 9), and
 * what a repository's own config makes Git run from its work tree. srt protects a few of them only
 * in its working folder.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isInside } from '../fsPaths';
import { PLACEHOLDER_NAMES, PLANTABLE_KINDS, plantableKind } from './plantableNames';

/** The names held by srt's placeholders when absent, in every writable folder and nested repository. */
export const PLANTABLE_NAMES: readonly string[] = PLACEHOLDER_NAMES;

/** Git's own names that a planted repository needs (is_git_directory: HEAD, with refs and objects or a commondir). */
const GIT_DIR_SHAPE = ['HEAD', 'refs', 'objects', 'commondir'];

/** More folders than this in one root and it is not scanned (nor guarded): the start fails, saying so. */
export const MAX_SCANNED_FOLDERS = 100_000;

/** Whether Git would take `dir` itself for a repository (a bare one, or the git dir a `.git` file names). */
export function isGitDir(dir: string): boolean {
  return exists(path.join(dir, 'HEAD')) && (exists(path.join(dir, 'commondir')) || (exists(path.join(dir, 'objects')) && exists(path.join(dir, 'refs'))));
}

/** A name whose appearance can complete a Git directory around it. */
export function completesGitDir(name: string): boolean {
  return GIT_DIR_SHAPE.includes(name);
}

/** Whether `name` makes another program run code wherever it lies (plantableNames.ts). */
export function isPlantableName(name: string): boolean {
  return plantableKind(name) !== undefined;
}

/**
 * The paths to deny writing for one writable folder: each placeholder name directly inside it (an
 * absent one is held by an empty read-only placeholder while the server runs, so it cannot be
 * created; an absent name of the other kinds is the guard's), every plantable file and folder that already exists below it at any depth, each
 * plantable name in a nested repository found there, and every folder Git takes for a repository
 * by itself (a bare one). On macOS, patterns also cover folders made later; on Linux, what appears
 * while the server runs is the plant guard's (plantGuard.ts, SECURITY.md §9).
 */
export function plantableIn(folder: string, platform: NodeJS.Platform): string[] {
  // An absent .git is held as an empty folder (a name inside it is denied), not an empty file: Git skips
  // an empty .git folder but stops at an empty .git file, which would break a folder inside a repository.
  const held = (n: string) => n === '.git' && !exists(path.join(folder, n)) ? path.join(folder, n, 'HEAD') : path.join(folder, n);
  const out = PLANTABLE_NAMES.map(held);
  let folders = 0;
  const walk = (dir: string) => {
    if (++folders > MAX_SCANNED_FOLDERS) throw new Error(`${folder} holds more than ${MAX_SCANNED_FOLDERS} folders: too many to guard against files that make Git or the editor run code. Give the server a smaller folder as its root.`);
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return; }
    if (dir !== folder && isGitDir(dir)) { out.push(dir, ...configuredPaths(dir, dir).filter(p => isInside(p, folder))); return; }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (isPlantableName(e.name)) {
        out.push(full);
        // A nested repository is a folder Git and the editor open by themselves: guarded like a root.
        if (e.name.toLowerCase() === '.git') {
          out.push(...PLANTABLE_NAMES.map(n => path.join(dir, n)));
          out.push(...configuredPaths(dir).filter(p => isInside(p, folder)));
        }
        continue;
      }
      // A link is not followed (a Dirent of a link is no directory): what it leads to is judged where it lies.
      if (e.isDirectory()) walk(full);
    }
  };
  walk(folder);
  // The repository the folder lies in, when its .git is above: its config may point into the folder.
  for (let d = path.dirname(folder); path.dirname(d) !== d; d = path.dirname(d)) {
    if (exists(path.join(d, '.git'))) { out.push(...configuredPaths(d).filter(p => isInside(p, folder))); break; }
  }
  // sandbox-exec matches patterns, so new folders and absent names are covered too; srt drops write patterns on Linux.
  if (platform === 'darwin') for (const n of PLANTABLE_KINDS.flatMap(k => k.names)) out.push(path.join(folder, n), path.join(folder, '**', n), path.join(folder, '**', n, '**'));
  return [...new Set(out)];
}

/**
 * What a repository's own config makes Git run or read as config from elsewhere: the folder
 * `core.hooksPath` names (its hooks run on commit, checkout, merge…) and every file `include.path` /
 * `includeIf.*.path` names (read as config: an fsmonitor there runs on `git status`), followed through
 * included files. Projects put both in the work tree (`git config core.hooksPath .githooks`,
 * `include.path ../.gitconfig`), under any name. `top` is the work tree (of a `.git`) or the git dir (bare).
 */
export function configuredPaths(top: string, bareGitDir?: string): string[] {
  const gitDir = bareGitDir ?? gitDirOf(top);
  if (!gitDir) return [];
  const out: string[] = [];
  const home = os.homedir();
  const resolve = (v: string, base: string) => v.startsWith('~/') ? path.join(home, v.slice(2)) : path.resolve(base, v);
  const seen = new Set<string>();
  const read = (file: string, depth: number) => {
    if (depth > 10 || seen.has(file)) return;
    seen.add(file);
    let textOf;
    try { textOf = readFileSync(file, 'utf8'); } catch { return; }
    for (const { section, key, value } of gitConfigEntries(textOf)) {
      if (section === 'core' && key === 'hookspath') out.push(resolve(value, top));
      else if ((section === 'include' || section.startsWith('includeif')) && key === 'path') {
        const inc = resolve(value, path.dirname(file));
        out.push(inc);
        read(inc, depth + 1);
      }
    }
  };
  read(path.join(gitDir, 'config'), 0);
  // A worktree's own config (extensions.worktreeConfig) sits beside it.
  read(path.join(gitDir, 'config.worktree'), 0);
  return out;
}

/** The git dir of a work tree: its `.git` folder, or the folder a `.git` file names. */
function gitDirOf(top: string): string | undefined {
  const dotGit = path.join(top, '.git');
  try {
    if (lstatSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
    return m ? path.resolve(top, m[1]) : undefined;
  } catch { return undefined; }
}

/** Git config's `[section "sub"]` and `key = value` lines, as far as paths in them need (lower-case section and key). */
function gitConfigEntries(text: string): Array<{ section: string; key: string; value: string }> {
  const out: Array<{ section: string; key: string; value: string }> = [];
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"(?:[^"\\]|\\.)*")?\s*\]/.exec(line);
    if (head) {
      section = head[1].toLowerCase();
      line = line.slice(head[0].length).trim();
      if (!line) continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!kv || kv[2] === undefined) continue;
    const dotted = section.includes('.') ? section.slice(0, section.indexOf('.')) : section;
    out.push({ section: dotted, key: kv[1].toLowerCase(), value: configValue(kv[2]) });
  }
  return out;
}

/** A config value: quotes removed, escapes read, a comment (# or ; outside quotes) cut. */
function configValue(v: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (c === '"') { quoted = !quoted; continue; }
    if (c === '\\' && i + 1 < v.length) { const n = v[++i]; out += n === 'n' ? '\n' : n === 't' ? '\t' : n; continue; }
    if (!quoted && (c === '#' || c === ';')) break;
    out += c;
  }
  return out.trim();
}

export function exists(p: string): boolean {
  try { lstatSync(p); return true; } catch { return false; }
}

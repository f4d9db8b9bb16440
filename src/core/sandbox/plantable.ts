/**
 * Files that make another program run code later, outside the sandbox, when it finds them in a
 * folder: Git on `git status`, the editor when the folder opens, the shell or a version manager on
 * `cd`, a package manager on any command. A sandboxed server may not write them in any folder it
 * may write (srt protects a few of them only in its working folder). Project sources, `Makefile`,
 * `package.json` scripts are not here: they run when the user builds the project, which is what a
 * server edits them for. The list and why each name is on it is in SECURITY.md (section 9).
 */
import { lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

/** Names denied in every writable folder, whether or not they exist when the server starts. */
export const PLANTABLE_NAMES: readonly string[] = [
  // Git: all of `.git` (config, hooks, info, commondir, modules/*/config each run or point at code), submodules.
  '.git', '.gitmodules',
  // Editors and agents that run what a folder declares: tasks, launch configs, MCP servers, hooks.
  '.vscode', '.idea', '.devcontainer', '.cursor', '.claude', '.mcp.json',
  // Run on `cd` or when a tool starts in the folder.
  '.envrc', '.mise.toml', 'mise.toml', '.tool-versions', '.python-version', '.node-version', '.nvmrc', '.ruby-version',
  // Package managers' per-folder configuration (script-shell, node-options, yarnPath, pnpm hooks).
  '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs',
  // Commit hooks frameworks (their hook folders run on the user's next commit).
  '.husky', '.pre-commit-config.yaml', 'lefthook.yml', '.lefthook.yml',
  // Shell start-up and tool configuration (a root may be used as someone's home).
  '.bashrc', '.bash_profile', '.zshrc', '.zprofile', '.profile', '.gitconfig', '.ripgreprc',
];

/** How deep below a writable folder existing plantable files are looked for (srt's own default is 3). */
export const SCAN_DEPTH = 3;

/**
 * The paths to deny writing for one writable folder: each plantable name directly inside it (an
 * absent one is held by an empty read-only placeholder while the server runs, so it cannot be
 * created), the plantable files and folders that already exist below it down to {@link SCAN_DEPTH},
 * each plantable name in a nested repository found there, and on macOS patterns that also cover
 * folders made later. On Linux a folder made while the server runs is not covered (bubblewrap can
 * only hold paths that exist or are named when it starts): see SECURITY.md.
 */
export function plantableIn(folder: string, platform: NodeJS.Platform): string[] {
  // An absent .git is held as an empty folder (a name inside it is denied), not an empty file: Git skips
  // an empty .git folder but stops at an empty .git file, which would break a folder inside a repository.
  const held = (n: string) => n === '.git' && !exists(path.join(folder, n)) ? path.join(folder, n, 'HEAD') : path.join(folder, n);
  const out = PLANTABLE_NAMES.map(held);
  const names = new Set(PLANTABLE_NAMES.map(n => n.toLowerCase()));
  const walk = (dir: string, depth: number) => {
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (names.has(e.name.toLowerCase())) {
        out.push(full);
        // A nested repository is a folder Git and the editor open by themselves: guarded like a root.
        if (e.name.toLowerCase() === '.git') out.push(...PLANTABLE_NAMES.map(n => path.join(dir, n)));
        continue;
      }
      // A link is not followed: what it leads to is judged where it lies (srt binds by real path).
      if (e.isDirectory() && e.name !== 'node_modules' && depth < SCAN_DEPTH && !isLink(full)) walk(full, depth + 1);
    }
  };
  walk(folder, 0);
  // sandbox-exec matches patterns, so new folders are covered too; srt drops write patterns on Linux.
  if (platform === 'darwin') for (const n of PLANTABLE_NAMES) out.push(path.join(folder, '**', n), path.join(folder, '**', n, '**'));
  return [...new Set(out)];
}

function exists(p: string): boolean {
  try { lstatSync(p); return true; } catch { return false; }
}

function isLink(p: string): boolean {
  try { return lstatSync(p).isSymbolicLink(); } catch { return true; }
}

/**
 * What a sandboxed server may read of the user's home: nothing but its roots, its data folder, what
 * its declaration allows and the toolchains servers run on — the runtime the command lives in, and
 * package caches and tool installs, read-only. Everything else of home (editor settings and state,
 * `~/.npmrc`, tokens of other tools, shell history, other projects) is hidden: a list of secret
 * places always misses one. Outside home, the system (/usr, /etc, /opt) stays readable.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../fsPaths';
import { isBelow, real } from './writable';

/** Caches and tool installs under home that `npx`, `uvx`, `node` and the like read to start a server. */
export const TOOLCHAIN_HOME_PATHS: readonly string[] = [
  '.npm/_cacache', '.npm/_npx', '.nvm/versions', '.volta', '.fnm', '.local/share/fnm', '.asdf/installs', '.asdf/shims',
  '.local/share/mise/installs', '.pyenv/versions', '.cache/uv', '.local/share/uv', '.local/bin', '.cargo/bin', '.rustup/toolchains',
  '.bun/bin', '.deno/bin', 'go/pkg/mod',
];

export interface RuntimeLookup {
  /** The launch's PATH (the declaration's env or envFile may set it). */
  readonly pathEnv: string | undefined;
  readonly userHome: string;
  /**
   * Folders whose content a workspace or a sandboxed server may have written (roots, the server's data
   * and temp folders). A program found there is readable already, and a link there proves nothing: it
   * is where an attacker puts `node -> ~/other-project/src` to have that folder "installed".
   */
  readonly untrusted: readonly string[];
  /** The declaration may widen the sandbox (the user's own settings): its command's whole install is read. */
  readonly wide: boolean;
}

/**
 * The folders under home a server's command needs to run: the install of the program itself (and of
 * `node`, which runs `npx` and other scripts), found on the launch's PATH, when it lies in home.
 * Only a regular executable file counts (a folder passes an X_OK test too). A link counts only where it
 * keeps the program's name (nvm's and asdf's links do; a link to another folder's file does not), and
 * the install of the implicit `node` is its `bin` and `lib` only, not the folder above them
 * (`~/.local/bin/node` must not make all of `~/.local` readable). PATH is read up to its first empty or
 * relative entry, and a command a workspace declared adds nothing.
 */
export function runtimeFolders(command: string, lookup: RuntimeLookup): string[] {
  const out: string[] = [];
  // A declaration that may not widen the sandbox (a workspace's) names no install of its own: its command
  // may name any program in home (`~/other-project/gradlew`), and what runs may differ from it (BASH_ENV).
  const programs = lookup.wide ? [[command, true], ['node', false]] as const : [['node', false]] as const;
  for (const [program, wide] of programs) {
    const found = findProgram(program, lookup.pathEnv);
    if (!found || lookup.untrusted.some(u => isInside(real(found), u) || isInside(found, u))) continue;
    let realProgram: string;
    try { realProgram = realpathSync(found); } catch { continue; }
    const places = path.basename(realProgram) === path.basename(found) ? [found, realProgram] : [found];
    for (const p of places) {
      if (!isBelow(p, lookup.userHome) || lookup.untrusted.some(u => isInside(p, u))) continue;
      const dir = path.dirname(p);
      if (path.basename(dir) !== 'bin') { out.push(dir); continue; }
      // `…/bin/node` → the install (`…/lib` holds its modules).
      const prefix = path.dirname(dir);
      out.push(...wide ? [prefix] : [dir, path.join(prefix, 'lib')]);
    }
  }
  return [...new Set(out)];
}

function findProgram(program: string, pathEnv: string | undefined): string | undefined {
  if (program.includes('/') && !path.isAbsolute(program)) return undefined; // relative to the working folder: a root, already readable
  const candidates: string[] = [];
  if (path.isAbsolute(program)) candidates.push(program);
  else {
    for (const dir of (pathEnv ?? '').split(path.delimiter)) {
      // An empty or relative entry is the working folder or below it for the shell that runs the command:
      // what it finds there is readable already, and whatever comes after it on PATH may not be what runs.
      if (!path.isAbsolute(dir)) break;
      candidates.push(path.join(dir, program));
    }
  }
  for (const candidate of candidates) {
    try { accessSync(candidate, constants.X_OK); if (statSync(candidate).isFile()) return candidate; } catch { /* next */ }
  }
  return undefined;
}

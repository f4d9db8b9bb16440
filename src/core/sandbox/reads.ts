/**
 * What a sandboxed server may read of the user's home: nothing but its roots, its data folder, what
 * its declaration allows and the toolchains servers run on — the runtime the command lives in, and
 * package caches and tool installs, read-only. Everything else of home (editor settings and state,
 * `~/.npmrc`, tokens of other tools, shell history, other projects) is hidden: a list of secret
 * places always misses one. Outside home, the system (/usr, /etc, /opt) stays readable.
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import * as path from 'node:path';
import { isBelow } from './writable';

/** Caches and tool installs under home that `npx`, `uvx`, `node` and the like read to start a server. */
export const TOOLCHAIN_HOME_PATHS: readonly string[] = [
  '.npm/_cacache', '.npm/_npx', '.nvm/versions', '.volta', '.fnm', '.local/share/fnm', '.asdf/installs', '.asdf/shims',
  '.local/share/mise/installs', '.pyenv/versions', '.cache/uv', '.local/share/uv', '.local/bin', '.cargo/bin', '.rustup/toolchains',
  '.bun/bin', '.deno/bin', 'go/pkg/mod',
];

/**
 * The folders under home a server's command needs to run: the install of the program itself (and of
 * `node`, which runs `npx` and other scripts), found on the launch's PATH, when it lies in home.
 */
export function runtimeFolders(command: string, pathEnv: string | undefined, userHome: string): string[] {
  const out: string[] = [];
  for (const program of [command, 'node']) {
    const found = findProgram(program, pathEnv);
    if (!found) continue;
    let realProgram: string;
    try { realProgram = realpathSync(found); } catch { continue; }
    for (const p of [found, realProgram]) {
      if (!isBelow(p, userHome)) continue;
      const dir = path.dirname(p);
      // `…/bin/node` → the install (`…/lib` holds its modules); a script elsewhere → its folder.
      out.push(path.basename(dir) === 'bin' ? path.dirname(dir) : dir);
    }
  }
  return [...new Set(out)];
}

function findProgram(program: string, pathEnv: string | undefined): string | undefined {
  if (path.isAbsolute(program)) return program;
  if (program.includes('/')) return undefined; // relative to the working folder: a root, already readable
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, program);
    try { accessSync(candidate, constants.X_OK); return candidate; } catch { /* next */ }
  }
  return undefined;
}

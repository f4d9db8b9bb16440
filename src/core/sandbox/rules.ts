/**
 * The rules a sandboxed server runs under: its declaration's rules on top of defaults that let it
 * write only inside its writable roots and its own data folder (never the files in them that make
 * other programs run code, see plantable.ts), read nothing of the user's home but its roots, its
 * data folder and the toolchains it runs on (see reads.ts), and reach only the hosts its
 * declaration names, on port 443 unless it names another.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxDeclaration } from '../config/types';
import { isInside } from '../fsPaths';
import { pathEntriesIn } from './hostPath';
import { plantableIn } from './plantable';
import { TOOLCHAIN_HOME_PATHS } from './reads';
import type { SandboxTools } from './support';
import type { SrtSettings } from './types';
import { kernelMountsBelow, refusedFolder } from './writable';

/**
 * Secret places under the home folder. Home is read-denied as a whole; these stay denied even
 * inside a root or a toolchain folder that re-allows reading (a more specific deny wins in srt).
 */
export const SECRET_HOME_PATHS: readonly string[] = [
  '.ssh', '.aws', '.gnupg', '.azure', '.kube', '.docker', '.config/gcloud', '.config/gh', '.config/op',
  '.git-credentials', '.netrc', '.pgpass', '.password-store', '.local/share/keyrings', '.pki',
  'Library/Keychains', '.vault-token', '.terraform.d/credentials.tfrc.json', '.npmrc', '.pypirc',
  '.cargo/credentials.toml', '.cargo/credentials', '.bash_history', '.zsh_history', '.python_history', '.node_repl_history',
];

export interface RulesInput {
  readonly declared: SandboxDeclaration | undefined;
  readonly userHome: string;
  /** Roots the server may write (already limited to where the embedder lets roots be writable). */
  readonly roots: readonly string[];
  /** Roots the server may only read. */
  readonly readRoots?: readonly string[];
  /** The server's own data folder: readable and writable even inside `protectedPaths`. */
  readonly dataDir: string;
  /** The server's own temp folder (its TMPDIR): the only one it reads or writes. */
  readonly tempDir?: string;
  readonly protectedPaths: readonly string[];
  readonly defaultAllowedDomains: readonly string[];
  /** Folders under home the server's command runs from (see `runtimeFolders`). */
  readonly runtimeFolders?: readonly string[];
  readonly ripgrep?: string;
  /** bwrap, socat and rg as `checkSandboxSupport` found them; they win over `ripgrep`. */
  readonly tools?: SandboxTools;
  /** The editor's own PATH: its entries inside a writable folder are held read-only (hostPath.ts). */
  readonly editorPathEnv?: string;
  /** Environment variables of srt's own process that the server must not get. */
  readonly withheldEnv?: readonly string[];
  readonly platform?: NodeJS.Platform;
  /** Told about every folder left out of the rules, with the reason. */
  readonly onRefused?: (folder: string, reason: string, stillReadable: boolean) => void;
}

/** `~` and `~/…` of a declaration as folders of `userHome`. */
const inHome = (p: string, userHome: string) => p === '~' ? userHome : p.startsWith('~/') ? path.join(userHome, p.slice(2)) : p;

/** The folders a declaration's sandbox asks to write (before the limits of `refusedFolder`). */
export function declaredWrites(d: SandboxDeclaration | undefined, userHome: string): string[] {
  return (d?.filesystem.allowWrite ?? []).map(p => inHome(p, userHome));
}

export function buildRules(input: RulesInput): SrtSettings {
  const home = (p: string) => inHome(p, input.userHome);
  const d = input.declared;
  const uniq = (xs: readonly string[]) => [...new Set(xs.map(home))];
  const limits = { userHome: input.userHome, protectedPaths: input.protectedPaths };
  const allowed = (use: 'read' | 'write') => (p: string) => {
    const why = refusedFolder(p, limits, use);
    if (why) input.onRefused?.(p, why, use === 'write' && !refusedFolder(p, limits, 'read'));
    return !why;
  };
  const writable = uniq([...input.roots, ...d?.filesystem.allowWrite ?? []]).filter(allowed('write'));
  const readable = uniq([...input.readRoots ?? [], ...d?.filesystem.allowRead ?? []]).filter(allowed('read'))
    .filter(p => !writable.includes(p));
  const toolchains = [...TOOLCHAIN_HOME_PATHS.map(p => path.join(input.userHome, p)), ...input.runtimeFolders ?? []].filter(p => !refusedFolder(p, limits, 'read'));
  const platform = input.platform ?? process.platform;
  const own = [input.dataDir, ...input.tempDir ? [input.tempDir] : []];
  const ripgrep = input.tools?.ripgrep ?? input.ripgrep;
  return {
    filesystem: {
      denyRead: uniq([input.userHome, ...SECRET_HOME_PATHS.map(p => path.join(input.userHome, p)), ...input.protectedPaths, ...tempFolders(platform), ...d?.filesystem.denyRead ?? []]),
      // srt lets allowRead win over a broader denyRead (home, the protected storage holding the data folder, /tmp).
      allowRead: uniq([...writable, ...readable, ...toolchains, ...own]),
      allowWrite: uniq([...writable, ...own]),
      denyWrite: uniq([...writable.flatMap(w => plantableIn(w, platform)), ...pathEntriesIn(input.editorPathEnv, [...writable, ...own]), ...platform === 'linux' ? kernelMountsBelow([...writable, ...own]) : [], ...input.protectedPaths.filter(p => !isInside(input.dataDir, p)), ...SHARED_TEMP[platform] ?? [], ...d?.filesystem.denyWrite ?? []]),
    },
    network: {
      allowedDomains: (d?.network.allowedDomains ?? input.defaultAllowedDomains).map(httpsOnly),
      deniedDomains: [...d?.network.deniedDomains ?? []],
    },
    ...(input.withheldEnv?.length ? { credentials: { envVars: input.withheldEnv.map(name => ({ name, mode: 'deny' as const })) } } : {}),
    ...(ripgrep ? { ripgrep: { command: ripgrep } } : {}),
    ...(input.tools?.bwrap ? { bwrapPath: input.tools.bwrap } : {}),
    ...(input.tools?.socat ? { socatPath: input.tools.socat } : {}),
  };
}

/**
 * srt's own temp folder, bound writable into every sandbox it makes (it cannot be hidden): read-only
 * here, so that sandboxed servers cannot pass files to each other through it.
 */
const SHARED_TEMP: Partial<Record<NodeJS.Platform, string[]>> = { linux: ['/tmp/claude'], darwin: ['/tmp/claude', '/private/tmp/claude'] };

/**
 * Where programs keep temp files, read-denied as a whole (each server has its own temp folder).
 * Linux only, where it is tested; on macOS the server still gets a temp folder of its own.
 */
function tempFolders(platform: NodeJS.Platform): string[] {
  return platform === 'linux' ? [...new Set(['/tmp', '/var/tmp', os.tmpdir()])] : [];
}

/** A host without a port may be reached on 443 only: a registry needs HTTPS, nothing else. */
function httpsOnly(domain: string): string {
  return /:\d+$/.test(domain) ? domain : `${domain}:443`;
}

/** Paths of `file:` roots; other schemes cannot be enforced by the file system and are left out. */
export function rootPaths(uris: readonly string[]): string[] {
  const out: string[] = [];
  for (const uri of uris) {
    try {
      const u = new URL(uri);
      if (u.protocol === 'file:' && (u.host === '' || u.host === 'localhost')) out.push(fileURLToPath(u));
    } catch { /* not a URL: not a root we can enforce */ }
  }
  return out.sort();
}

/**
 * The rules a sandboxed server runs under: its declaration's rules on top of defaults that let it
 * write only inside its roots and its own data folder, and read anything but the usual secret places.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SandboxDeclaration } from '../config/types';
import type { SrtSettings } from './types';

/** Secret places under the home folder: keys, cloud and registry credentials, keyrings, password stores. */
export const SECRET_HOME_PATHS: readonly string[] = [
  '.ssh', '.aws', '.gnupg', '.azure', '.kube', '.docker', '.config/gcloud', '.config/gh', '.config/op',
  '.git-credentials', '.netrc', '.pgpass', '.password-store', '.local/share/keyrings', '.pki',
  'Library/Keychains', '.vault-token', '.terraform.d/credentials.tfrc.json',
];

export interface RulesInput {
  readonly declared: SandboxDeclaration | undefined;
  readonly userHome: string;
  /** The server's roots as absolute paths: writable. */
  readonly roots: readonly string[];
  /** The server's own data folder: readable and writable even inside `protectedPaths`. */
  readonly dataDir: string;
  readonly protectedPaths: readonly string[];
  readonly defaultAllowedDomains: readonly string[];
  readonly ripgrep?: string;
}

export function buildRules(input: RulesInput): SrtSettings {
  const home = (p: string) => p === '~' ? input.userHome : p.startsWith('~/') ? path.join(input.userHome, p.slice(2)) : p;
  const d = input.declared;
  const uniq = (xs: readonly string[]) => [...new Set(xs.map(home))];
  return {
    filesystem: {
      denyRead: uniq([...SECRET_HOME_PATHS.map(p => path.join(input.userHome, p)), ...input.protectedPaths, ...d?.filesystem.denyRead ?? []]),
      // The data folder usually lies inside the protected storage; srt lets allowRead win over denyRead.
      allowRead: [input.dataDir],
      allowWrite: uniq([...input.roots, input.dataDir, ...d?.filesystem.allowWrite ?? []]),
      denyWrite: uniq(d?.filesystem.denyWrite ?? []),
    },
    network: {
      allowedDomains: [...d?.network.allowedDomains ?? input.defaultAllowedDomains],
      deniedDomains: [...d?.network.deniedDomains ?? []],
    },
    ...(input.ripgrep ? { ripgrep: { command: input.ripgrep } } : {}),
  };
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

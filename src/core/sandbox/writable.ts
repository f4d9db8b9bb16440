/**
 * Which folders a sandboxed server may be given at all. A root (or an `allowWrite` entry) that is
 * the home folder, lies above it, is the file system's root, lies in a hidden folder of home
 * (`~/.config`, `~/.local/bin`, `~/.ssh`: configuration and programs the user runs) or touches a
 * protected path would hand the server the user's account: it could rewrite the editor's settings
 * to add an unsandboxed server or put a `git` first on PATH. Such a folder is neither writable nor
 * readable in the sandbox, whoever named it (a workspace, a declaration, the user's settings).
 * Reads follow the same rule, except that hidden folders of home may be read (runtimes, caches).
 * Paths are compared after symbolic links are resolved, so a link to home is home.
 * Kernel file systems (/proc, /sys, /dev, and cgroup, sysfs or proc mounted anywhere) are never
 * writable: they hold no files a server works on, only the system's controls — a writable cgroup
 * folder lets a server kill or freeze the editor's own cgroup, or pull another process into its own.
 */
import { realpathSync, statfsSync } from 'node:fs';
import * as path from 'node:path';
import { isInside } from '../fsPaths';
import { parseMountinfo, readMountinfo } from '../mountinfo';

export interface FolderLimits {
  readonly userHome: string;
  /** Paths no sandboxed server may write (the embedder's storage, the editor's user data). */
  readonly protectedPaths: readonly string[];
}

/** Why `folder` may not be given to a sandboxed server, or undefined when it may. */
export function refusedFolder(folder: string, limits: FolderLimits, use: 'write' | 'read' = 'write'): string | undefined {
  const p = real(folder);
  const home = real(limits.userHome);
  if (p === path.parse(p).root) return 'it is the root of the file system';
  if (use === 'write') { const kernel = kernelFileSystem(p); if (kernel) return `it is ${kernel}, which holds the system's controls (processes, cgroups, devices), not files`; }
  if (p === home) return 'it is your home folder';
  if (isBelow(home, p)) return 'it contains your home folder';
  const inHome = path.relative(home, p);
  // Runtimes and caches live in hidden folders of home: readable (see reads.ts), never writable.
  if (use === 'write' && isBelow(p, home) && inHome.split(path.sep)[0].startsWith('.')) return `it lies in ${path.join('~', inHome.split(path.sep)[0])}, where settings and programs you run live`;
  for (const raw of limits.protectedPaths) {
    const prot = real(raw);
    if (isInside(p, prot)) return `it lies in ${prot}, which sandboxed servers may not touch`;
    if (isBelow(prot, p)) return `it contains ${prot}, which sandboxed servers may not touch`;
  }
  return undefined;
}

/** statfs f_type of the kernel's own file systems (linux/magic.h), by the name said in the refusal. */
const KERNEL_FS = new Map<number, string>([
  [0x9fa0, 'proc'], [0x62656572, 'sysfs'], [0x63677270, 'cgroup2'], [0x27e0eb, 'cgroup'], [0x1cd1, 'devpts'],
  [0x64626720, 'debugfs'], [0x74726163, 'tracefs'], [0x73636673, 'securityfs'], [0xcafe4a11, 'bpf'],
  [0x62656570, 'configfs'], [0xde5e81e4, 'efivarfs'], [0x6e736673, 'nsfs'],
]);

/** Which kernel file system `p` (links resolved) is on or under, if any: by place, then by what statfs says. */
function kernelFileSystem(p: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  // devtmpfs says tmpfs: /dev goes by place, as do /proc and /sys where they are not mounted yet.
  for (const top of ['/proc', '/sys', '/dev']) if (isInside(p, top)) return `a kernel file system (${top})`;
  for (let at = p; ; at = path.dirname(at)) {
    try { const name = KERNEL_FS.get(statfsSync(at).type); return name ? `a kernel file system (${name})` : undefined; } catch { /* not there yet: its parent */ }
    if (path.dirname(at) === at) return undefined;
  }
}

/** The same file systems by the type name mountinfo gives them (and the ones statfs cannot tell apart: devtmpfs). */
const KERNEL_FS_TYPES = new Set([...KERNEL_FS.values(), 'devtmpfs', 'mqueue', 'hugetlbfs', 'fusectl', 'pstore', 'binfmt_misc', 'autofs', 'rpc_pipefs']);

/**
 * Kernel file systems mounted strictly below one of `folders` (Linux, from /proc/self/mountinfo). A writable folder
 * is bound into the sandbox with what is mounted in it, each mount keeping its own write flag: a cgroup
 * hierarchy someone bound into a project would be writable through it. The rules hold these read-only.
 */
export function kernelMountsBelow(folders: readonly string[], mountinfo = readMountinfo()): string[] {
  if (mountinfo === undefined || !folders.length) return [];
  const inside = folders.map(real);
  return parseMountinfo(mountinfo).filter(m => KERNEL_FS_TYPES.has(m.type.split('.')[0]) && inside.some(f => isBelow(m.point, f))).map(m => m.point);
}

/** `inner` lies strictly below `outer`. */
export function isBelow(inner: string, outer: string): boolean {
  return inner !== outer && isInside(inner, outer);
}

/** The path with links resolved, as far as it exists (the rest appended as written). */
export function real(p: string): string {
  const abs = path.resolve(p);
  try { return realpathSync.native(abs); } catch { /* resolve what exists */ }
  const parent = path.dirname(abs);
  return parent === abs ? abs : path.join(real(parent), path.basename(abs));
}

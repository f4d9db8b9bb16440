/**
 * One cgroup (v2, Linux) per launch: the one link to its launch that no process can drop by itself.
 * The token in the environment (processScan.ts) is gone after `env -i`, the process group after
 * `setsid`, the parent link after a double fork; the cgroup stays, inherited by every fork, and the
 * kernel lists its members (cgroup.procs) and kills them all at once (cgroup.kill, Linux ≥ 5.14).
 * The launch's cgroup is `<host's own cgroup>/mcp-host-<launch token>`: a child of the cgroup the
 * editor runs in, which systemd delegates to the user. Where that is not possible (not Linux, no
 * cgroup2 mount, no delegation) nothing is created and the process table is all there is.
 * The server enters its cgroup before it runs anything: a shell writes its own pid to cgroup.procs and
 * then execs the command (same pid), so not even its first fork happens outside.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, realpathSync, rmdirSync, statfsSync, statSync, writeSync } from 'node:fs';
import * as path from 'node:path';
import { parseMountinfo, readMountinfo } from '../mountinfo';

/** statfs f_type of cgroup2 (linux/magic.h CGROUP2_SUPER_MAGIC). */
const CGROUP2_MAGIC = 0x63677270;
const TOKEN = /^[0-9a-f]{32}$/;
const NAME = /^mcp-host-[0-9a-f]{32}$/;
/** The wrapper's exit code when it could not enter the cgroup (the command never ran). */
export const CGROUP_ENTER_FAILED = 125;

export interface CgroupSupport {
  /** The folder launch cgroups are made in (the host's own cgroup), when they can be. */
  readonly base?: string;
  /** Why not, or where: said once in the host's log. */
  readonly note: string;
}

/** Where cgroup2 is mounted (the "unified" hierarchy): its mount point and the cgroup path it shows at that point. */
export function cgroup2Mount(mountinfo: string): { point: string; root: string } | undefined {
  const m = parseMountinfo(mountinfo).find(x => x.type === 'cgroup2');
  return m && { root: m.root, point: m.point };
}

/** This process's cgroup in the unified hierarchy: the `0::` line of /proc/self/cgroup. */
export function ownCgroup(procCgroup: string): string | undefined {
  const line = procCgroup.split('\n').find(l => l.startsWith('0::'));
  const own = line?.slice(3);
  // " (deleted)" and the like: a path we cannot make a child in.
  return own && own.startsWith('/') && !own.includes(' ') ? own : undefined;
}

function read(file: string): string { try { return readFileSync(file, 'utf8'); } catch { return ''; } }

/** The folder of `own` under the mount, or undefined when the mount does not show it (another cgroup namespace's root). */
export function cgroupFolder(mount: { point: string; root: string }, own: string): string | undefined {
  const rel = mount.root === '/' ? own : own === mount.root ? '/' : own.startsWith(`${mount.root}/`) ? own.slice(mount.root.length) : undefined;
  if (rel === undefined) return undefined;
  // No trailing slash (the root cgroup's "/"): a launch's folder is compared with `path.dirname` of it.
  const dir = path.join(mount.point, rel);
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

let support: CgroupSupport | undefined;

/**
 * Whether launches get their own cgroup, found out once: a cgroup made under the host's own, a
 * shell moved into it (what each launch's wrapper does), the cgroup removed again.
 */
export function launchCgroupSupport(): CgroupSupport {
  if (!support) {
    support = probe();
    const tell = tellProbe;
    tellProbe = undefined;
    tell?.(support.note);
  }
  return support;
}

let tellProbe: ((note: string) => void) | undefined;

/**
 * `tell` gets the probe's note once, when the first launch probes (or now if one did): the probe
 * spawns a shell synchronously, which activation must not pay for when no server starts.
 */
export function whenLaunchCgroupsProbed(tell: (note: string) => void): void {
  if (support) tell(support.note);
  else tellProbe = tell;
}

function probe(): CgroupSupport {
  if (process.platform !== 'linux') return { note: 'launch cgroups are Linux only' };
  const mount = cgroup2Mount(readMountinfo() ?? '');
  if (!mount) return { note: 'no cgroup2 mount in /proc/self/mountinfo: server processes are found through the process table only' };
  const own = ownCgroup(read('/proc/self/cgroup'));
  const base = own && cgroupFolder(mount, own);
  if (!base) return { note: `this process's cgroup (${JSON.stringify(own ?? '')}) is not under the cgroup2 mount ${mount.point}: server processes are found through the process table only` };
  // Random, as a launch's: two windows probing at once never share (and remove) one trial cgroup.
  const trial = path.join(base, `mcp-host-${randomBytes(16).toString('hex')}`);
  try { mkdirSync(trial); } catch (e) {
    return { note: `cannot create a cgroup under ${base} (${(e as NodeJS.ErrnoException).code}: the host's cgroup is not delegated to this user): server processes are found through the process table only` };
  }
  try {
    const entered = spawnSync('/bin/sh', ['-c', 'echo $$ > "$1/cgroup.procs"', 'sh', trial], { stdio: 'ignore', env: {}, timeout: 5000 });
    if (entered.status !== 0) return { note: `cannot move a process into a cgroup under ${base}: server processes are found through the process table only` };
    return { base, note: `each server runs in its own cgroup under ${base}` };
  } finally {
    try { rmdirSync(trial); } catch { /* the shell has exited: it is empty, nothing runs in it */ }
  }
}

/** The name of a launch's cgroup, from its token only. */
export function launchCgroupName(token: string): string | undefined {
  return TOKEN.test(token) ? `mcp-host-${token}` : undefined;
}

/** Makes the launch's cgroup under the host's own; undefined where there are none (or this one could not be made). */
export function createLaunchCgroup(token: string): string | undefined {
  const { base } = launchCgroupSupport();
  const name = launchCgroupName(token);
  if (!base || !name) return undefined;
  const dir = path.join(base, name);
  try { mkdirSync(dir); return dir; } catch { return undefined; }
}

/**
 * Whether `dir` is a launch cgroup we may kill: an absolute, normalised path whose last part is
 * `mcp-host-<32 hex>` (that of `token` when given), with no symbolic link on the way, on a cgroup2
 * file system, and — when `parent` is given — directly in it. Anything else (a ledger entry an
 * attacker edited, another program's cgroup) is never touched.
 */
export function isLaunchCgroup(dir: string, opts: { parent?: string; token?: string } = {}): boolean {
  if (typeof dir !== 'string' || !path.isAbsolute(dir) || path.normalize(dir) !== dir) return false;
  const name = path.basename(dir);
  if (!NAME.test(name) || (opts.token !== undefined && name !== `mcp-host-${opts.token}`)) return false;
  if (opts.parent !== undefined && path.dirname(dir) !== opts.parent) return false;
  try {
    if (!lstatSync(dir).isDirectory() || realpathSync(dir) !== dir) return false;
    return statfsSync(dir).type === CGROUP2_MAGIC;
  } catch { return false; }
}

/**
 * The cgroup and every cgroup below it, parents first. A server may make child cgroups in its own
 * launch cgroup (it is the user's) and move helpers there: they are still the launch's, and the
 * launch cgroup cannot be removed while any child is left. Walked without recursion (a hostile
 * nesting may be deep); a cgroup file system holds no symbolic links, and none is followed.
 */
export function cgroupTree(dir: string): string[] {
  const out: string[] = [];
  for (const todo = [dir]; todo.length;) {
    const next = todo.pop()!;
    out.push(next);
    try { for (const e of readdirSync(next, { withFileTypes: true })) if (e.isDirectory()) todo.push(path.join(next, e.name)); } catch { /* removed meanwhile */ }
  }
  return out;
}

/** The live processes in the cgroup and the cgroups below it (zombies are dead already: nothing to signal). */
export function cgroupProcs(dir: string): number[] {
  const pids = new Set<number>();
  for (const group of cgroupTree(dir)) {
    let text: string;
    try { text = readFileSync(path.join(group, 'cgroup.procs'), 'latin1'); } catch { continue; }
    for (const pid of text.split('\n').map(Number)) if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isZombie(pid)) pids.add(pid);
  }
  return [...pids];
}

function isZombie(pid: number): boolean {
  try { const stat = readFileSync(`/proc/${pid}/stat`, 'latin1'); return stat[stat.lastIndexOf(')') + 2] === 'Z'; } catch { return true; }
}

/** Writes `text` to a file of the cgroup, not through a symbolic link. */
function writeControl(file: string, text: string): boolean {
  let fd: number | undefined;
  try { fd = openSync(file, constants.O_WRONLY | constants.O_NOFOLLOW); writeSync(fd, text); return true; } catch { return false; } finally { if (fd !== undefined) closeSync(fd); }
}

/** SIGTERM (or another signal) every process of the cgroup, if it is a launch cgroup. */
export function signalCgroup(dir: string, signal: NodeJS.Signals, opts: { parent?: string; token?: string } = {}): number[] {
  if (!isLaunchCgroup(dir, opts)) return [];
  const pids = cgroupProcs(dir);
  for (const pid of pids) try { process.kill(pid, signal); } catch { /* gone */ }
  return pids;
}

/**
 * Kills every process in the launch cgroup and removes it: cgroup.kill where the kernel has it
 * (atomic, forks included), else SIGKILL to each member until none is left. Resolves with how many
 * processes it found; a path that is no launch cgroup is left alone (0).
 */
export async function killCgroup(dir: string, opts: { parent?: string; token?: string } = {}): Promise<number> {
  if (!isLaunchCgroup(dir, opts)) return 0;
  const found = cgroupProcs(dir).length;
  const killed = writeControl(path.join(dir, 'cgroup.kill'), '1');
  for (const end = Date.now() + 2000; ;) {
    const left = cgroupProcs(dir);
    if (!left.length) break;
    if (!killed) for (const pid of left) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    if (Date.now() > end) break;
    await new Promise(r => setTimeout(r, 20));
  }
  // rmdir fails (EBUSY) while an exiting member is still being torn down, or a child cgroup is left:
  // the children the server made go first (deepest first), then the launch's own; a few tries.
  for (let i = 0; i < 50; i++) {
    let busy = false;
    for (const group of cgroupTree(dir).reverse()) {
      try { rmdirSync(group); } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EBUSY') busy = true; else if (code !== 'ENOENT' && group === dir) return found;
      }
    }
    if (!busy) break;
    await new Promise(r => setTimeout(r, 20));
  }
  return found;
}

/** Removes an empty launch cgroup (a spawn that never ran). */
export function removeLaunchCgroup(dir: string): void {
  if (isLaunchCgroup(dir)) try { rmdirSync(dir); } catch { /* not empty: the ledger's sweep or the watchdog ends it */ }
}

/**
 * The command that starts `command args` inside `dir`: a shell writes its own pid to the cgroup and
 * execs the command (the pid stays the same). Everything is a positional argument, never shell text.
 */
export function wrapInCgroup(dir: string, command: string, args: readonly string[]): { command: string; args: string[] } {
  const script = `echo $$ > "$1/cgroup.procs" || { echo "MCP Host: could not enter the launch cgroup $1" >&2; exit ${CGROUP_ENTER_FAILED}; }; shift; exec "$@"`;
  return { command: '/bin/sh', args: ['-c', script, 'sh', dir, command, ...args] };
}

/**
 * Whether spawning `command` directly would run something: found on PATH (from the launch's own
 * environment, as spawn looks it up) or at its path, and executable. When it would not, the launch is
 * not wrapped: spawn then fails with the same ENOENT or EACCES (and message) as without cgroups.
 */
export function runnable(command: string, env: Record<string, string | undefined>, cwd?: string): boolean {
  const ok = (file: string) => { try { if (!statSync(file).isFile()) return false; accessSync(file, constants.X_OK); return true; } catch { return false; } };
  if (command.includes('/')) return ok(path.resolve(cwd ?? process.cwd(), command));
  const dirs = (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(':');
  return dirs.some(d => ok(path.resolve(cwd ?? process.cwd(), d || '.', command)));
}

/**
 * What the Linux process table says about the processes one launch started. A process group is not
 * enough: a helper started with `setsid` has its own session and group, and one whose parent exited
 * is reparented away from the server's tree. Every launch carries a random token in its environment
 * ({@link LAUNCH_TOKEN_ENV}); descendants inherit it, and `/proc/<pid>/environ` shows it to us (same
 * user only) whatever the process's argv, group or parent. Descendants that cleared their environment
 * are still found through their parent links while the chain is unbroken.
 * Elsewhere (macOS, Windows) there is no /proc: callers fall back to the process group / `taskkill /T`.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable that names a launch; the value is random per spawn. */
export const LAUNCH_TOKEN_ENV = 'MCP_HOST_LAUNCH';

export const canScanProcesses = process.platform === 'linux';

interface ProcStat { readonly ppid: number; readonly start: string; readonly zombie: boolean }

/** Parent pid and start time (clock ticks since boot: with the pid, a process's identity) from /proc/<pid>/stat. */
export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try { text = readFileSync(`/proc/${pid}/stat`, 'latin1'); } catch { return undefined; }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after the last ')'.
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(rest[1]);
  const start = rest[19];
  return Number.isInteger(ppid) && start ? { ppid, start, zombie: rest[0] === 'Z' } : undefined;
}

/** Start time of a live process, to tell it from a later one that reuses the pid. A zombie is not alive: it only waits to be reaped. */
export function processStartTime(pid: number): string | undefined {
  const stat = readStat(pid);
  return stat && !stat.zombie ? stat.start : undefined;
}

/** The launch token in a process's environment, if it is one of ours (and readable: same user). */
export function launchTokenOf(pid: number): string | undefined {
  let env: string;
  try { env = readFileSync(`/proc/${pid}/environ`, 'latin1'); } catch { return undefined; }
  const key = `${LAUNCH_TOKEN_ENV}=`;
  for (const entry of env.split('\0')) if (entry.startsWith(key)) return entry.slice(key.length);
  return undefined;
}

/**
 * Live pids that belong to the launches named by `tokens` (their environment says so) or descend
 * from `roots` or from such a process. Empty where there is no /proc.
 */
export function launchProcesses(tokens: ReadonlySet<string>, roots: readonly number[] = []): number[] {
  if (!canScanProcesses) return [];
  let names: string[];
  try { names = readdirSync('/proc'); } catch { return []; }
  const parent = new Map<number, number>();
  const found = new Set<number>(roots.filter(p => p > 0));
  const zombies = new Set<number>();
  for (const name of names) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    const stat = readStat(pid);
    if (!stat) continue;
    parent.set(pid, stat.ppid);
    if (stat.zombie) zombies.add(pid);
    const token = tokens.size ? launchTokenOf(pid) : undefined;
    if (token !== undefined && tokens.has(token)) found.add(pid);
  }
  // Descendants by parent links, to a fixed point (a process listed before its parent is caught next round).
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) if (!found.has(pid) && found.has(ppid)) { found.add(pid); grew = true; }
  }
  // A zombie is already dead (its parent has yet to reap it): nothing to signal, nothing to wait for.
  return [...found].filter(p => parent.has(p) && !zombies.has(p));
}

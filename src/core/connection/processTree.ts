/**
 * Kills a child and everything it started: servers launched via `npx`/shells leave grandchildren,
 * helpers started with `setsid` leave the process group, and one started by a double fork with an
 * empty environment leaves every trace but its cgroup (launchCgroup.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { cgroupProcs, isLaunchCgroup, killCgroup, launchCgroupSupport } from './launchCgroup';
import { forgetLaunch, launchCgroup, launchToken } from './processLedger';
import { launchProcesses, processStartTime } from './processScan';
import { windowsSystemProgram } from './windowsCommand';

/**
 * On POSIX the child is started as a process-group leader (`detached`), so signalling the negative
 * pid reaches the whole group; on Linux every process carrying the launch's token (or descending
 * from one) or in the launch's cgroup is signalled too, whatever its session, parent or environment. On Windows `taskkill /T` walks the tree.
 */
export function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', seen?: readonly SeenProcess[]): void {
  signalTree(child, signal, launchMembers(child, seen));
}

function signalTree(child: ChildProcess, signal: NodeJS.Signals, members: readonly number[]): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    // By absolute path: a bare name would be looked up in the current folder first.
    spawn(windowsSystemProgram('taskkill.exe', process.env), ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on('error', () => {});
    return;
  }
  try { process.kill(-pid, signal); } catch { /* group already gone */ }
  try { child.kill(signal); } catch { /* already exited */ }
  for (const other of members) try { process.kill(other, signal); } catch { /* gone */ }
}

/** A process seen in a launch's tree: its pid and start time, so a later process reusing the pid is left alone. */
export interface SeenProcess { readonly pid: number; readonly start: string }

/**
 * What is left of the launch besides its group (Linux): its token's processes, the leader's
 * descendants while the leader is ours, those `seen` earlier that are still the same processes,
 * and every process in its cgroup.
 */
function launchMembers(child: ChildProcess, seen: readonly SeenProcess[] = []): number[] {
  const token = launchToken(child);
  const alive = child.exitCode === null && child.signalCode === null && child.pid !== undefined;
  const roots = [...(alive ? [child.pid!] : []), ...seen.filter(p => processStartTime(p.pid) === p.start).map(p => p.pid)];
  const found = token || roots.length ? launchProcesses(new Set(token ? [token] : []), roots) : [];
  const cgroup = ownedCgroup(child);
  return cgroup ? [...new Set([...found, ...cgroupProcs(cgroup)])] : found;
}

/** The launch's cgroup, if it is one this host made: `mcp-host-<its token>` directly under the host's own cgroup. */
function ownedCgroup(child: ChildProcess): string | undefined {
  const dir = launchCgroup(child);
  const token = launchToken(child);
  const base = launchCgroupSupport().base;
  return dir && token && base && path.dirname(dir) === base && isLaunchCgroup(dir, { parent: base, token }) ? dir : undefined;
}

/**
 * The launch's processes now, before stdin closes: a polite server exits on EOF at once, and its
 * helpers that left both its session and its environment are found after that only through this.
 */
export function snapshotTree(child: ChildProcess): SeenProcess[] {
  return launchMembers(child).flatMap(pid => { const start = processStartTime(pid); return start ? [{ pid, start }] : []; });
}

/**
 * SIGKILL what is left of the launch until nothing is, then forget it (a process may fork while we
 * signal). Its cgroup first: the kernel kills every member at once, forks and orphans included.
 */
export async function finishTree(child: ChildProcess, seen?: readonly SeenProcess[]): Promise<void> {
  const cgroup = ownedCgroup(child);
  if (cgroup) await killCgroup(cgroup, { parent: path.dirname(cgroup), token: launchToken(child) });
  for (let round = 0; round < 5; round++) {
    const members = launchMembers(child, seen);
    signalTree(child, 'SIGKILL', members);
    if (!members.length) break;
    await new Promise(r => setTimeout(r, 20));
  }
  forgetLaunch(child);
}

/**
 * SIGKILL everything the child started, but not the child: under srt the sandboxed processes die at
 * once while srt itself lives on to remove its mount points and exit. Nothing started yet: the child too.
 */
export function killDescendants(child: ChildProcess): void {
  const others = launchMembers(child).filter(pid => pid !== child.pid);
  if (others.length) for (const pid of others) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  else signalTree(child, 'SIGKILL', []);
}

/** SIGTERM the tree, then SIGKILL after `graceMs` unless the group leader exited. Resolves when the leader is gone. */
export async function terminateTree(child: ChildProcess, graceMs = 2000, seen?: readonly SeenProcess[]): Promise<void> {
  const exited = new Promise<void>(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  killTree(child, 'SIGTERM', seen);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>(r => { timer = setTimeout(() => r(true), graceMs); }),
  ]);
  clearTimeout(timer);
  // Even if the leader exited, grandchildren may ignore SIGTERM: always sweep the group.
  await finishTree(child, seen);
  if (timedOut) await exited;
}

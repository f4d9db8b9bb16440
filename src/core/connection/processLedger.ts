/**
 * Every server process MCP Host starts is a *launch*: a random token in its environment, watched by
 * the host's watchdog (hostWatchdog.ts) and, when the embedder gives a folder, written down there
 * (one small file per launch: the host's pid and start time, the process's pid and start time, the
 * token, the launch's cgroup where it has one: launchCgroup.ts). What a dead host left running — its
 * watchdog killed with it, a power cut of the editor — is swept at the next activation ({@link sweepLeftovers}): only processes whose environment carries
 * the token of a launch whose host is gone, or that are in that launch's cgroup (a path checked to be
 * one: `mcp-host-<its token>` on cgroup2), never by command line, never another live window's.
 */
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { unwatchLaunch, watchLaunch } from './hostWatchdog';
import { cgroupProcs, isLaunchCgroup, killCgroup, removeLaunchCgroup } from './launchCgroup';
import { canScanProcesses, launchProcesses, processStartTime } from './processScan';

interface LedgerEntry {
  readonly host: { readonly pid: number; readonly start?: string };
  readonly pid: number;
  readonly start?: string;
  readonly token: string;
  /** The launch's cgroup folder, when it has one. */
  readonly cgroup?: string;
}

/**
 * A launch's token and cgroup, kept on the child itself under a registered symbol: the early bundle
 * (src/early.ts) and the host bundle each have their own copy of this module, and a process the
 * early one spawned is stopped by the host's — which must still find its token and cgroup.
 */
const LAUNCH = Symbol.for('mcp-host.launch');
interface LaunchTag { readonly token: string; readonly cgroup?: string }
type Tagged = ChildProcess & { [LAUNCH]?: LaunchTag };
const tagOf = (child: ChildProcess): LaunchTag | undefined => (child as Tagged)[LAUNCH];
let ledgerDir: string | undefined;
let hostStart: string | undefined;

export function newLaunchToken(): string { return randomBytes(16).toString('hex'); }

/** The token of a launch {@link trackLaunch} was told about. */
export function launchToken(child: ChildProcess): string | undefined { return tagOf(child)?.token; }

/** Writes every later launch down in `dir` (the embedder's own storage), for {@link sweepLeftovers}. */
export function keepLedgerIn(dir: string): void {
  try { mkdirSync(dir, { recursive: true }); } catch { return; }
  ledgerDir = dir;
  hostStart ??= processStartTime(process.pid);
}

/** The cgroup the launch runs in, if it has one. */
export function launchCgroup(child: ChildProcess): string | undefined { return tagOf(child)?.cgroup; }

/** A child was just spawned with `token` in its environment (and inside `cgroup`, when given). */
export function trackLaunch(child: ChildProcess, token: string, cgroup?: string): void {
  const pid = child.pid;
  if (pid === undefined) {
    // Nothing ran (ENOENT of the cwd): the empty cgroup goes.
    if (cgroup) removeLaunchCgroup(cgroup);
    return;
  }
  Object.defineProperty(child, LAUNCH, { value: { token, cgroup }, configurable: true, enumerable: false, writable: false });
  watchLaunch(token, pid);
  if (!ledgerDir) return;
  const entry: LedgerEntry = { host: { pid: process.pid, start: hostStart }, pid, start: processStartTime(pid), token, ...(cgroup ? { cgroup } : {}) };
  try { writeFileSync(path.join(ledgerDir, `${token}.json`), JSON.stringify(entry)); } catch { /* best effort: the watchdog still holds it */ }
}

/** The launch's processes are gone (its tree was terminated). */
export function forgetLaunch(child: ChildProcess): void {
  const tag = tagOf(child);
  if (!tag) return;
  const { token, cgroup } = tag;
  delete (child as Tagged)[LAUNCH];
  if (cgroup) removeLaunchCgroup(cgroup);
  unwatchLaunch(token);
  if (ledgerDir) try { unlinkSync(path.join(ledgerDir, `${token}.json`)); } catch { /* already swept */ }
}

/**
 * Ends what launches of dead hosts left running and forgets those launches. A host is alive when a
 * process with its pid and start time exists (another window of the editor shares the folder).
 * Linux only (the token is read from /proc); elsewhere the watchdog is the safety net.
 * Resolves with the number of processes that had to be ended.
 */
export async function sweepLeftovers(dir: string, graceMs = 1000): Promise<number> {
  let names: string[];
  try { names = readdirSync(dir).filter(n => n.endsWith('.json')); } catch { return 0; }
  const dead = new Set<string>();
  /** Dead launches' cgroups, each checked to be `mcp-host-<that launch's token>` on cgroup2: a planted path is never one. */
  const groups: { dir: string; token: string }[] = [];
  const files: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let entry: LedgerEntry;
    try { entry = JSON.parse(readFileSync(file, 'utf8')) as LedgerEntry; } catch { files.push(file); continue; }
    if (typeof entry?.token !== 'string' || typeof entry.host?.pid !== 'number') { files.push(file); continue; }
    const hostStartNow = processStartTime(entry.host.pid);
    if (hostStartNow !== undefined && hostStartNow === entry.host.start) continue;
    dead.add(entry.token);
    if (typeof entry.cgroup === 'string' && isLaunchCgroup(entry.cgroup, { token: entry.token })) groups.push({ dir: entry.cgroup, token: entry.token });
    files.push(file);
  }
  let ended = 0;
  if (dead.size && canScanProcesses) {
    const members = () => [...new Set([...launchProcesses(dead), ...groups.flatMap(g => cgroupProcs(g.dir))])];
    const left = members();
    ended = left.length;
    signal(left, 'SIGTERM');
    for (const end = Date.now() + graceMs; members().length && Date.now() < end;) await new Promise(r => setTimeout(r, 50));
    // What ignored SIGTERM in a cgroup dies with it, forks included; the cgroup goes too.
    for (const { dir, token } of groups) await killCgroup(dir, { token });
    // SIGKILL until none is left: a process may fork while we signal.
    for (let round = 0; round < 5; round++) {
      const still = launchProcesses(dead);
      if (!still.length) break;
      signal(still, 'SIGKILL');
      await new Promise(r => setTimeout(r, 20));
    }
  }
  for (const file of files) try { unlinkSync(file); } catch { /* another window swept it */ }
  return ended;
}

function signal(pids: readonly number[], sig: NodeJS.Signals): void {
  for (const pid of pids) try { process.kill(pid, sig); } catch { /* gone */ }
}

/**
 * A server's life is tied to the host's: one small detached process per host process (the watchdog)
 * holds the read end of a pipe from the host and the list of live launches. When the pipe ends — the
 * host exited, was killed with SIGKILL, crashed — it ends every process of those launches (SIGTERM,
 * then SIGKILL), including servers that ignore stdin EOF and helpers in their own session. Node gives
 * an extension no parent-death signal or job object; a pipe's end is the one notice every OS gives.
 * On Linux it finds the processes by their launch token (processScan.ts) and in each launch's cgroup
 * (launchCgroup.ts: what a double fork with an empty environment leaves); elsewhere by process group
 * (macOS) or `taskkill /T` (Windows). A watchdog that dies while the host lives (a server killed it)
 * is replaced at once, and the new one is told every live launch; on Linux so is a stopped one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { launchCgroupSupport } from './launchCgroup';
import { LAUNCH_TOKEN_ENV } from './processScan';
import { windowsSystemProgram } from './windowsCommand';

// Plain JavaScript run with `node -e`: it must not depend on the bundle it comes from.
const WATCHDOG_SCRIPT = String.raw`
const fs = require('fs');
const { spawnSync } = require('child_process');
const launches = new Map();
// The launches already live when this watchdog replaced one, known before it reads a line (the host may die first).
for (const entry of (process.env.MCP_HOST_LIVE || '').split(',')) { const [token, pid] = entry.split(' '); if (token) launches.set(token, Number(pid)); }
const key = process.argv[1] + '=';
const taskkill = process.argv[2];
// The host's own cgroup, where its launches' cgroups are (from the host, in the environment). A
// launch's cgroup is rebuilt from it and the launch's token, never read from anything else, and only
// for a token of 32 hex digits: no other folder can be named.
const base = /^\/[^\0]*$/.test(process.env.MCP_HOST_CGROUP_BASE || '') && !/(^|\/)\.\.?(\/|$)/.test(process.env.MCP_HOST_CGROUP_BASE) ? process.env.MCP_HOST_CGROUP_BASE : '';
const groupOf = token => base && /^[0-9a-f]{32}$/.test(token) ? base + '/mcp-host-' + token : undefined;
// The launch's cgroup and the child cgroups its server made in it (parents first; no link is followed).
function groupTree(dir) {
  const out = [];
  for (const todo = [dir]; todo.length;) {
    const next = todo.pop();
    out.push(next);
    try { for (const e of fs.readdirSync(next, { withFileTypes: true })) if (e.isDirectory()) todo.push(next + '/' + e.name); } catch {}
  }
  return out;
}
function groupProcs(dir) {
  const pids = [];
  for (const group of groupTree(dir)) try { for (const pid of fs.readFileSync(group + '/cgroup.procs', 'latin1').split('\n').map(Number)) if (Number.isInteger(pid) && pid > 0 && pid !== process.pid) pids.push(pid); } catch {}
  return pids;
}
let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', chunk => {
  buffered += chunk;
  for (let i; (i = buffered.indexOf('\n')) >= 0;) {
    const [op, token, pid] = buffered.slice(0, i).split(' ');
    buffered = buffered.slice(i + 1);
    if (op === '+') launches.set(token, Number(pid)); else if (op === '-') launches.delete(token);
  }
});
function ours() {
  const parent = new Map(), found = new Set();
  for (const name of fs.readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const stat = fs.readFileSync('/proc/' + pid + '/stat', 'latin1');
      parent.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const env = fs.readFileSync('/proc/' + pid + '/environ', 'latin1').split('\0');
      const entry = env.find(e => e.startsWith(key));
      if (entry && launches.has(entry.slice(key.length))) found.add(pid);
    } catch {}
  }
  for (let grew = true; grew;) { grew = false; for (const [pid, ppid] of parent) if (!found.has(pid) && found.has(ppid)) { found.add(pid); grew = true; } }
  for (const token of launches.keys()) { const dir = groupOf(token); if (dir) for (const pid of groupProcs(dir)) found.add(pid); }
  return found;
}
// cgroup.kill (Linux 5.14+): every member at once, forks included; not through a symbolic link.
function killGroups() {
  for (const token of launches.keys()) {
    const dir = groupOf(token);
    if (!dir) continue;
    try { const fd = fs.openSync(dir + '/cgroup.kill', fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW); try { fs.writeSync(fd, '1'); } finally { fs.closeSync(fd); } } catch {}
  }
}
function removeGroups(tries) {
  let left = 0;
  for (const token of launches.keys()) {
    const dir = groupOf(token);
    if (!dir) continue;
    for (const pid of groupProcs(dir)) try { process.kill(pid, 'SIGKILL'); } catch {}
    for (const group of groupTree(dir).reverse()) try { fs.rmdirSync(group); } catch (e) { if (e.code === 'EBUSY') { left++; break; } }
  }
  if (left && tries > 0) setTimeout(() => removeGroups(tries - 1), 20); else process.exit(0);
}
function signal(sig) {
  if (process.platform === 'linux') { for (const pid of ours()) try { process.kill(pid, sig); } catch {} return; }
  for (const pid of launches.values()) {
    if (process.platform === 'win32') { if (sig === 'SIGKILL') spawnSync(taskkill, ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }); continue; }
    try { process.kill(-pid, sig); } catch {}
    try { process.kill(pid, sig); } catch {}
  }
}
function reap() {
  if (!launches.size) process.exit(0);
  signal('SIGTERM');
  setTimeout(() => { killGroups(); signal('SIGKILL'); if (base) removeGroups(50); else process.exit(0); }, 2000);
}
process.stdin.on('end', reap);
process.stdin.on('error', reap);
`;

let watchdog: ChildProcess | undefined;
/** The live launches, as the host told its watchdog: what a new watchdog is told again. */
const live = new Map<string, number>();
let startedAt = 0;
let respawn: NodeJS.Timeout | undefined;
let stoppedCheck: NodeJS.Timeout | undefined;
const STOPPED_CHECK_MS = 2000;
/** A watchdog that dies this soon after its start (a broken runtime) is started again only after this pause. */
const RESPAWN_PAUSE_MS = 1000;

function started(): ChildProcess | undefined {
  if (watchdog) return watchdog;
  const taskkill = process.platform === 'win32' ? windowsSystemProgram('taskkill.exe', process.env) : '';
  const cgroupBase = launchCgroupSupport().base;
  let child: ChildProcess;
  try {
    // ELECTRON_RUN_AS_NODE: in VS Code execPath is the editor's own binary, which then runs as plain Node.
    child = spawn(process.execPath, ['-e', WATCHDOG_SCRIPT, LAUNCH_TOKEN_ENV, taskkill], {
      detached: true, stdio: ['pipe', 'ignore', 'ignore'], windowsHide: true,
      env: {
        ELECTRON_RUN_AS_NODE: '1', ...(process.env.SystemRoot ? { SystemRoot: process.env.SystemRoot } : {}),
        ...(cgroupBase ? { MCP_HOST_CGROUP_BASE: cgroupBase } : {}),
        // In its environment, not its argv: only the user's own processes can read it.
        ...(live.size ? { MCP_HOST_LIVE: [...live].map(([token, pid]) => `${token} ${pid}`).join(',') } : {}),
      },
    });
  } catch { return undefined; }
  watchdog = child;
  startedAt = Date.now();
  child.on('error', () => gone(child));
  child.once('exit', () => gone(child));
  child.stdin!.on('error', () => { /* the watchdog is gone: 'exit' says so */ });
  // Neither the process nor its pipe may keep the host alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  if (process.platform === 'linux') stoppedCheck ??= setInterval(endStopped, STOPPED_CHECK_MS).unref();
  return child;
}

/**
 * A watchdog stopped with SIGSTOP neither exits nor notices the host's end: one that is found stopped
 * (Linux: its state in /proc) is killed, and so replaced.
 */
function endStopped(): void {
  const pid = watchdog?.pid;
  if (pid === undefined) return;
  let state: string | undefined;
  try { const stat = readFileSync(`/proc/${pid}/stat`, 'latin1'); state = stat[stat.lastIndexOf(')') + 2]; } catch { return; }
  if (state === 'T' || state === 't') try { process.kill(pid, 'SIGKILL'); } catch { /* gone meanwhile */ }
}

/**
 * The watchdog ended while the host lives: it only ends by itself once the host is gone, so something
 * killed it — a server can see its pid — to outlive the editor. A new one takes over every live launch.
 */
function gone(child: ChildProcess): void {
  if (watchdog !== child) return;
  watchdog = undefined;
  if (!live.size || respawn) return;
  respawn = setTimeout(() => { respawn = undefined; if (live.size) started(); }, Date.now() - startedAt < RESPAWN_PAUSE_MS ? RESPAWN_PAUSE_MS : 0);
  respawn.unref();
}

/** The watchdog ends this launch's processes if the host dies first. */
export function watchLaunch(token: string, pid: number): void {
  live.set(token, pid);
  // A new watchdog gets every live launch in its environment, this one included.
  if (watchdog) watchdog.stdin?.write(`+ ${token} ${pid}\n`);
  else started();
}

/** The launch's processes are gone: the watchdog forgets it. */
export function unwatchLaunch(token: string): void {
  live.delete(token);
  watchdog?.stdin?.write(`- ${token}\n`);
}

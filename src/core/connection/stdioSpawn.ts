/**
 * Starting a stdio server's process, and nothing else: no MCP SDK here, so the activation side can
 * start user servers (earlyProcesses.ts) before the host bundle, with the SDK, is even evaluated.
 * The child gets its own process group (so stop kills the whole tree), its own cgroup where the
 * system allows one (Linux: launchCgroup.ts; what no fork, setsid or env -i leaves), and three pipes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import { createLaunchCgroup, launchCgroupSupport, removeLaunchCgroup, runnable, wrapInCgroup } from './launchCgroup';
import { newLaunchToken, trackLaunch } from './processLedger';
import { LAUNCH_TOKEN_ENV } from './processScan';
import { planWindowsSpawn } from './windowsCommand';

export interface StdioLaunch {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
}

/** A start that failed before the server ran; its message is complete and needs no prefix. */
export class LaunchError extends Error {
  constructor(message: string, readonly code?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LaunchError';
  }
}

/**
 * Spawns the launch. Throws a {@link LaunchError} for what fails synchronously (a Windows command that
 * cannot be resolved, E2BIG); the child's own 'error' event (ENOENT, EACCES) goes through
 * {@link describeSpawnError} at the listener.
 */
export function spawnStdio(launch: StdioLaunch): ChildProcess {
  const isWin = process.platform === 'win32';
  try {
    const plan = isWin ? planWindowsSpawn(launch.command, launch.args, { env: launch.env, hostEnv: process.env, cwd: launch.cwd, isFile }) : undefined;
    // The launch's token: how its processes are found again whatever session or parent they end up in (processScan.ts).
    const token = newLaunchToken();
    let file = plan?.file ?? launch.command;
    let args = plan?.args ?? [...launch.args];
    // A command that would not run is not wrapped: spawn's own ENOENT/EACCES then says so, as without a cgroup.
    const cgroup = !isWin && launchCgroupSupport().base && runnable(file, launch.env, launch.cwd) ? createLaunchCgroup(token) : undefined;
    if (cgroup) ({ command: file, args } = wrapInCgroup(cgroup, file, args));
    // Never `shell`: on Windows the plan resolves the command itself and quotes for cmd.exe only when a batch file needs it.
    let child: ChildProcess;
    try {
      child = spawn(file, args, {
        env: { ...launch.env, [LAUNCH_TOKEN_ENV]: token },
        cwd: launch.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: !isWin,
        windowsHide: true,
        windowsVerbatimArguments: plan?.windowsVerbatimArguments,
        argv0: plan?.argv0,
      });
    } catch (e) {
      if (cgroup) removeLaunchCgroup(cgroup);
      throw e;
    }
    trackLaunch(child, token, cgroup);
    return child;
  } catch (e) {
    if (e instanceof LaunchError) throw e;
    // Some errnos (E2BIG) come from spawn itself, not from an 'error' event; the plan throws plain Errors.
    throw (e as NodeJS.ErrnoException).code ? describeSpawnError(e as NodeJS.ErrnoException, launch) : e;
  }
}

/** One key per distinct launch: the same command, arguments, environment and folder give the same key. */
export function launchKey(launch: StdioLaunch): string {
  const env = Object.entries(launch.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([launch.command, launch.args, env, launch.cwd ?? null]);
}

/** spawn's errno in words: which of command, working directory or argument size is wrong. */
export function describeSpawnError(err: NodeJS.ErrnoException, launch: StdioLaunch): Error {
  const cmd = JSON.stringify(launch.command);
  switch (err.code) {
    case 'ENOENT':
      // spawn says ENOENT for a missing working directory too; tell them apart.
      if (launch.cwd && !isDirectory(launch.cwd)) return new LaunchError(`Could not start ${cmd}: the working directory (cwd) ${JSON.stringify(launch.cwd)} does not exist.`, err.code, { cause: err });
      return new LaunchError(`Could not start ${cmd}: command not found. Check that it is installed and on PATH.`, err.code, { cause: err });
    case 'ENOTDIR':
      return new LaunchError(`Could not start ${cmd}: the working directory (cwd) ${JSON.stringify(launch.cwd ?? '')} is not a directory.`, err.code, { cause: err });
    case 'EACCES':
      return new LaunchError(`Could not start ${cmd}: permission denied (is it executable?).`, err.code, { cause: err });
    case 'E2BIG': {
      const bytes = launch.args.reduce((n, a) => n + Buffer.byteLength(a) + 1, 0) + Object.entries(launch.env).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v) + 2, 0);
      return new LaunchError(`Could not start ${cmd}: its arguments and environment are too long for the system (${launch.args.length} arguments, about ${Math.round(bytes / 1024)} KB with the environment). Shorten "args" or "env".`, err.code, { cause: err });
    }
    default:
      return new LaunchError(`Could not start ${cmd}: ${err.message}`, err.code, { cause: err });
  }
}

function isDirectory(dir: string): boolean {
  try { return statSync(dir).isDirectory(); } catch { return false; }
}

function isFile(file: string): boolean {
  try { return statSync(file).isFile(); } catch { return false; }
}

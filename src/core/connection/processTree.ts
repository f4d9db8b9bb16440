/** Kills a child and everything it started: servers launched via `npx`/shells leave grandchildren. */
import { spawn, type ChildProcess } from 'node:child_process';
import { windowsSystemProgram } from './windowsCommand';

/**
 * On POSIX the child is started as a process-group leader (`detached`), so signalling the negative
 * pid reaches the whole group. On Windows `taskkill /T` walks the tree.
 */
export function killTree(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  const pid = child.pid;
  if (pid === undefined) return;
  if (process.platform === 'win32') {
    // By absolute path: a bare name would be looked up in the current folder first.
    spawn(windowsSystemProgram('taskkill.exe', process.env), ['/pid', String(pid), '/T', '/F'], { windowsHide: true, stdio: 'ignore' }).on('error', () => {});
    return;
  }
  try { process.kill(-pid, signal); } catch { /* group already gone */ }
  try { child.kill(signal); } catch { /* already exited */ }
}

/** SIGTERM the tree, then SIGKILL after `graceMs` unless the group leader exited. Resolves when the leader is gone. */
export async function terminateTree(child: ChildProcess, graceMs = 2000): Promise<void> {
  const exited = new Promise<void>(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  killTree(child, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>(r => { timer = setTimeout(() => r(true), graceMs); }),
  ]);
  clearTimeout(timer);
  // Even if the leader exited, grandchildren may ignore SIGTERM: always sweep the group.
  killTree(child, 'SIGKILL');
  if (timedOut) await exited;
}

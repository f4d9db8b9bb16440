/**
 * Server processes started before the host (and the MCP SDK) loaded. The activation side resolves the
 * declared stdio servers with the host's own code (parse, variables, environment) and spawns those it
 * can start without asking the user anything; each connection later takes the process that was
 * started for exactly its launch, or spawns its own when none was (and the unused one is stopped).
 * The SDK's schemas take tens of milliseconds to evaluate; the servers boot meanwhile, not after.
 */
import type { ChildProcess } from 'node:child_process';
import { parseServers } from '../config/parse';
import { resolveDeclaration } from '../config/resolve';
import type { ServerDeclaration, VariableContext } from '../config/types';
import { wantsSandbox } from '../sandbox/launch';
import { snapshotTree, terminateTree } from './processTree';
import { launchKey, spawnStdio, type StdioLaunch } from './stdioSpawn';
import { admittedAsWritten } from '../policy/enforce';
import type { ServerPolicy } from '../policy/types';

/** A process handed to a connection: spawned (or spawning) for the same launch, not exited. */
export interface StartedProcess {
  readonly child: ChildProcess;
  /** Its 'spawn' event has already been emitted (otherwise the taker waits for it). */
  readonly spawned: boolean;
}

interface Entry {
  readonly key: string;
  readonly child: ChildProcess;
  spawned: boolean;
  failed: boolean;
  exited: boolean;
}

/** What was started early, for the log and the tests: server name, pid, `performance.now()` at spawn. */
export interface EarlyStart { readonly server: string; readonly pid: number | undefined; readonly at: number; }

export class EarlyProcesses {
  private readonly entries = new Map<string, Entry>();
  private released = false;
  private readonly _started: EarlyStart[] = [];

  get started(): readonly EarlyStart[] { return this._started; }

  /** Spawns `launch` for `server`; a launch that cannot even be spawned is left to the host, which reports why. */
  start(server: string, launch: StdioLaunch): void {
    if (this.released || this.entries.has(server)) return;
    let child: ChildProcess;
    try { child = spawnStdio(launch); } catch { return; }
    const entry: Entry = { key: launchKey(launch), child, spawned: false, failed: false, exited: false };
    child.once('spawn', () => { entry.spawned = true; });
    // Without a listener an 'error' (ENOENT) would throw in the extension host; the host's own start reports it.
    child.on('error', () => { entry.failed = true; });
    child.once('exit', () => { entry.exited = true; });
    this.entries.set(server, entry);
    this._started.push({ server, pid: child.pid, at: performance.now() });
  }

  /**
   * The process started for `server`, if it was started for this very launch and is still alive.
   * Asked once per server: a process that does not match (the settings changed meanwhile) is stopped.
   */
  take(server: string, launch: StdioLaunch): StartedProcess | undefined {
    const entry = this.entries.get(server);
    if (!entry) return undefined;
    this.entries.delete(server);
    if (!entry.failed && !entry.exited && entry.key === launchKey(launch)) return { child: entry.child, spawned: entry.spawned };
    void stop(entry.child);
    return undefined;
  }

  /** Stops what no connection took, and starts nothing from now on. Resolves when those processes are gone. */
  async release(): Promise<void> {
    this.released = true;
    const left = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(left.map(e => stop(e.child)));
  }
}

/**
 * Whether the host's start of `decl` would spawn exactly what resolving it gives, with nothing in
 * between: not a remote server, not sandboxed (its launch is rewritten at start), not in development
 * mode (debugging rewrites it, watching restarts it), no `envFile` (read from disk: no waiting here).
 * `${input:…}` values are not asked for at all (resolving such a declaration fails and it is left to the host).
 */
export function startsEarly(decl: ServerDeclaration, sandboxAll: boolean): boolean {
  return decl.type === 'stdio' && !decl.disabled && !wantsSandbox(decl, { sandboxAll: () => sandboxAll }) && decl.dev === undefined && decl.envFile === undefined;
}

/**
 * Resolves the raw servers setting (only what the host may run: the caller filters by Workspace
 * Trust as the host does) and starts what {@link startsEarly} allows into `into`.
 */
export async function startEarlyProcesses(raw: unknown, ctx: VariableContext, sandboxAll: boolean, into: EarlyProcesses, policy?: ServerPolicy): Promise<void> {
  // Only what the policy admits as written; anything it decides at launch waits for the host's start.
  const servers = parseServers(raw).servers.filter(d => admittedAsWritten(d, policy));
  // No resolveInput: a declaration that needs an input fails to resolve and waits for the host, which asks.
  const quiet: VariableContext = { workspaceFolders: ctx.workspaceFolders, trusted: ctx.trusted, userHome: ctx.userHome, env: ctx.env };
  await Promise.all(servers.filter(d => startsEarly(d, sandboxAll)).map(async decl => {
    let resolved;
    try { resolved = await resolveDeclaration(decl, quiet); } catch { return; }
    if (resolved.launch.type === 'stdio') into.start(decl.name, resolved.launch);
  }));
}

/** Closes stdin (a well-behaved server exits on it), then SIGTERM and SIGKILL to its process group. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.pid === undefined) return; // never ran
  const seen = snapshotTree(child);
  try { child.stdin?.end(); } catch { /* already closed */ }
  await terminateTree(child, 2000, seen);
}

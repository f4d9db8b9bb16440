/**
 * Dev mode of a declaration (`dev.watch`, `dev.debug`): a file watcher per server restarts only that
 * server (debounced), and a server started under the inspector (Node.js) or debugpy (Python) gets VS Code's
 * debugger attached for as long as it runs.
 */
import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { defaultRestartOptions, watchTarget, type McpHost, type ServerConnection, type StateChange } from '../../core';
import { RestartPolicy } from '../../core/connection/restartPolicy';
import type { ServerLogs } from '../logs';
import { readSetting } from '../settingsReader';
import { showInfo, showWarning } from '../notify';

/** Saving several files (a build, "Save All") restarts once. */
export const WATCH_DEBOUNCE_MS = 300;
/**
 * Changes while a server starts and this long after it runs are taken as its own (a cache, a lock file, a
 * log it writes into the watched folder; the watcher reports them late): they restart nothing, or such a
 * server would restart forever. The price: an edit saved in this time after a start is not picked up.
 */
export const WATCH_QUIET_AFTER_START_MS = 1500;

/** The extension that contributes VS Code's `debugpy` debug type. */
const PYTHON_DEBUGGER = 'ms-python.debugpy';

/**
 * Marks the attach configurations we start, so sessions are matched to their server: an unguessable
 * token per attach, never the name (another extension's session cannot pose as ours, and VS Code
 * substitutes `${…}` in every string of a debug configuration).
 */
const SERVER_KEY = '__mcpHostServer';

/** Whether VS Code has the debugger for `type` (the core's `debuggers` port), or why not. */
export function debuggerFor(type: 'node' | 'python'): true | string {
  // In Restricted Mode VS Code asks to trust the workspace before it attaches: MCP Host would cause that question,
  // and a "no" would leave the port open.
  if (!vscode.workspace.isTrusted) return 'VS Code attaches debuggers only in a trusted workspace';
  if (type === 'node' || vscode.extensions.getExtension(PYTHON_DEBUGGER)) return true;
  return `VS Code has no Python debugger to attach with (install the Python Debugger extension, ${PYTHON_DEBUGGER}, then restart the server)`;
}

/**
 * The session's name: VS Code resolves `${command:…}`, `${input:…}` (the workspace's launch inputs, which
 * can run commands with arguments) and every other variable in a debug configuration's strings, and a
 * server's name is a workspace's to choose. `$ {` is read as text.
 */
function sessionName(server: string): string {
  return vscode.l10n.t('MCP server: {0}', server.replace(/\$\{/g, '$ {'));
}

interface Watch {
  readonly key: string;
  readonly watcher: vscode.FileSystemWatcher;
  timer?: NodeJS.Timeout;
  /** Watch restarts count like crash restarts (mcpHost.autoRestart.maxRestarts within 3 minutes). */
  readonly restarts: RestartPolicy;
  /** Changes before this time (ms) are the server's own start. */
  quietUntil: number;
  /** The budget was spent: no watch restart until the user starts the server again. */
  paused: boolean;
}

export class DevMode implements vscode.Disposable {
  private readonly watches = new Map<string, Watch>();
  private readonly sessions = new Map<string, vscode.DebugSession>();
  /** The inspector port we attached to (or are attaching to), per server. */
  private readonly attached = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private debugQueue: Promise<unknown> = Promise.resolve();
  /** Servers already told, in a notification, that no Python debugger is installed (the log says it each start). */
  private readonly toldNoPythonDebugger = new Set<string>();
  /** The server of each attach configuration we started, by its {@link SERVER_KEY} token. */
  private readonly tokens = new Map<string, string>();

  constructor(private readonly host: McpHost, private readonly logs: ServerLogs) {
    const sub = (d: { dispose(): void }) => this.subscriptions.push(d);
    sub(host.onDidChangeServers(() => this.syncWatches()));
    // Serialised: a restart's `starting` must end the old session before `running` attaches the new one.
    sub(host.onDidChangeState(e => { this.noteStart(e); this.syncWatches(); this.debugQueue = this.debugQueue.then(() => this.syncDebug(e)).catch(() => undefined); }));
    sub(vscode.workspace.onDidGrantWorkspaceTrust(() => this.syncWatches()));
    sub(vscode.workspace.onDidChangeWorkspaceFolders(() => this.syncWatches()));
    sub(vscode.debug.onDidStartDebugSession(s => {
      const token = s.configuration[SERVER_KEY] as unknown;
      const server = typeof token === 'string' ? this.tokens.get(token) : undefined;
      if (server !== undefined && !s.parentSession) { this.tokens.delete(token as string); this.sessions.set(server, s); }
    }));
    sub(vscode.debug.onDidTerminateDebugSession(s => {
      for (const [name, own] of this.sessions) {
        if (own !== s) continue;
        const port = this.attached.get(name);
        this.sessions.delete(name);
        this.attached.delete(name);
        // The user ended the session while the server runs on: its debug port would stay open to every local process.
        this.closeDebugPort(name, port, vscode.l10n.t('its debug session ended'));
      }
    }));
    this.syncWatches();
  }

  private syncWatches(): void {
    const wanted = new Map<string, { conn: ServerConnection; key: string; base: string; pattern: string }>();
    for (const conn of this.host.servers) {
      const d = conn.declaration;
      if (d.type !== 'stdio' || !d.dev?.watch || d.disabled) continue;
      const target = watchTarget(d.dev.watch, {
        workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map(f => ({ path: f.uri.fsPath })),
        trusted: vscode.workspace.isTrusted,
        userHome: os.homedir(),
      });
      if (target.kind !== 'watch') continue;
      wanted.set(conn.name, { conn, key: `${target.base}\0${target.pattern}`, base: target.base, pattern: target.pattern });
    }
    for (const [name, w] of this.watches) {
      if (wanted.get(name)?.key === w.key) continue;
      this.unwatch(name);
    }
    for (const [name, want] of wanted) {
      if (this.watches.has(name)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(want.base), want.pattern));
      const restarts = new RestartPolicy(() => ({ ...defaultRestartOptions, maxRestarts: Math.max(1, Math.min(50, readSetting<number>('autoRestart.maxRestarts') ?? defaultRestartOptions.maxRestarts)) }));
      const watch: Watch = { key: want.key, watcher, restarts, quietUntil: Date.now() + WATCH_QUIET_AFTER_START_MS, paused: false };
      const changed = (uri: vscode.Uri) => {
        const conn = this.host.get(name);
        if (watch.paused || conn?.state === 'starting' || Date.now() < watch.quietUntil) return;
        clearTimeout(watch.timer);
        watch.timer = setTimeout(() => this.restartFor(name, uri), WATCH_DEBOUNCE_MS);
      };
      watcher.onDidChange(changed);
      watcher.onDidCreate(changed);
      watcher.onDidDelete(changed);
      this.watches.set(name, watch);
    }
  }

  /** A start moves the quiet time; the user's start gives watch restarts a new budget. */
  private noteStart(e: StateChange): void {
    const watch = this.watches.get(e.server);
    if (!watch) return;
    // Paused, MCP Host restarts nothing itself: a start then is the user's (or a crash restart).
    if (e.state === 'starting' && (e.previous === 'stopped' || watch.paused)) { watch.restarts.reset(); watch.paused = false; }
    if (e.state === 'starting' || e.state === 'running') watch.quietUntil = Date.now() + WATCH_QUIET_AFTER_START_MS;
  }

  private restartFor(name: string, uri: vscode.Uri): void {
    const conn = this.host.get(name);
    const watch = this.watches.get(name);
    // A server the user stopped stays stopped; one waiting for trust is not ours to start.
    if (!conn || !watch || conn.state === 'stopped' || conn.state === 'starting' || Date.now() < watch.quietUntil) return;
    if (watch.restarts.next() === undefined) {
      watch.paused = true;
      const message = vscode.l10n.t('MCP server "{0}" restarted {1} times in 3 minutes because files it watches (dev.watch) kept changing, last {2}. Watch restarts are paused until you start it again; a server that writes into its own watched folder should write elsewhere or narrow dev.watch.', name, watch.restarts.recentRestarts, vscode.workspace.asRelativePath(uri));
      this.logs.get(name).warn(message);
      const showLog = vscode.l10n.t('Show Log');
      // The changed file's name is the server's choice (it writes into its own folder): no link of it in a notification.
      void showWarning(message, showLog).then(choice => { if (choice === showLog) this.logs.show(name); });
      return;
    }
    this.logs.get(name).info(vscode.l10n.t('{0} changed (dev.watch): restarting the server', vscode.workspace.asRelativePath(uri)));
    void conn.restart();
  }

  private unwatch(name: string): void {
    const w = this.watches.get(name);
    if (!w) return;
    clearTimeout(w.timer);
    w.watcher.dispose();
    this.watches.delete(name);
  }

  private async syncDebug(e: StateChange): Promise<void> {
    const conn = this.host.get(e.server);
    const port = e.state === 'running' && conn?.declaration.type === 'stdio' && conn.declaration.dev?.debug ? conn.inspectorPort : undefined;
    if (this.attached.get(e.server) === port) return;
    // The process the session was attached to is gone (or being replaced): end its session.
    const old = this.sessions.get(e.server);
    this.sessions.delete(e.server);
    this.attached.delete(e.server);
    if (old) await vscode.debug.stopDebugging(old);
    const python = conn?.declaration.type === 'stdio' && conn.declaration.dev?.debug?.type === 'python';
    if (port === undefined) {
      // Without the Python Debugger the core ran the server without debugpy (debuggerFor): say how to debug it.
      if (e.state === 'running' && python && vscode.workspace.isTrusted && !vscode.extensions.getExtension(PYTHON_DEBUGGER)) this.tellNoPythonDebugger(e.server);
      if (e.state === 'running' && conn?.declaration.type === 'stdio' && conn.declaration.dev?.debug && !python) {
        this.logs.get(e.server).warn(vscode.l10n.t('dev.debug: the server did not announce a Node.js inspector on its stderr ("Debugger listening on ws://127.0.0.1:…"), so no debugger was attached. Is it a Node.js program?'));
      }
      return;
    }
    this.attached.set(e.server, port);
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (python) { await this.attachPython(e.server, port, folder); return; }
    const ok = await vscode.debug.startDebugging(folder, {
      type: 'node',
      request: 'attach',
      name: sessionName(e.server),
      address: '127.0.0.1',
      port,
      continueOnAttach: true,
      // A server's build may live outside the workspace folder (a package being developed elsewhere):
      // its source maps still map breakpoints set in its sources.
      resolveSourceMapLocations: ['**', '!**/node_modules/**'],
      [SERVER_KEY]: this.tokenFor(e.server),
    });
    if (!ok) {
      this.forgetTokensOf(e.server);
      this.attached.delete(e.server);
      this.logs.get(e.server).warn(vscode.l10n.t('dev.debug: VS Code could not attach the Node.js debugger to port {0}.', port));
      this.closeDebugPort(e.server, port, vscode.l10n.t('VS Code could not attach the debugger'));
    }
  }

  /**
   * A debug port without its debugger is a door: anyone on this computer may connect and run code in the
   * server. So a server still running on `port` when its session ended (or never started) is stopped,
   * saying why; starting it again attaches again.
   */
  private closeDebugPort(name: string, port: number | undefined, why: string): void {
    const conn = this.host.get(name);
    if (port === undefined || !conn || conn.state !== 'running' || conn.inspectorPort !== port) return;
    const message = vscode.l10n.t('MCP server "{0}" was stopped: {1}, and its debug port (127.0.0.1:{2}) would stay open to every process on this computer. Start it again to debug it.', name, why, port);
    this.logs.get(name).warn(message);
    void conn.stop();
    void showInfo(message);
  }

  /** An attach that never started leaves its token unused: drop it. */
  private forgetTokensOf(server: string): void {
    for (const [token, name] of this.tokens) if (name === server) this.tokens.delete(token);
  }

  /** A fresh token naming `server` in one attach configuration. */
  private tokenFor(server: string): string {
    const token = randomUUID();
    this.tokens.set(token, server);
    return token;
  }

  /** Once per server and window, in a notification (the server's log says it at every start, see the core). */
  private tellNoPythonDebugger(name: string): void {
    if (this.toldNoPythonDebugger.has(name)) return;
    this.toldNoPythonDebugger.add(name);
    const message = vscode.l10n.t('MCP server "{0}" runs without debugpy (dev.debug "python"): VS Code has no Python debugger to attach with. Install the Python Debugger extension ({1}), then restart the server.', name, PYTHON_DEBUGGER);
    const show = vscode.l10n.t('Show Extension');
    void showWarning(message, show).then(choice => {
      if (choice === show) void vscode.commands.executeCommand('workbench.extensions.search', `@id:${PYTHON_DEBUGGER}`);
    });
  }

  /**
   * debugpy listens inside the server; VS Code attaches with the Python Debugger extension's `debugpy`
   * type. The core starts debugpy only while that extension is there (debuggerFor); one removed since
   * leaves nothing to attach with: said the same way.
   */
  private async attachPython(name: string, port: number, folder: vscode.WorkspaceFolder | undefined): Promise<void> {
    if (debuggerFor('python') !== true) { this.tellNoPythonDebugger(name); return; }
    const ok = await vscode.debug.startDebugging(folder, {
      type: 'debugpy',
      request: 'attach',
      name: sessionName(name),
      connect: { host: '127.0.0.1', port },
      justMyCode: false,
      [SERVER_KEY]: this.tokenFor(name),
    });
    if (!ok) {
      this.forgetTokensOf(name);
      this.attached.delete(name);
      this.logs.get(name).warn(vscode.l10n.t('dev.debug: VS Code could not attach the Python debugger to port {0}.', port));
      this.closeDebugPort(name, port, vscode.l10n.t('VS Code could not attach the debugger'));
    }
  }

  dispose(): void {
    for (const name of [...this.watches.keys()]) this.unwatch(name);
    for (const s of this.subscriptions) s.dispose();
    for (const s of this.sessions.values()) void vscode.debug.stopDebugging(s);
    this.sessions.clear();
  }
}

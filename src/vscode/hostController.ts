/**
 * Owns the running McpHost inside VS Code: applies settings live (only changed servers restart),
 * honours Workspace Trust, and tells the user about failures with a "Show Log" action.
 */
import * as vscode from 'vscode';
import { defaultRestartOptions, Disposable, Emitter, McpHost, plainText, type ConfigProblem, type HostPorts, type ServerPolicy } from '../core';
import { readServers, SECTION, type DeclarationScope } from './config';
import { readAutostart, readSetting } from './settingsReader';
import type { InputStore } from './inputs';
import type { ServerLogs } from './logs';
import type { WorkspaceRoots } from './roots';
import { variableContext } from './variables';
import { debuggerFor } from './dev/devMode';
import type { DiscoveryFeed } from './discovery/discoveredServers';
import { DiscoveryState } from './discovery/discoveryState';
import { showError, showWarning } from './notify';

export class HostController extends Disposable {
  readonly host: McpHost;
  private _untrusted: readonly string[] = [];
  private _scopes: ReadonlyMap<string, DeclarationScope> = new Map();
  private _discovery = new DiscoveryState();
  private applying: Promise<unknown> = Promise.resolve();
  private readonly policyPort?: () => ServerPolicy;
  private readonly _onDidChange = this._register(new Emitter<void>());
  /** Anything shown in the views changed (servers, states, catalogs, problems). */
  readonly onDidChange = this._onDidChange.event;

  /** `features` adds ports owned by feature modules (sampling, elicitation, OAuth) without touching this file. */
  constructor(private readonly logs: ServerLogs, inputs: InputStore, roots: WorkspaceRoots, extensionVersion: string, features: Partial<Pick<HostPorts, 'sampling' | 'elicitation' | 'auth' | 'sandbox' | 'earlyProcesses' | 'catalogCache' | 'policy' | 'registryInstall'>> = {}, private readonly discovery?: DiscoveryFeed) {
    super();
    this.policyPort = features.policy;
    const ports: HostPorts = {
      clientInfo: { name: 'mcp-host-vscode', title: 'MCP Host for VS Code', version: extensionVersion },
      roots,
      // The scope is the declaration's; a name not (or no longer) known gets the narrowest binding.
      variables: variableContext(request => inputs.resolve({ ...request, scope: this._scopes.get(request.server) ?? 'workspace' })),
      apps: true,
      // dev.debug: DevMode attaches VS Code's debugger (Node.js always; Python with the Python Debugger extension).
      debuggers: debuggerFor,
      createLogger: name => logs.get(name),
      // The core calls this once per server and method; every refusal is in the server's log.
      onRefusedRequest: (server, method, reason) => {
        const showLog = vscode.l10n.t('Show Log');
        void showWarning(vscode.l10n.t('MCP server "{0}" sent a {1} request that MCP Host cannot accept ({2}); it was refused.', server.name, method, plainText(reason, { singleLine: true, maxLength: 300 })), showLog).then(choice => {
          if (choice === showLog) this.logs.show(server.name);
        });
      },
      ...features,
    };
    this.host = new McpHost({
      ports,
      restart: () => ({
        ...defaultRestartOptions,
        maxRestarts: clamp(readSetting<number>('autoRestart.maxRestarts') ?? defaultRestartOptions.maxRestarts, 0, 50),
        baseDelayMs: clamp((readSetting<number>('autoRestart.initialDelay') ?? 1) * 1000, 50, 60_000),
      }),
      defaultTimeoutMs: clamp(readSetting<number>('requestTimeout') ?? 60, 1, 3600) * 1000,
      autostart: {
        autostart: readAutostart,
        idleStopMs: () => clamp(readSetting<number>('idleStop') ?? 0, 0, 1440) * 60_000,
      },
    });
    this._register(this.host);
    this._register(this.host.onDidChangeServers(() => this._onDidChange.fire()));
    this._register(this.host.onDidChangeCatalog(() => this._onDidChange.fire()));
    this._register(this.host.onDidChangeState(e => {
      this._onDidChange.fire();
      // A server that needs a sign-in gets the OAuth notification (with Sign In) instead, see vscode/auth.
      if (e.state === 'error' && e.previous !== 'error' && !e.needsSignIn) this.notifyError(e.server, e.message ?? vscode.l10n.t('failed'));
    }));
    this._register(vscode.workspace.onDidChangeConfiguration(e => {
      if (['servers', 'autostart', 'idleStop'].some(k => e.affectsConfiguration(`${SECTION}.${k}`))) void this.reload();
      // A sandbox's rules are fixed when it starts; autoApproveTools is read per call and needs no restart.
      else if (['all', 'allowedDomains', 'allowUnsandboxed', 'runtimePath'].some(k => e.affectsConfiguration(`${SECTION}.sandbox.${k}`))) void this.restartLocalServers();
    }));
    // Starts the workspace's servers and the user servers that waited for trust (McpHost.apply).
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reload()));
    // Another first folder is another launch folder for the servers that run in it, and a moved, renamed
    // or reordered folder is another program for the servers whose variables name it (McpHost.runningKey).
    const folderList = () => JSON.stringify((vscode.workspace.workspaceFolders ?? []).map(f => [f.name, f.uri.toString()]));
    let folders = folderList();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => {
      const now = folderList();
      if (now !== folders) { folders = now; void this.reload(); }
    }));
    if (discovery) this._register(discovery.onDidChange(() => void this.reload()));
  }

  get untrusted(): readonly string[] { return this._untrusted; }
  get problems(): readonly ConfigProblem[] { return this.host.problems; }
  scopeOf(name: string): DeclarationScope | undefined { return this._scopes.get(name); }
  /** Where `name` comes from: a settings scope, or another program's config (discovery, which scopeOf calls workspace). */
  originOf(name: string): DeclarationScope | 'discovered' | undefined { return this._discovery.originOf(name) ? 'discovered' : this._scopes.get(name); }
  /** The window's policy as the host enforces it (cached; re-read when a policy file or setting changes). */
  get policy(): ServerPolicy | undefined { return this.policyPort?.(); }
  /** Discovered servers (mcpHost.discovery) as of the last reload. */
  get discovered(): DiscoveryState { return this._discovery; }

  private async restartLocalServers(): Promise<void> {
    const local = this.host.servers.filter(c => c.declaration.type === 'stdio' && (c.state === 'running' || c.state === 'starting' || c.state === 'error'));
    await Promise.all(local.map(c => c.restart()));
  }

  /** Re-reads settings and applies them; serialised so rapid edits apply in order. */
  reload(): Promise<unknown> {
    this.applying = this.applying.then(async () => {
      const { allowed, untrusted, scopes } = readServers();
      const discovery = this.discovery ? DiscoveryState.planned(allowed, await this.discovery.current(), vscode.workspace.isTrusted) : new DiscoveryState();
      this._untrusted = untrusted;
      // Discovered servers get a workspace server's approvals, inputs and sandbox, never a user server's.
      this._scopes = new Map([...scopes, ...Object.keys(discovery.plan.run).map((key): [string, DeclarationScope] => [key, 'workspace'])]);
      this._discovery = discovery;
      await this.host.apply({ ...allowed, ...discovery.plan.run });
      this._onDidChange.fire();
    }).catch(e => showError(vscode.l10n.t('MCP Host could not apply the servers setting: {0}', String(e))));
    return this.applying;
  }

  /**
   * Once per failure: a crash loop shows `starting` between its restarts and reaches `error` once. A
   * local server's last stderr lines are usually why (`missing API_KEY`): they come along, cleaned (core).
   */
  private notifyError(server: string, message: string): void {
    const showLog = vscode.l10n.t('Show Log'), restart = vscode.l10n.t('Restart'), edit = vscode.l10n.t('Edit Settings');
    const tail = this.host.get(server)?.stderrTail.slice(-NOTIFIED_STDERR_LINES) ?? [];
    // The message may quote the server (its error's text), the tail is the server's: no link of theirs in a notification.
    const text = tail.length ? vscode.l10n.t('MCP server "{0}": {1} Its last stderr lines: {2}', server, message, tail.join(' | ')) : vscode.l10n.t('MCP server "{0}": {1}', server, message);
    void showError(text, showLog, restart, edit).then(choice => {
      if (choice === showLog) this.logs.show(server);
      else if (choice === restart) void vscode.commands.executeCommand('mcpHost.restartServer', server);
      else if (choice === edit) void vscode.commands.executeCommand('mcpHost.openServerDeclaration', server);
    });
  }
}


/** The notification stays a few lines long; the row's tooltip has the whole tail. */
const NOTIFIED_STDERR_LINES = 3;

function clamp(n: number, min: number, max: number): number {
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : min;
}

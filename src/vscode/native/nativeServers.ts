/**
 * MCP Host's servers in VS Code's own chat: a `McpServerDefinitionProvider` whose definitions point at
 * this window's gateway (core/gateway), one Streamable HTTP definition per server, so the tool picker,
 * `#` references, tool sets, `/mcp.<server>.<prompt>` and Add Context › MCP Resources reach our
 * servers while MCP Host keeps running them (process, sandbox, OAuth, budgets, both protocol eras).
 *
 * The label is the server's name in `mcpHost.servers`, not the title the server gives itself: VS Code
 * shows the label as the origin in its tool confirmation (a server must not pose as another one), and
 * derives its id for the server from it (a title arriving with the first start would be a new server
 * to VS Code, its cached tools and approvals lost). The version is a digest of the declaration, so
 * VS Code refreshes its cached tools when the declaration changes.
 */
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { declarationKey, type Gateway, type GatewayClientInfo, type McpHost, type ServerConnection } from '../../core';
import { SECTION } from '../config';
import { chatExcludedServers } from '../chat/toolSettings';
import { toAbortSignal } from '../cancellation';
import { NATIVE_SETTING, nativeServersEnabled } from './nativeSetting';

/** Settings that change which definitions exist. */
const DEFINITION_SETTINGS = [NATIVE_SETTING, 'chat.excludedServers'];

export function declarationVersion(conn: ServerConnection): string {
  return createHash('sha256').update(declarationKey(conn.declaration)).digest('base64url').slice(0, 16);
}

/** A server VS Code's chat is offered: enabled and not excluded from chat. */
export function offeredNatively(conn: ServerConnection, excluded: readonly string[] = chatExcludedServers()): boolean {
  return nativeServersEnabled() && !conn.declaration.disabled && !excluded.includes(conn.name);
}

export class NativeServers implements vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** What each definition was made from: VS Code hands the definition back to resolve. */
  private readonly names = new WeakMap<vscode.McpServerDefinition, string>();
  private last = '';

  constructor(
    private readonly host: McpHost,
    private readonly gateway: () => Promise<Gateway>,
    private readonly client: GatewayClientInfo,
    /** MCP Host's own sign-in (OAuth) for a server; settles when it is over. */
    private readonly signIn: (server: string) => Thenable<unknown>,
  ) {
    // Only a change of the set VS Code sees is announced: every announcement makes VS Code compare its servers.
    const check = () => { if (this.signature() !== this.last) this.changed.fire(); };
    const servers = host.onDidChangeServers(check);
    this.disposables.push({ dispose: () => servers.dispose() }, vscode.workspace.onDidChangeConfiguration(e => {
      if (DEFINITION_SETTINGS.some(k => e.affectsConfiguration(`${SECTION}.${k}`))) check();
    }));
  }

  private offered(): ServerConnection[] {
    const excluded = chatExcludedServers();
    return this.host.servers.filter(c => offeredNatively(c, excluded));
  }

  private signature(): string {
    return JSON.stringify(this.offered().map(c => [c.name, declarationVersion(c)]));
  }

  async provideMcpServerDefinitions(): Promise<vscode.McpHttpServerDefinition[]> {
    this.last = this.signature();
    const offered = this.offered();
    if (!offered.length) return [];
    const gateway = await this.gateway();
    return offered.map(conn => {
      const endpoint = gateway.endpoint(conn.name, this.client);
      const definition = new vscode.McpHttpServerDefinition(conn.name, vscode.Uri.parse(endpoint.url), { ...endpoint.headers }, declarationVersion(conn));
      this.names.set(definition, conn.name);
      return definition;
    });
  }

  /**
   * VS Code starts the server: MCP Host's server must be running. One that waits for a sign-in gets
   * MCP Host's sign-in; one that is starting is waited for; otherwise VS Code shows our reason.
   */
  async resolveMcpServerDefinition(definition: vscode.McpHttpServerDefinition, token: vscode.CancellationToken): Promise<vscode.McpHttpServerDefinition> {
    const name = this.names.get(definition) ?? definition.label;
    const conn = this.host.get(name);
    if (!conn || !offeredNatively(conn)) throw new Error(vscode.l10n.t('MCP Host no longer offers the MCP server "{0}" to chat.', name));
    if (conn.needsSignIn) await this.signIn(name);
    if (conn.needsTrust) throw new Error(vscode.l10n.t('MCP server "{0}" waits for Workspace Trust: it starts once you trust this workspace.', name));
    if (conn.state === 'starting') {
      const abort = toAbortSignal(token);
      try { await conn.ready({ signal: abort.signal }, 'the connection'); } catch { /* its state says why, below */ } finally { abort.dispose(); }
    }
    if (conn.state !== 'running') {
      throw new Error(conn.needsSignIn
        ? vscode.l10n.t('MCP server "{0}" needs you to sign in (MCP: Sign In).', name)
        : vscode.l10n.t('MCP server "{0}" is not running in MCP Host ({1}): start it from the MCP Servers view.', name, conn.message ?? conn.state));
    }
    return definition;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * OAuth in VS Code: the core's auth port (SecretStorage, the browser user agent, settings) and the
 * user-facing parts — Sign In / Sign Out commands and the "needs sign-in" notification.
 */
import * as vscode from 'vscode';
import type { AuthPort, McpHost, ServerConnection } from '../../core';
import type { ScopedInputRequest } from '../inputs';
import type { ServerNode } from '../views/serversTree';
import { preRegisteredClient, readOAuthSettings } from './settings';
import { VscodeAuthUserAgent } from './userAgent';
import { showError, showInfo, showWarning } from '../notify';

export { VscodeAuthUserAgent } from './userAgent';

export interface OAuthFeature extends vscode.Disposable {
  readonly port: AuthPort;
  readonly userAgent: VscodeAuthUserAgent;
  /** Commands and notifications; call once the host exists. */
  attach(host: McpHost, showLog: (server: string) => void): vscode.Disposable;
}

export function createOAuth(context: vscode.ExtensionContext, resolveInput: (request: ScopedInputRequest) => Promise<string | undefined>, log: (message: string) => void): OAuthFeature {
  const userAgent = new VscodeAuthUserAgent(context.extension.id, log);
  const version = String(context.extension.packageJSON.version ?? '0.0.0');
  const port: AuthPort = {
    store: context.secrets,
    userAgent,
    clientMetadata: {
      client_name: 'MCP Host for VS Code',
      client_uri: 'https://github.com/mcp-host/mcp-host-vscode',
      software_id: context.extension.id,
      software_version: version,
    },
    clientMetadataUrl: () => readOAuthSettings().clientMetadataUrl,
    preRegisteredClient: server => preRegisteredClient(server, resolveInput),
  };
  return {
    port,
    userAgent,
    attach: (host, showLog) => attachCommands(host, showLog),
    dispose: () => userAgent.dispose(),
  };
}

function attachCommands(host: McpHost, showLog: (server: string) => void): vscode.Disposable {
  /** Servers the user is signing in to (or out of): the command reports the outcome, not the notification. */
  const signingIn = new Set<string>();

  const signIn = async (conn: ServerConnection) => {
    signingIn.add(conn.name);
    try { await conn.signIn(); } finally { signingIn.delete(conn.name); }
    if (conn.state === 'running') return;
    const showLogLabel = vscode.l10n.t('Show Log');
    const choice = await showError(vscode.l10n.t('Could not sign in to MCP server "{0}": {1}', conn.name, conn.message ?? conn.state), showLogLabel);
    if (choice === showLogLabel) showLog(conn.name);
  };

  const pick = async (arg: unknown, title: string, filter: (c: ServerConnection) => boolean): Promise<ServerConnection | undefined> => {
    const name = typeof arg === 'string' ? arg : (arg as ServerNode | undefined)?.name;
    if (name) {
      const conn = host.get(name);
      if (!conn) void showError(vscode.l10n.t('No MCP server named "{0}" is configured.', name));
      return conn;
    }
    const candidates = host.servers.filter(filter);
    if (!candidates.length) {
      void showInfo(vscode.l10n.t('No MCP server uses OAuth sign-in right now.'));
      return undefined;
    }
    if (candidates.length === 1) return candidates[0];
    const picked = await vscode.window.showQuickPick(candidates.map(c => ({ label: c.name, description: c.needsSignIn ? vscode.l10n.t('needs sign-in') : c.authStatus === 'signedIn' ? vscode.l10n.t('signed in') : c.state, conn: c })), { title });
    return picked?.conn;
  };

  const isRemote = (c: ServerConnection) => c.declaration.type !== 'stdio';
  const disposables: vscode.Disposable[] = [
    vscode.commands.registerCommand('mcpHost.signIn', async (arg?: unknown) => {
      const conn = await pick(arg, vscode.l10n.t('Sign in to MCP server'), c => c.needsSignIn || (isRemote(c) && c.authStatus !== undefined && c.authStatus !== 'signedIn'));
      if (conn) await signIn(conn);
    }),
    vscode.commands.registerCommand('mcpHost.signOut', async (arg?: unknown) => {
      const conn = await pick(arg, vscode.l10n.t('Sign out of MCP server'), c => c.authStatus === 'signedIn');
      if (!conn) return;
      signingIn.add(conn.name); // its restart ends in "needs sign-in" on purpose: no notification
      let done: boolean;
      try { done = await conn.signOut(); } finally { signingIn.delete(conn.name); }
      void showInfo(done
        ? vscode.l10n.t('Signed out of MCP server "{0}"; its tokens were deleted.', conn.name)
        : vscode.l10n.t('MCP server "{0}" has no OAuth sign-in to sign out of.', conn.name));
    }),
    toVscode(host.onDidChangeState(e => {
      if (!e.needsSignIn || e.previous === 'error' || signingIn.has(e.server)) return;
      const label = vscode.l10n.t('Sign In');
      void showWarning(vscode.l10n.t('MCP server "{0}" needs you to sign in.', e.server), label).then(choice => {
        const conn = host.get(e.server);
        if (choice === label && conn) void signIn(conn);
      });
    })),
  ];
  return vscode.Disposable.from(...disposables);
}

function toVscode(d: { dispose(): void }): vscode.Disposable { return new vscode.Disposable(() => d.dispose()); }

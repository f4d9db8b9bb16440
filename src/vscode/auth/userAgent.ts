/**
 * The OAuth user agent in VS Code: opens the authorization page in the user's browser
 * (`vscode.env.openExternal`) and receives the redirect back through this extension's
 * `UriHandler` at `<uriScheme>://mcp-host.mcp-host/oauth/callback`, made reachable with
 * `vscode.env.asExternalUri` (desktop: the custom scheme; VS Code for the web and code-server: an
 * https callback page of the workbench), or through a loopback listener on 127.0.0.1 when that is
 * not possible, when the setting asks for it, or when a pre-registered client's redirect URI is a
 * loopback one. A response is matched to its request by `state` (the core verifies it again).
 */
import * as vscode from 'vscode';
import {
  AuthorizationCancelledError,
  type AuthorizationChannel, type AuthorizationRequest, type AuthTarget, type AuthUserAgent, type ClientCredentials,
} from '../../core';
import { isLoopback, needsLauncher, openLauncher, openLoopback } from './loopback';
import { readOAuthSettings } from './settings';

export const CALLBACK_PATH = '/oauth/callback';
/** How long a sign-in may take in the browser before it is given up. */
const AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;

type Pending = (uri: URL) => void;

export class VscodeAuthUserAgent implements AuthUserAgent, vscode.UriHandler, vscode.Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly _onDidOpen = new vscode.EventEmitter<{ server: string; url: string; redirectUri: string }>();
  /** An authorization page was opened (tests follow it; nothing else needs this). */
  readonly onDidOpenAuthorizationPage = this._onDidOpen.event;

  constructor(private readonly extensionId: string, private readonly log: (message: string) => void) {}

  /** The UriHandler: routes `…/oauth/callback?code=…&state=…` to the sign-in waiting for that state. */
  handleUri(uri: vscode.Uri): void {
    if (uri.path !== CALLBACK_PATH) return;
    const query = new URLSearchParams(uri.query);
    const resolve = this.pending.get(query.get('state') ?? '');
    if (!resolve) {
      void vscode.window.showWarningMessage(vscode.l10n.t('MCP Host received a sign-in response that no sign-in is waiting for; it was ignored.'));
      return;
    }
    resolve(new URL(`${uri.scheme}://${uri.authority}${uri.path}?${query.toString()}`));
  }

  async openChannel(_server: AuthTarget, preferredRedirectUri?: string): Promise<AuthorizationChannel> {
    const settings = readOAuthSettings();
    if (preferredRedirectUri && isLoopback(preferredRedirectUri)) return this.loopbackChannel(new URL(preferredRedirectUri));
    if (preferredRedirectUri) return this.uriHandlerChannel(preferredRedirectUri);
    if (settings.redirect !== 'loopback') {
      try {
        const local = vscode.Uri.parse(`${vscode.env.uriScheme}://${this.extensionId}${CALLBACK_PATH}`);
        const external = await vscode.env.asExternalUri(local);
        return this.uriHandlerChannel(external.toString(true));
      } catch (e) {
        this.log(`OAuth: no external URI for the callback (${e instanceof Error ? e.message : String(e)}); using a loopback redirect`);
      }
    }
    return this.loopbackChannel(settings.loopbackPort ? new URL(`http://127.0.0.1:${settings.loopbackPort}/callback`) : undefined);
  }

  private uriHandlerChannel(redirectUri: string): AuthorizationChannel {
    const states: string[] = [];
    return {
      redirectUri,
      authorize: request => {
        states.push(request.state);
        return this.run(request, redirectUri, new Promise<URL>(resolve => this.pending.set(request.state, resolve)));
      },
      dispose: () => { for (const s of states) this.pending.delete(s); },
    };
  }

  private async loopbackChannel(preferred?: URL): Promise<AuthorizationChannel> {
    const listener = await openLoopback(preferred);
    return {
      redirectUri: listener.redirectUri,
      authorize: request => this.run(request, listener.redirectUri, listener.waitFor(request.state)),
      dispose: () => listener.close(),
    };
  }

  /** Consent (unless the user asked to sign in), the browser, then the response, a cancel or a timeout. */
  private async run(request: AuthorizationRequest, redirectUri: string, response: Promise<URL>): Promise<URL> {
    const name = request.server.title ?? request.server.name;
    if (request.reason !== 'signIn') {
      const signIn = vscode.l10n.t('Sign In');
      const message = request.reason === 'stepUp'
        ? vscode.l10n.t('MCP server "{0}" needs more permissions ({1}). Sign in again?', name, request.scope ?? '')
        : vscode.l10n.t('MCP server "{0}" needs you to sign in again.', name);
      const choice = await vscode.window.showWarningMessage(message, { modal: true, detail: vscode.l10n.t('Your browser opens {0}.', request.authorizationUrl.origin) }, signIn);
      if (choice !== signIn) throw new AuthorizationCancelledError();
    }
    this._onDidOpen.fire({ server: request.server.name, url: request.authorizationUrl.href, redirectUri });
    this.log(`OAuth: opening the authorization page of ${request.authorizationUrl.origin} for "${name}"`);
    return vscode.window.withProgress({
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Signing in to MCP server "{0}": continue in your browser…', name),
      cancellable: true,
    }, async (_progress, token) => {
      const launcher = needsLauncher(request.authorizationUrl) ? await openLauncher(request.authorizationUrl) : undefined;
      let timer: NodeJS.Timeout | undefined;
      try {
        // A launcher on 127.0.0.1 is forwarded like any local port when VS Code runs remotely.
        const target = launcher ? await vscode.env.asExternalUri(vscode.Uri.parse(launcher.url))
          // vscode.Uri re-encodes the query: a '+' for a space would arrive as a literal plus.
          : vscode.Uri.parse(request.authorizationUrl.href.replace(/\+/g, '%20'), true);
        if (!await vscode.env.openExternal(target)) throw new AuthorizationCancelledError(vscode.l10n.t('the browser could not be opened'));
        const cancelled = new Promise<never>((_, reject) => {
          const fail = () => reject(new AuthorizationCancelledError());
          token.onCancellationRequested(fail);
          request.signal.addEventListener('abort', fail, { once: true });
          timer = setTimeout(() => reject(new AuthorizationCancelledError(vscode.l10n.t('the sign-in did not complete within {0} minutes', AUTHORIZATION_TIMEOUT_MS / 60_000))), AUTHORIZATION_TIMEOUT_MS);
        });
        return await Promise.race([response, cancelled]);
      } finally {
        clearTimeout(timer);
        launcher?.close();
      }
    });
  }

  /** Last resort of client registration: a client the user registered with the authorization server. */
  async askForClient(server: AuthTarget, issuer: string): Promise<ClientCredentials | undefined> {
    const name = server.title ?? server.name;
    const clientId = await vscode.window.showInputBox({
      title: vscode.l10n.t('Sign in to MCP server "{0}"', name),
      prompt: vscode.l10n.t('{0} does not let MCP Host register itself. Register an OAuth client there and enter its client ID (or set "mcpHost.oauth.clients").', issuer),
      ignoreFocusOut: true,
      validateInput: v => v.trim() ? undefined : vscode.l10n.t('A client ID is required'),
    });
    if (!clientId?.trim()) return undefined;
    const clientSecret = await vscode.window.showInputBox({
      title: vscode.l10n.t('Sign in to MCP server "{0}"', name),
      prompt: vscode.l10n.t('Client secret, if the client has one (leave empty for a public client). It is kept in VS Code\'s secret storage.'),
      password: true, ignoreFocusOut: true,
    });
    if (clientSecret === undefined) return undefined;
    return { clientId: clientId.trim(), ...(clientSecret ? { clientSecret } : {}) };
  }

  dispose(): void {
    this.pending.clear();
    this._onDidOpen.dispose();
  }
}

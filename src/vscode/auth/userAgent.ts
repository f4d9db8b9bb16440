/**
 * The OAuth user agent in VS Code: opens the authorization page in the user's browser through
 * the safe-URL opener (../safeUrl.ts) and receives the redirect back through this extension's
 * `UriHandler` at `<uriScheme>://mcp-host.mcp-host/oauth/callback`, made reachable with
 * `vscode.env.asExternalUri` (desktop: the custom scheme; VS Code for the web and code-server: an
 * https callback page of the workbench), or through a loopback listener on 127.0.0.1 when that is
 * not possible, when the setting asks for it, or when a pre-registered client's redirect URI is a
 * loopback one. A response is matched to its request by `state` (the core verifies it again).
 */
import * as vscode from 'vscode';
import {
  AuthorizationCancelledError, AuthorizationError,
  type AuthorizationChannel, type AuthorizationRequest, type AuthTarget, type AuthUserAgent, type ClientCredentials,
} from '../../core';
import { isLoopback, needsLauncher, openLauncher, openLoopback } from './loopback';
import { openUrlForServer } from '../safeUrl';
import { readOAuthSettings } from './settings';
import { inputBoxText, showWarning, withProgress } from '../notify';

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
      void showWarning(vscode.l10n.t('MCP Host received a sign-in response that no sign-in is waiting for; it was ignored.'));
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

  /**
   * Consent, the browser, then the response, a cancel or a timeout. The page opens through the
   * safe-URL opener; consent names its full host and is asked unless the user started this sign-in
   * and the page is on the server's own host.
   */
  private async run(request: AuthorizationRequest, redirectUri: string, response: Promise<URL>): Promise<URL> {
    const name = request.server.title ?? request.server.name;
    const page = request.authorizationUrl;
    const signIn = vscode.l10n.t('Sign In');
    const message = request.reason === 'stepUp' ? vscode.l10n.t('MCP server "{0}" needs more permissions ({1}). Sign in again?', name, request.scope ?? '')
      : request.reason === 'reauthenticate' ? vscode.l10n.t('MCP server "{0}" needs you to sign in again.', name)
      : sameHost(page, request.server.url) ? undefined
      : vscode.l10n.t('MCP server "{0}" sends you to sign in on another site. Continue?', name);
    let launcher: { readonly url: string; close(): void } | undefined;
    const outcome = await openUrlForServer(page, {
      server: name,
      confirm: message ? { message, button: signIn } : undefined,
      open: async url => {
        this._onDidOpen.fire({ server: request.server.name, url: url.href, redirectUri });
        this.log(`OAuth: opening the authorization page on ${url.host} for "${name}"`);
        launcher = needsLauncher(url) ? await openLauncher(url) : undefined;
        // A launcher on 127.0.0.1 is forwarded like any local port when VS Code runs remotely.
        const target = launcher ? await vscode.env.asExternalUri(vscode.Uri.parse(launcher.url))
          // vscode.Uri re-encodes the query: a '+' for a space would arrive as a literal plus.
          : vscode.Uri.parse(url.href.replace(/\+/g, '%20'), true);
        return vscode.env.openExternal(target);
      },
    });
    try {
      if (outcome === 'refused') throw new AuthorizationError(`the authorization page ${page.protocol}//${page.host || '…'} is not a URL MCP Host opens`);
      if (outcome === 'cancelled') throw new AuthorizationCancelledError();
      if (outcome === 'failed') throw new AuthorizationCancelledError(vscode.l10n.t('the browser could not be opened'));
      return await withProgress({
        location: vscode.ProgressLocation.Notification,
        title: vscode.l10n.t('Signing in to MCP server "{0}": continue in your browser…', name),
        cancellable: true,
      }, async (_progress, token) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          const cancelled = new Promise<never>((_, reject) => {
            const fail = () => reject(new AuthorizationCancelledError());
            token.onCancellationRequested(fail);
            request.signal.addEventListener('abort', fail, { once: true });
            timer = setTimeout(() => reject(new AuthorizationCancelledError(vscode.l10n.t('the sign-in did not complete within {0} minutes', AUTHORIZATION_TIMEOUT_MS / 60_000))), AUTHORIZATION_TIMEOUT_MS);
          });
          return await Promise.race([response, cancelled]);
        } finally { clearTimeout(timer); }
      });
    } finally {
      launcher?.close();
    }
  }

  /** Last resort of client registration: a client the user registered with the authorization server. */
  async askForClient(server: AuthTarget, issuer: string): Promise<ClientCredentials | undefined> {
    const name = server.title ?? server.name;
    const clientId = await vscode.window.showInputBox({
      title: vscode.l10n.t('Sign in to MCP server "{0}"', name),
      // The issuer is the authorization server's word, and VS Code renders a prompt's links.
      prompt: inputBoxText(vscode.l10n.t('{0} does not let MCP Host register itself. Register an OAuth client there and enter its client ID (or set "mcpHost.oauth.clients").', issuer)),
      ignoreFocusOut: true,
      validateInput: v => v.trim() ? undefined : vscode.l10n.t('A client ID is required'),
    });
    if (!clientId?.trim()) return undefined;
    const clientSecret = await vscode.window.showInputBox({
      title: vscode.l10n.t('Sign in to MCP server "{0}"', name),
      prompt: inputBoxText(vscode.l10n.t('Client secret, if the client has one (leave empty for a public client). It is kept in VS Code\'s secret storage.')),
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

/** Same host and port: an authorization page on the MCP server's own site needs no extra question. */
function sameHost(page: URL, serverUrl: string): boolean {
  try { return new URL(serverUrl).host === page.host; } catch { return false; }
}

/**
 * Building blocks for embedders without a UI (scripts, tests, the conformance driver): a secret
 * store in memory and a user agent that follows the authorization server's redirects itself, as
 * a browser would for an authorization server that approves without asking (a test server, or a
 * session the user already consented to). It never fills in a login form.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import {
  AuthorizationError,
  type AuthorizationChannel, type AuthorizationRequest, type AuthTarget, type AuthUserAgent, type ClientCredentials, type SecretStore,
} from './types';

export class MemorySecretStore implements SecretStore {
  readonly values = new Map<string, string>();
  async get(key: string): Promise<string | undefined> { return this.values.get(key); }
  async store(key: string, value: string): Promise<void> { this.values.set(key, value); }
  async delete(key: string): Promise<void> { this.values.delete(key); }
}

export interface HeadlessUserAgentOptions {
  /** Where the authorization server is asked to redirect; never contacted (default http://127.0.0.1:33418/callback). */
  readonly redirectUri?: string;
  readonly fetch?: FetchLike;
  readonly maxRedirects?: number;
  /** Sees every authorization request (tests count them). */
  readonly onAuthorize?: (request: AuthorizationRequest) => void;
  /** Answers the "register a client by hand" question. */
  readonly askForClient?: (server: AuthTarget, issuer: string) => Promise<ClientCredentials | undefined>;
}

export class HeadlessUserAgent implements AuthUserAgent {
  constructor(private readonly options: HeadlessUserAgentOptions = {}) {}

  async openChannel(_server: AuthTarget, preferredRedirectUri?: string): Promise<AuthorizationChannel> {
    const redirectUri = preferredRedirectUri ?? this.options.redirectUri ?? 'http://127.0.0.1:33418/callback';
    return {
      redirectUri,
      authorize: request => this.follow(request, new URL(redirectUri)),
      dispose() {},
    };
  }

  askForClient(server: AuthTarget, issuer: string): Promise<ClientCredentials | undefined> {
    return this.options.askForClient?.(server, issuer) ?? Promise.resolve(undefined);
  }

  /** GETs the authorization URL and follows redirects until one points at the redirect URI. */
  private async follow(request: AuthorizationRequest, redirect: URL): Promise<URL> {
    this.options.onAuthorize?.(request);
    const fetchFn = this.options.fetch ?? ((u, i) => fetch(u, i));
    let url = request.authorizationUrl;
    for (let hop = 0; hop < (this.options.maxRedirects ?? 10); hop++) {
      const res = await fetchFn(url, { redirect: 'manual', signal: request.signal });
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) {
        throw new AuthorizationError(`the authorization page answered HTTP ${res.status} instead of redirecting back; a person has to sign in there`);
      }
      const next = new URL(location, url);
      if (next.origin === redirect.origin && next.pathname === redirect.pathname) return next;
      url = next;
    }
    throw new AuthorizationError('too many redirects on the way back from the authorization server');
  }
}

/**
 * The SDK's `OAuthClientProvider` for one MCP server. The SDK's `auth()` drives the protocol
 * (protected-resource and authorization-server discovery, registration, PKCE, token and refresh
 * requests); this class decides what it may do and keeps the results:
 * - client registration in the spec's order: a pre-registered client → a client ID metadata
 *   document (when the authorization server supports it) → dynamic registration → ask the user;
 * - PKCE: refuses to send the user anywhere unless the metadata lists `S256`;
 * - the authorization page: opened only if the safe-URL rule allows it (https, http only to loopback);
 * - `state`: generated per authorization and checked on the way back (plus RFC 9207 `iss`, required
 *   when the authorization server advertises it);
 * - persistence in the embedder's secret store (see storage.ts), nothing in memory that matters.
 * {@link OAuthSession} sets {@link flow} around each `auth()` call; without an interactive flow
 * nothing that needs the user happens (a `SignInRequiredError` is thrown instead).
 */
import { randomBytes } from 'node:crypto';
import type { AddClientAuthentication, DpopSession, FetchLike, OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { AuthorizationServerMetadata, OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/client';
import type { Logger } from '../logger';
import { loadDpopSession } from './dpopKeys';
import type { AuthDeclaration } from '../config/authDecl';
import { DeclaredGrant } from './grants';
import { checkAuthorizationPage, checkPkce, registeredFor, untilAborted, checkPinned, usesEndpointFallback } from './providerChecks';
import { AuthStorage, type StoredTokens } from './storage';
import {
  AuthorizationCancelledError, AuthorizationError, SignInRequiredError,
  type AuthorizationChannel, type AuthorizationReason, type AuthPort, type AuthTarget, type ClientCredentials,
} from './types';

/** Never sent anywhere: only non-interactive calls (refresh) run without a channel, and they do not use it. */
const NO_REDIRECT = 'http://127.0.0.1/mcp-host/no-redirect';

/** Thrown inside `auth()` when the stored registration does not fit this flow's redirect URI; the session re-runs `auth()`. */
export class RegisterAgainError extends Error {}

/** One authorization attempt (one or two `auth()` calls). */
export class AuthFlow {
  channel?: AuthorizationChannel;
  state?: string;
  codeVerifier?: string;
  code?: string;
  /** The authorization response's RFC 9207 `iss`, checked here and handed to the SDK, which checks it again. */
  iss?: string;
  /** `scope` of the authorization request, for when the token response does not say. */
  requestedScope?: string;
  private opening?: Promise<AuthorizationChannel>;

  constructor(
    readonly interactive: boolean,
    readonly reason: AuthorizationReason,
    /** Step-up: a refresh cannot add scopes, so the refresh token is not offered to `auth()`. */
    readonly skipRefresh: boolean,
    private readonly open: () => Promise<AuthorizationChannel>,
    readonly signal: AbortSignal,
    /** Called when the user is about to be involved (browser, consent, a question). */
    readonly beginInteraction: () => void = () => {},
  ) {}

  async ensureChannel(): Promise<AuthorizationChannel> {
    if (this.channel) return this.channel;
    this.opening ??= this.open().then(c => (this.channel = c));
    return this.opening;
  }

  dispose(): void { this.channel?.dispose(); }
}

export interface ProviderOptions {
  readonly target: AuthTarget;
  readonly port: AuthPort;
  readonly storage: AuthStorage;
  readonly logger: Logger;
  /** Called after new tokens were stored (the session bumps its token generation). */
  readonly onTokens: () => void;
  /**
   * The declaration's `auth`: a grant without a person (`grant`: no browser, no registration) and
   * DPoP (`dpop`: tokens bound to this server's key, RFC 9449).
   */
  readonly auth?: AuthDeclaration;
  /** Reaches the enterprise IdP (the session's fetch). */
  readonly fetch?: FetchLike;
}

export class McpOAuthProvider implements OAuthClientProvider {
  flow?: AuthFlow;
  private discoveryCache?: OAuthDiscoveryState;
  private discoveryLoaded = false;
  private preRegistered?: { value?: ClientCredentials };
  /** Tokens as last read or written (each request needs them; a secret store read may be an IPC round trip). */
  private tokenCache?: { value?: StoredTokens };
  private readonly known = new Set<string>();
  private dpopSession?: Promise<DpopSession>;
  private readonly grant?: DeclaredGrant;

  constructor(private readonly options: ProviderOptions) {
    const auth = options.auth;
    if (auth?.grant) this.grant = new DeclaredGrant({ ...auth, grant: auth.grant }, (...v) => this.remember(...v), options.fetch ?? ((u, i) => fetch(u, i)));
  }

  /** True when tokens come from a declared grant: nobody has to be present. */
  get unattended(): boolean { return this.grant !== undefined; }

  /** The SDK asks for a DPoP session on every token request and resource request; one key per server, kept in the secret store. */
  dpop(): Promise<DpopSession> | undefined {
    if (!this.options.auth?.dpop) return undefined;
    this.dpopSession ??= loadDpopSession(this.options.port.store, this.serverUrl, this.options.logger);
    return this.dpopSession;
  }

  get addClientAuthentication(): AddClientAuthentication | undefined { return this.grant?.addClientAuthentication; }

  /** Declared grant: its token request (client_credentials, JWT bearer); else the SDK's authorization code request. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    return this.grant?.prepareTokenRequest(scope);
  }

  saveAuthorizationServerUrl(issuer: string): void { if (this.grant) this.grant.authorizationServer = issuer; }
  saveResourceUrl(resource: string): void { if (this.grant) this.grant.resource = resource; }

  private get serverUrl(): string { return this.options.target.url; }

  /** Values never to be written to a log (tokens, client secret, code, verifier). */
  secrets(): string[] { return [...this.known]; }

  private remember(...values: (string | undefined)[]): void {
    for (const v of values) if (v) this.known.add(v);
  }

  // ---- redirect and client metadata -----------------------------------------------------------

  get redirectUrl(): string | undefined {
    // No redirect URI tells the SDK's auth() that this is a flow without a browser (it asks prepareTokenRequest).
    if (this.grant) return undefined;
    return this.flow?.channel?.redirectUri ?? NO_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    const base = this.options.port.clientMetadata ?? {};
    const grant = this.grant;
    if (grant) return { client_name: base.client_name ?? 'MCP Host', redirect_uris: [], grant_types: grant.grantTypes(), token_endpoint_auth_method: grant.method, ...(grant.auth.scope ? { scope: grant.auth.scope } : {}) };
    return {
      client_name: 'MCP Host',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A native app cannot keep a secret (RFC 8252 §8.5): a public client.
      token_endpoint_auth_method: 'none',
      ...base,
      // Spec 2026-07-28 (SEP-837): registration names the kind of client; an editor on the user's
      // machine with loopback or custom-scheme redirects is a native one, whatever the embedder says.
      application_type: 'native',
      redirect_uris: [this.redirectUrl ?? NO_REDIRECT],
    };
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.port.clientMetadataUrl?.(this.options.target);
  }

  // ---- discovery ------------------------------------------------------------------------------

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (!this.discoveryLoaded) {
      this.discoveryCache = await this.options.storage.discovery(this.serverUrl);
      this.discoveryLoaded = true;
    }
    if (this.discoveryCache) checkPinned(this.discoveryCache.authorizationServerUrl, this.options.port.allowedAuthorizationServers?.());
    return this.discoveryCache;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    checkPinned(state.authorizationServerUrl, this.options.port.allowedAuthorizationServers?.());
    this.discoveryCache = state;
    this.discoveryLoaded = true;
    await this.options.storage.saveDiscovery(this.serverUrl, state);
    this.options.logger.info(`OAuth: authorization server ${state.authorizationServerUrl}${state.resourceMetadata ? ` (protected resource ${state.resourceMetadata.resource})` : ' (no protected resource metadata; legacy discovery)'}`);
    // Refuse before registering anywhere if the authorization server cannot do PKCE or sends the user somewhere unsafe.
    if (this.flow?.interactive) {
      checkPkce(this.serverUrl, state);
      checkAuthorizationPage(state.authorizationServerUrl, state.authorizationServerMetadata?.authorization_endpoint);
    }
  }

  /** The authorization server the stored state points at (the SDK's binding key for tokens and clients). */
  async issuer(): Promise<string | undefined> {
    return (await this.discoveryState())?.authorizationServerUrl;
  }

  private async metadata(): Promise<AuthorizationServerMetadata | undefined> {
    return (await this.discoveryState())?.authorizationServerMetadata;
  }

  // ---- client registration --------------------------------------------------------------------

  private async preRegisteredClient(): Promise<ClientCredentials | undefined> {
    if (!this.preRegistered) this.preRegistered = { value: await this.options.port.preRegisteredClient?.(this.options.target) };
    return this.preRegistered.value;
  }

  /** The redirect URI a pre-registered client insists on, for the user agent's channel. */
  async preferredRedirectUri(): Promise<string | undefined> {
    return (await this.preRegisteredClient())?.redirectUri;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const issuer = await this.issuer();
    if (this.grant) return this.grant.clientInformation(issuer);
    const pre = await this.preRegisteredClient();
    if (pre) {
      this.remember(pre.clientSecret);
      // Stamped with the issuer in use (SEP-2352): the user configured this client for this server, so it
      // is meant for whichever authorization server the server names; unstamped, the SDK warns on every read.
      return { client_id: pre.clientId, ...(pre.clientSecret ? { client_secret: pre.clientSecret } : {}), ...(pre.redirectUri ? { redirect_uris: [pre.redirectUri] } : {}), ...(issuer ? { issuer } : {}) };
    }
    const flow = this.flow;
    const stored = issuer ? await this.options.storage.client(issuer) : undefined;
    if (stored) {
      this.remember(stored.info.client_secret);
      // A dynamically registered client knows only the redirect URIs it registered; a flow that
      // receives elsewhere (a new loopback port, a new web callback) registers again.
      if (stored.kind === 'dynamic' && flow?.interactive && flow.channel && !registeredFor(stored, flow.channel.redirectUri)) {
        this.options.logger.info('OAuth: the stored client registration does not include this redirect URI; registering again');
        return undefined;
      }
      return stored.info;
    }
    if (!flow?.interactive) throw new SignInRequiredError();
    // No client yet: registration needs the redirect URI, so the channel opens now.
    const registeredWith = flow.channel !== undefined;
    await flow.ensureChannel();
    const md = await this.metadata();
    if (md?.client_id_metadata_document_supported === true && this.clientMetadataUrl) {
      this.options.logger.info('OAuth: using the client ID metadata document as client_id');
      return undefined; // the SDK uses clientMetadataUrl
    }
    if (md?.registration_endpoint || (!md && usesEndpointFallback(this.serverUrl, await this.discoveryState()))) {
      // The SDK reads clientMetadata (with its redirect URI) before it asks us for the client: when
      // the channel opened only just now, that read saw no redirect URI, so auth() starts again.
      if (!registeredWith) throw new RegisterAgainError();
      this.options.logger.info('OAuth: registering a client dynamically (RFC 7591)');
      return undefined; // the SDK registers
    }
    // Last resort in the spec's order: a client the user registered by hand.
    if (issuer) flow.beginInteraction();
    const manual = issuer ? await this.options.port.userAgent.askForClient?.(this.options.target, issuer) : undefined;
    if (!manual) {
      throw new AuthorizationError(`the authorization server ${issuer ?? '?'} supports neither client ID metadata documents nor dynamic client registration; configure a pre-registered client for this server`);
    }
    const info: OAuthClientInformationMixed = { client_id: manual.clientId, ...(manual.clientSecret ? { client_secret: manual.clientSecret } : {}), ...(issuer ? { issuer } : {}) };
    this.remember(manual.clientSecret);
    if (issuer) await this.options.storage.saveClient(issuer, { info, kind: 'manual' });
    return info;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    // A declared grant's client comes from the declaration: nothing of it is stored.
    if (this.grant) return;
    const pre = await this.preRegisteredClient();
    // The SDK stamps a pre-registered client with the issuer it was used with; settings stay its only source.
    if (pre && info.client_id === pre.clientId) return;
    const issuer = info.issuer ?? await this.issuer();
    if (!issuer) return;
    this.remember(info.client_secret);
    const previous = await this.options.storage.client(issuer);
    const kind = info.client_id === this.clientMetadataUrl ? 'metadataDocument'
      : previous && previous.info.client_id === info.client_id ? previous.kind : 'dynamic';
    await this.options.storage.saveClient(issuer, { info, kind });
  }

  // ---- tokens ---------------------------------------------------------------------------------

  async storedTokens(): Promise<StoredTokens | undefined> {
    if (this.tokenCache) return this.tokenCache.value;
    const issuer = await this.issuer();
    const stored = issuer ? await this.options.storage.tokens(this.serverUrl, issuer) : undefined;
    if (stored) this.remember(stored.tokens.access_token, stored.tokens.refresh_token);
    this.tokenCache = { value: stored };
    return stored;
  }

  /** Forgets what was read, so the next use reads the store again (another session may have changed it). */
  reload(): void {
    this.tokenCache = undefined;
    this.discoveryLoaded = false;
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const stored = await this.storedTokens();
    if (!stored) return undefined;
    return this.flow?.skipRefresh ? { ...stored.tokens, refresh_token: undefined } : stored.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const issuer = tokens.issuer ?? await this.issuer();
    if (!issuer) throw new AuthorizationError('tokens arrived before the authorization server was known');
    this.remember(tokens.access_token, tokens.refresh_token);
    const previous = await this.options.storage.tokens(this.serverUrl, issuer);
    const record: StoredTokens = {
      tokens,
      expiresAt: typeof tokens.expires_in === 'number' ? Date.now() + tokens.expires_in * 1000 : undefined,
      scope: tokens.scope ?? this.flow?.requestedScope ?? previous?.scope,
    };
    await this.options.storage.saveTokens(this.serverUrl, issuer, record);
    this.tokenCache = { value: record };
    this.options.onTokens();
  }

  async deleteTokens(): Promise<void> {
    const issuer = await this.issuer();
    if (issuer) await this.options.storage.saveTokens(this.serverUrl, issuer, undefined);
    this.tokenCache = { value: undefined };
  }

  // ---- authorization --------------------------------------------------------------------------

  async state(): Promise<string> {
    const flow = this.flow;
    // Reached only when a browser round trip is needed (no tokens, refresh impossible or refused).
    if (!flow?.interactive) throw new SignInRequiredError();
    const discovery = await this.discoveryState();
    checkPkce(this.serverUrl, discovery);
    const channel = await flow.ensureChannel();
    const pre = await this.preRegisteredClient();
    const issuer = discovery?.authorizationServerUrl;
    const stored = !pre && issuer ? await this.options.storage.client(issuer) : undefined;
    if (stored?.kind === 'dynamic' && !registeredFor(stored, channel.redirectUri)) throw new RegisterAgainError();
    flow.state = randomBytes(32).toString('base64url');
    return flow.state;
  }

  saveCodeVerifier(codeVerifier: string): void {
    if (this.flow) this.flow.codeVerifier = codeVerifier;
    this.remember(codeVerifier);
  }

  codeVerifier(): string {
    const v = this.flow?.codeVerifier;
    if (!v) throw new AuthorizationError('no PKCE code verifier for this authorization');
    return v;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const flow = this.flow;
    if (!flow?.interactive || !flow.state) throw new SignInRequiredError();
    const discovery = await this.discoveryState();
    checkAuthorizationPage(discovery?.authorizationServerUrl ?? '?', authorizationUrl.href, discovery?.authorizationServerMetadata ? undefined : this.serverUrl);
    const channel = await flow.ensureChannel();
    flow.requestedScope = authorizationUrl.searchParams.get('scope') ?? undefined;
    this.options.logger.info(`OAuth: sending the user to ${authorizationUrl.host}${authorizationUrl.pathname}${flow.requestedScope ? ` (scope: ${flow.requestedScope})` : ''}`);
    flow.beginInteraction();
    const response = await untilAborted(channel.authorize({
      server: this.options.target, reason: flow.reason, authorizationUrl, scope: flow.requestedScope, state: flow.state, signal: flow.signal,
    }), flow.signal);
    ({ code: flow.code, iss: flow.iss } = await this.checkResponse(response, flow.state));
    this.remember(flow.code);
  }

  /** Verifies the authorization response (RFC 6749 §4.1.2, RFC 9207) and returns its code. */
  private async checkResponse(response: URL, state: string): Promise<{ code: string; iss?: string }> {
    const q = response.searchParams;
    // `state` first: a response that is not ours must not even be interpreted.
    if (q.get('state') !== state) throw new AuthorizationError('the authorization response carried a different state than the request; it was ignored');
    const error = q.get('error');
    if (error) {
      const description = q.get('error_description');
      if (error === 'access_denied') throw new AuthorizationCancelledError(`the authorization was denied${description ? `: ${description}` : ''}`);
      throw new AuthorizationError(`the authorization server refused: ${error}${description ? ` (${description})` : ''}`);
    }
    // RFC 9207: a server that promises `iss` must send it, or a mix-up attacker could answer in its name.
    const iss = q.get('iss');
    const metadata = await this.metadata();
    const expectedIssuer = metadata?.issuer;
    // The SDK's metadata type does not name this RFC 9207 field; its schema keeps unknown fields.
    const promisesIss = (metadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)?.authorization_response_iss_parameter_supported === true;
    if (iss === null && promisesIss) {
      throw new AuthorizationError(`the authorization response has no "iss" although the authorization server ${expectedIssuer ?? '?'} advertises authorization_response_iss_parameter_supported; it was refused`);
    }
    if (iss !== null && iss !== expectedIssuer) throw new AuthorizationError(`the authorization response came from issuer ${iss}, expected ${expectedIssuer ?? 'none (the metadata names no issuer)'}`);
    const code = q.get('code');
    if (!code) throw new AuthorizationError('the authorization response has no code');
    return { code, iss: iss ?? undefined };
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const issuer = await this.issuer();
    if ((scope === 'all' || scope === 'client') && issuer) {
      this.options.logger.info('OAuth: the authorization server no longer accepts the client registration; forgetting it');
      await this.options.storage.saveClient(issuer, undefined);
    }
    if (scope === 'all' || scope === 'tokens') await this.deleteTokens();
    if ((scope === 'all' || scope === 'verifier') && this.flow) this.flow.codeVerifier = undefined;
    if (scope === 'all' || scope === 'discovery') await this.forgetDiscovery();
  }

  async forgetDiscovery(): Promise<void> {
    this.discoveryCache = undefined;
    this.discoveryLoaded = true;
    await this.options.storage.saveDiscovery(this.serverUrl, undefined);
  }
}


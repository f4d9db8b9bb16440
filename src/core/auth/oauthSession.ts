/**
 * OAuth for one HTTP server connection. The SDK transport gets {@link OAuthSession.fetch}: it adds
 * the access token and, on `401` or `403 insufficient_scope`, runs the SDK's `auth()` with our
 * {@link McpOAuthProvider} and retries the request, so a request that needs a (new) sign-in simply
 * takes longer instead of failing.
 *
 * Why a fetch wrapper and not only the transport's `authProvider`: the transport's built-in path
 * ends every browser round trip in `UnauthorizedError` (the embedder must call `finishAuth()` and
 * reconnect), refreshes instead of re-authorizing on a step-up (a refresh cannot add scopes), and
 * lets parallel requests start parallel authorizations. Here one authorization runs at a time,
 * the others wait for it, and retries are bounded.
 *
 * Interaction: `silent` (automatic start: stored tokens and refresh only, else
 * `SignInRequiredError`), `signIn` (the user asked), `running` (a user-driven request hit 401/403;
 * the user agent may ask for consent before opening the browser).
 */
import { auth, extractWWWAuthenticateParams, withDpopFromProvider, type AuthResult } from '@modelcontextprotocol/client';
import type { AuthDeclaration } from '../config/authDecl';
import { OAuthError } from '@modelcontextprotocol/client';
import type { FetchLike } from '@modelcontextprotocol/client';
import { Disposable, Emitter, type Event } from '../events';
import { nullLogger, type Logger } from '../logger';
import { redact } from '../redact';
import { AuthFlow, McpOAuthProvider, RegisterAgainError } from './oauthProvider';
import { AuthStorage } from './storage';
import {
  AuthorizationError, AuthorizationPendingError, InsufficientScopeError, SignInRequiredError,
  type AuthorizationReason, type AuthPort, type AuthTarget,
} from './types';

export type SessionInteraction = 'silent' | 'signIn' | 'running';

/** What the session knows about this server's authorization, for the UI. */
export type AuthStatus =
  /** No 401 seen and no stored tokens: the server may not use OAuth at all. */
  | 'unknown'
  | 'signedIn'
  | 'needsSignIn';

interface Challenge {
  readonly kind: 'unauthorized' | 'insufficientScope' | 'expired';
  readonly resourceMetadataUrl?: URL;
  readonly scope?: string;
}

const EXPIRY_SKEW_MS = 30_000;

export class OAuthSession extends Disposable {
  readonly provider: McpOAuthProvider;
  /** Set by the connection before it connects and once it runs. */
  interaction: SessionInteraction = 'silent';
  /**
   * When the user must act, throw {@link AuthorizationPendingError} at once instead of waiting
   * inside the request (the connection waits for the authorization, then resends).
   */
  deferInteraction = false;
  private inflight?: Promise<void>;
  private tokenGeneration = 0;
  /** Generation of tokens just obtained by an authorization; a 401 for them ends the attempts. */
  private freshGeneration = -1;
  private stepUps = 0;
  private interacting = false;
  private readonly _onInteraction = this._register(new Emitter<void>());
  private _status: AuthStatus = 'unknown';
  private readonly baseFetch: FetchLike;
  /** What carries the MCP requests: the base fetch, under DPoP proofs when the tokens are bound (auth.dpop). */
  private readonly resourceFetch: FetchLike;
  private readonly logger: Logger;
  private readonly aborter = new AbortController();
  /** Aborts the authorization in flight only (the session lives on); see {@link abandonAuthorization}. */
  private flowAborter?: AbortController;

  private readonly _onDidChangeStatus = this._register(new Emitter<AuthStatus>());
  readonly onDidChangeStatus: Event<AuthStatus> = this._onDidChangeStatus.event;

  constructor(readonly target: AuthTarget, private readonly port: AuthPort, options: { logger?: Logger; fetch?: FetchLike; auth?: AuthDeclaration } = {}) {
    super();
    this.logger = options.logger ?? nullLogger;
    this.baseFetch = options.fetch ?? ((url, init) => fetch(url, init));
    this.provider = new McpOAuthProvider({
      target, port, storage: new AuthStorage(port.store), logger: this.logger, auth: options.auth, fetch: this.baseFetch,
      onTokens: () => { this.tokenGeneration++; },
    });
    // Innermost, as the SDK asks: it replaces the Bearer header by a DPoP one with a fresh proof for a
    // DPoP-bound token, and retries a use_dpop_nonce challenge once; a 401 after that is the loop's below.
    this.resourceFetch = options.auth?.dpop ? withDpopFromProvider(this.provider)(this.baseFetch) : this.baseFetch;
  }

  get status(): AuthStatus { return this._status; }

  /** Tokens, client secret, code and verifier seen so far: logs of this server redact them. */
  secrets(): string[] { return this.provider.secrets(); }

  /** The fetch the transport uses: adds the token, authorizes on 401/403 and retries. */
  readonly fetch: FetchLike = (url, init) => this.authFetch(url, init);

  /** Reads the stored tokens once, so the UI can show "signed in" before the first request. */
  async refreshStatus(): Promise<AuthStatus> {
    if (this._status === 'unknown' && await this.provider.storedTokens()) this.setStatus('signedIn');
    return this._status;
  }

  /** Forgets this server's tokens (the client registration with its authorization server stays). */
  async signOut(): Promise<void> {
    await this.provider.deleteTokens();
    await this.provider.forgetDiscovery();
    this.tokenGeneration++;
    this.logger.info('OAuth: signed out; the tokens were deleted');
    this.setStatus('unknown');
  }

  /**
   * Gives up the authorization in flight (its start was stopped while the person was still in the
   * browser): the next sign-in starts a new one instead of joining one nobody waits for.
   */
  abandonAuthorization(): void { this.flowAborter?.abort(); }

  /** Marks the server as needing a sign-in (the connection gave up on it). */
  markNeedsSignIn(): void { this.setStatus('needsSignIn'); }

  private setStatus(status: AuthStatus): void {
    if (this._status === status) return;
    this._status = status;
    this._onDidChangeStatus.fire(status);
  }

  private async authFetch(url: string | URL, init?: RequestInit): Promise<Response> {
    let reauthorized = 0;
    for (;;) {
      if (this.inflight) await this.inflight.catch(() => {});
      await this.refreshIfExpired();
      const generation = this.tokenGeneration;
      const tokens = await this.provider.tokens();
      const headers = new Headers(init?.headers);
      if (tokens) headers.set('Authorization', `Bearer ${tokens.access_token}`);
      const response = await this.resourceFetch(url, { ...init, headers });
      if (response.status !== 401 && response.status !== 403) {
        if (tokens && response.ok) {
          this.setStatus('signedIn');
          this.freshGeneration = -1;
          this.stepUps = 0;
        }
        return response;
      }
      const challenge = extractWWWAuthenticateParams(response);
      if (response.status === 403 && challenge.error !== 'insufficient_scope') return response;
      await response.body?.cancel().catch(() => {});
      // Someone else got new tokens while this request was out: just try again with those.
      if (generation !== this.tokenGeneration) continue;
      if (response.status === 401) {
        if (reauthorized++ >= 1 || (tokens && generation === this.freshGeneration)) {
          throw this.needsSignIn(new SignInRequiredError('the server refused the new access token (HTTP 401)'));
        }
        this.logger.info(`OAuth: HTTP 401 from the server${tokens ? ' (the access token was refused)' : ''}; authorizing`);
        await this.authorizeOrDefer({ kind: 'unauthorized', resourceMetadataUrl: challenge.resourceMetadataUrl, scope: challenge.scope });
        continue;
      }
      const granted = (await this.provider.storedTokens())?.scope;
      if (challenge.scope && granted && isSubset(challenge.scope, granted)) {
        throw new InsufficientScopeError(challenge.scope, `the server requires scope "${challenge.scope}", which is already granted, and still refuses (HTTP 403 insufficient_scope)`);
      }
      // Counted per session (a deferred step-up resends the request as a new fetch) and reset by any success.
      if (this.stepUps >= (this.port.maxStepUps ?? 2)) {
        throw new InsufficientScopeError(challenge.scope, `the server still requires more scopes (${challenge.scope ?? 'unspecified'}) after ${this.stepUps} step-up authorization(s)`);
      }
      this.stepUps++;
      const scope = unionScopes(granted, challenge.scope);
      this.logger.info(`OAuth: HTTP 403 insufficient_scope; requesting scopes "${scope ?? ''}"`);
      await this.authorizeOrDefer({ kind: 'insufficientScope', resourceMetadataUrl: challenge.resourceMetadataUrl, scope });
    }
  }

  /** A known-expired access token is refreshed before use (silently; a failure leaves it to the 401 path). */
  private async refreshIfExpired(): Promise<void> {
    const stored = await this.provider.storedTokens();
    if (!stored?.expiresAt || !stored.tokens.refresh_token || stored.expiresAt - EXPIRY_SKEW_MS > Date.now()) return;
    this.logger.info('OAuth: the access token has expired; refreshing it');
    await this.authorize({ kind: 'expired' }).catch(e => this.logger.info(`OAuth: refresh failed: ${errorText(e)}`));
  }

  /** Authorizes; with {@link deferInteraction}, throws {@link AuthorizationPendingError} as soon as the user must act. */
  private async authorizeOrDefer(challenge: Challenge): Promise<void> {
    const done = this.authorize(challenge);
    if (!this.deferInteraction) return done;
    const outcome = await new Promise<'done' | 'waiting'>((resolve, reject) => {
      if (this.interacting) { resolve('waiting'); return; }
      const sub = this._onInteraction.event(() => { sub.dispose(); resolve('waiting'); });
      done.then(() => { sub.dispose(); resolve('done'); }, e => { sub.dispose(); reject(e); });
    });
    if (outcome === 'waiting') {
      done.catch(() => {}); // the waiter handles the outcome
      throw new AuthorizationPendingError(done);
    }
  }

  /** One authorization at a time: concurrent callers join the one in flight. */
  private authorize(challenge: Challenge): Promise<void> {
    this.inflight ??= this.runAuthorization(challenge).finally(() => { this.inflight = undefined; });
    return this.inflight;
  }

  private async runAuthorization(challenge: Challenge): Promise<void> {
    this.provider.reload();
    const stored = await this.provider.storedTokens();
    // A token the server refuses may be one of an authorization server it no longer trusts (its
    // metadata now names another, SEP-2352): discovery starts again, and a new server means a new client.
    if (challenge.kind === 'unauthorized' && stored) await this.provider.forgetDiscovery();
    const silent = this.interaction === 'silent' || challenge.kind === 'expired';
    // A declared grant needs nobody: an automatic start gets its tokens like a sign-in would.
    if (silent && !this.provider.unattended && challenge.kind !== 'expired' && (!stored || challenge.kind === 'insufficientScope')) {
      // Nothing to refresh, and nobody asked to sign in: no network, no browser.
      throw this.needsSignIn(new SignInRequiredError());
    }
    const reason: AuthorizationReason = this.interaction === 'signIn' ? 'signIn' : challenge.kind === 'insufficientScope' ? 'stepUp' : 'reauthenticate';
    const preferred = await this.provider.preferredRedirectUri();
    const flowAborter = this.flowAborter = new AbortController();
    const flow = new AuthFlow(!silent, reason, challenge.kind === 'insufficientScope',
      () => this.port.userAgent.openChannel(this.target, preferred), AbortSignal.any([this.aborter.signal, flowAborter.signal]),
      () => { this.interacting = true; this._onInteraction.fire(); });
    this.provider.flow = flow;
    const options = { serverUrl: this.target.url, resourceMetadataUrl: challenge.resourceMetadataUrl, scope: challenge.scope, fetchFn: this.baseFetch };
    try {
      let result: AuthResult;
      try { result = await auth(this.provider, options); }
      catch (e) {
        if (!(e instanceof RegisterAgainError)) throw e;
        result = await auth(this.provider, options);
      }
      if (result === 'REDIRECT') {
        if (!flow.code) throw new SignInRequiredError();
        result = await auth(this.provider, { ...options, authorizationCode: flow.code, iss: flow.iss });
      }
      if (result !== 'AUTHORIZED') throw new SignInRequiredError();
      this.freshGeneration = this.tokenGeneration;
      const granted = (await this.provider.storedTokens())?.scope;
      this.logger.info(`OAuth: ${flow.code ? 'signed in' : 'tokens refreshed'}${granted ? ` (scope: ${granted})` : ''}`);
      this.setStatus('signedIn');
    } catch (e) {
      throw this.needsSignIn(toAuthError(e), challenge.kind === 'unauthorized');
    } finally {
      this.interacting = false;
      if (this.flowAborter === flowAborter) this.flowAborter = undefined;
      if (this.provider.flow === flow) this.provider.flow = undefined;
      flow.dispose();
    }
  }

  private needsSignIn<E extends Error>(e: E, mark = true): E {
    // The message quotes the authorization server, which may quote back what it was sent (a client
    // secret, an assertion): it goes to the log and the Servers view only without them.
    e.message = redact(e.message, this.secrets());
    if (mark && e instanceof SignInRequiredError) this.setStatus('needsSignIn');
    if (!(e instanceof SignInRequiredError)) this.logger.error(`OAuth: ${e.message}`);
    return e;
  }

  override dispose(): void {
    this.aborter.abort();
    super.dispose();
  }
}

/** SDK and network errors → our error types with messages a user can act on. */
function toAuthError(e: unknown): Error {
  if (e instanceof SignInRequiredError || e instanceof AuthorizationError || e instanceof InsufficientScopeError) return e;
  if (e instanceof OAuthError) return new AuthorizationError(`the authorization server answered ${e.code}${e.message ? `: ${e.message}` : ''}`, { cause: e });
  // The SDK validates discovery documents with zod; its error message is a JSON dump of the issues.
  const issues = (e as { issues?: { path?: unknown[]; message?: string }[] }).issues;
  if (e instanceof Error && Array.isArray(issues)) {
    const what = issues.map(i => `${(i.path ?? []).join('.') || 'document'}: ${i.message ?? 'invalid'}`).join('; ');
    return new AuthorizationError(`the authorization server published metadata MCP Host refuses (${what}); refusing to sign in`, { cause: e });
  }
  const cause = (e as { cause?: { code?: string } }).cause?.code;
  if (e instanceof TypeError && cause) return new AuthorizationError(`could not reach the authorization server (${cause})`, { cause: e });
  return new AuthorizationError(errorText(e), { cause: e });
}

function scopeSet(scope: string | undefined): Set<string> {
  return new Set((scope ?? '').split(/\s+/).filter(Boolean));
}

function isSubset(needed: string, granted: string): boolean {
  const g = scopeSet(granted);
  return [...scopeSet(needed)].every(s => g.has(s));
}

function unionScopes(a: string | undefined, b: string | undefined): string | undefined {
  const all = new Set([...scopeSet(a), ...scopeSet(b)]);
  return all.size ? [...all].join(' ') : undefined;
}

function errorText(e: unknown): string { return e instanceof Error ? e.message : String(e); }

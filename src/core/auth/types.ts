/**
 * The authorization port: what the core needs from its embedder to sign in to OAuth-protected
 * HTTP servers. The OAuth protocol itself (discovery, registration, PKCE, token requests) is the
 * SDK's `auth()`; the embedder supplies storage, a user agent that shows the authorization page
 * and receives the redirect, and client settings.
 */
import type { OAuthClientMetadata } from '@modelcontextprotocol/client';
import type { ServerRef } from '../serverRef';

/**
 * Secret key/value storage (`vscode.SecretStorage` fits as is). Tokens, client registrations and
 * discovery results are kept here as JSON, keyed by server URL and authorization server (issuer).
 */
export interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** Why the user is sent to the authorization server; a user agent may ask for consent for all but `signIn`. */
export type AuthorizationReason =
  /** The user asked to sign in (a command, the Servers view). */
  | 'signIn'
  /** A running server answered 401 and the stored tokens could not be refreshed. */
  | 'reauthenticate'
  /** A running server answered 403 `insufficient_scope` and needs more scopes (step-up). */
  | 'stepUp';

export interface AuthTarget extends ServerRef {
  /** The MCP server URL (the protected resource). */
  readonly url: string;
}

export interface AuthorizationRequest {
  readonly server: AuthTarget;
  readonly reason: AuthorizationReason;
  /** The full authorization URL (PKCE challenge, `state`, `resource`, `scope` included); open it as is. */
  readonly authorizationUrl: URL;
  /** Scopes requested (space-separated), if any. */
  readonly scope?: string;
  /** The `state` sent; the response must carry it back (the core verifies it too). */
  readonly state: string;
  readonly signal: AbortSignal;
}

/**
 * One authorization round trip. `redirectUri` is known before the authorization URL is built
 * (it is part of the client registration and the request); `authorize` sends the user to the
 * authorization server and resolves with the URL the server redirected back to.
 */
export interface AuthorizationChannel {
  readonly redirectUri: string;
  /**
   * Shows `authorizationUrl` to the user and resolves with the redirect back (query with `code`
   * and `state`, or `error`). Reject with {@link AuthorizationCancelledError} when the user says no.
   */
  authorize(request: AuthorizationRequest): Promise<URL>;
  /** Releases what the channel holds (a loopback listener, a pending URI handler entry). */
  dispose(): void;
}

export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** The redirect URI registered for this client, when it must be a specific one. */
  readonly redirectUri?: string;
}

export interface AuthUserAgent {
  /** Opens a channel for one authorization; `preferredRedirectUri` comes from a pre-registered client. */
  openChannel(server: AuthTarget, preferredRedirectUri?: string): Promise<AuthorizationChannel>;
  /**
   * Last step of client registration, when there is no pre-registered client, the authorization
   * server supports neither client ID metadata documents nor dynamic registration: ask the user
   * for a client registered by hand. `undefined` = cancelled.
   */
  askForClient?(server: AuthTarget, issuer: string): Promise<ClientCredentials | undefined>;
}

export interface AuthPort {
  readonly store: SecretStore;
  readonly userAgent: AuthUserAgent;
  /** Client metadata for registration (RFC 7591) and the metadata document; `redirect_uris` is added per flow. */
  readonly clientMetadata?: Partial<OAuthClientMetadata>;
  /**
   * HTTPS URL of this host's client ID metadata document (SEP-991). Used as the `client_id` when
   * the authorization server advertises `client_id_metadata_document_supported`.
   */
  clientMetadataUrl?(server: AuthTarget): string | undefined;
  /** A client registered in advance for this server (settings): first in the registration order. */
  preRegisteredClient?(server: AuthTarget): ClientCredentials | undefined | Promise<ClientCredentials | undefined>;
  /**
   * The authorization servers (origins) a sign-in may use, when a policy pins them (core/policy);
   * undefined: any. Checked on discovery and on a stored discovery, before any registration or token.
   */
  allowedAuthorizationServers?(): readonly string[] | undefined;
  /** Re-authorizations for more scopes per request after `403 insufficient_scope` (default 2). */
  readonly maxStepUps?: number;
}

/** The server needs a sign-in that was not allowed here (automatic start) or was not completed. */
export class SignInRequiredError extends Error {
  override readonly name = 'SignInRequiredError';
  constructor(message = 'needs sign-in', options?: { cause?: unknown }) { super(message, options); }
}

/** The user cancelled or declined the authorization. */
export class AuthorizationCancelledError extends SignInRequiredError {
  constructor(message = 'sign-in was cancelled') { super(message); }
}

/** The authorization itself failed (refused by the server, `state` mismatch, no PKCE, …); the message says why. */
export class AuthorizationError extends Error {
  override readonly name = 'AuthorizationError';
  constructor(message: string, options?: { cause?: unknown }) { super(message, options); }
}

/** A request needs scopes that the authorization server did not grant (after the allowed step-ups). */
export class InsufficientScopeError extends Error {
  override readonly name = 'InsufficientScopeError';
  constructor(readonly scope: string | undefined, message: string) { super(message); }
}

/**
 * A request met a sign-in that waits for the user (browser, consent). Thrown instead of waiting
 * inside the request, whose timeout is meant for the server, not for a person: the caller awaits
 * `authorization` and sends the request again.
 */
export class AuthorizationPendingError extends Error {
  override readonly name = 'AuthorizationPendingError';
  constructor(readonly authorization: Promise<void>) { super('waiting for the user to authorize'); }
}

export function findAuthorizationPending(err: unknown): AuthorizationPendingError | undefined {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof AuthorizationPendingError) return e;
  }
  return undefined;
}

/** The first authorization error in `err`'s cause chain (errors cross the SDK and our ServerError wrapping). */
export function findAuthError(err: unknown): SignInRequiredError | AuthorizationError | InsufficientScopeError | undefined {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof SignInRequiredError || e instanceof AuthorizationError || e instanceof InsufficientScopeError) return e;
  }
  return undefined;
}

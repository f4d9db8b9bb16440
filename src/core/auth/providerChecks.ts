/** The checks McpOAuthProvider applies to what an authorization server says and where it sends the user. */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { checkOpenableUrl } from '../safeUrl';
import type { StoredClient } from './storage';
import { AuthorizationCancelledError, AuthorizationError } from './types';

export function registeredFor(client: StoredClient, redirectUri: string): boolean {
  const uris = (client.info as { redirect_uris?: string[] }).redirect_uris;
  return !uris || uris.some(registered => sameRedirect(registered, redirectUri));
}

/** Exact match, except that loopback redirect URIs match on any port (RFC 8252 §7.3: servers must allow that). */
export function sameRedirect(registered: string, requested: string): boolean {
  if (registered === requested) return true;
  try {
    const a = new URL(registered), b = new URL(requested);
    const loopback = (u: URL) => u.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
    return loopback(a) && loopback(b) && a.hostname === b.hostname && a.pathname === b.pathname && a.search === b.search;
  } catch { return false; }
}

// An opaque origin ("null": `urn:x`, or `login.example:443` read as a scheme) is nobody's: it equals no other.
const originOf = (u: string) => { try { const o = new URL(u).origin.toLowerCase(); return o === 'null' ? undefined : o; } catch { return undefined; } };

/**
 * The 2025-03-26 endpoint fallback: a server that publishes neither protected resource metadata nor
 * authorization server metadata is its own authorization server, with `/authorize`, `/token` and
 * `/register` at its own origin (the SDK's defaults). Only then: an authorization server that a
 * server's metadata names, or one on another origin, without metadata of its own is refused.
 */
export function usesEndpointFallback(serverUrl: string, state: OAuthDiscoveryState | undefined): boolean {
  if (!state || state.authorizationServerMetadata || state.resourceMetadata) return false;
  const origin = originOf(serverUrl);
  return origin !== undefined && originOf(state.authorizationServerUrl) === origin;
}

/**
 * The authorization page is opened for an untrusted server: it must pass the safe-URL rule, and with
 * the endpoint fallback (`fallbackFor`: the server's URL) be on the server's own origin.
 */
export function checkAuthorizationPage(issuer: string, endpoint: string | undefined, fallbackFor?: string): void {
  if (endpoint === undefined) return;
  const checked = checkOpenableUrl(endpoint);
  if (!checked.ok) throw new AuthorizationError(`the authorization server ${issuer} sends the user to an authorization page MCP Host does not open: ${checked.reason}; refusing to sign in`);
  if (fallbackFor !== undefined && (originOf(endpoint) === undefined || originOf(endpoint) !== originOf(fallbackFor))) {
    throw new AuthorizationError(`the server publishes no authorization metadata, so its authorization page must be on its own origin ${originOf(fallbackFor) ?? fallbackFor}, not ${originOf(endpoint) ?? endpoint}; refusing to sign in`);
  }
}

/**
 * OAuth 2.1 + MCP: PKCE with S256 is required, and the client must verify the server supports it. The
 * 2025-03-26 endpoint fallback has no metadata to read it from; that spec requires PKCE of every server,
 * and the SDK sends S256.
 */
export function checkPkce(serverUrl: string, state: OAuthDiscoveryState | undefined): void {
  const issuer = state?.authorizationServerUrl ?? '?', metadata = state?.authorizationServerMetadata;
  if (!metadata) {
    if (usesEndpointFallback(serverUrl, state)) return;
    throw new AuthorizationError(`the authorization server ${issuer} publishes no metadata (RFC 8414 or OpenID discovery), so PKCE support cannot be verified; refusing to sign in`);
  }
  if (!metadata.code_challenge_methods_supported?.includes('S256')) {
    throw new AuthorizationError(`the authorization server ${issuer} does not list PKCE method S256 in code_challenge_methods_supported; refusing to sign in`);
  }
}

/**
 * The user agent's answer, or a cancellation as soon as the flow is abandoned (the server was stopped
 * while the person had not finished): a user agent that ignores the signal must not keep the session's
 * one authorization in flight, which every later sign-in of the server would join and wait on.
 */
export function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AuthorizationCancelledError('the sign-in was abandoned'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AuthorizationCancelledError('the sign-in was abandoned'));
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A policy that pins the authorization servers (`allowed`, origins) refuses any other, before anything is sent to it. */
export function checkPinned(issuer: string, allowed: readonly string[] | undefined): void {
  if (!allowed) return;
  if (!allowed.some(a => originOf(a) !== undefined && originOf(a) === originOf(issuer))) {
    throw new AuthorizationError(`refused by policy: the authorization server ${issuer} is not one of the allowed authorization servers (${allowed.join(', ') || 'none'})`);
  }
}

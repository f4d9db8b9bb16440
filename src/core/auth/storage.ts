/**
 * What OAuth keeps between sessions, as JSON in the embedder's {@link SecretStore}:
 * - discovery results per MCP server URL (so a restart refreshes tokens without re-discovering),
 * - tokens per MCP server URL *and* authorization server (issuer),
 * - client registrations per authorization server (one registration serves every server behind it).
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/client';
import type { SecretStore } from './types';

export interface StoredTokens {
  readonly tokens: OAuthTokens;
  /** Epoch ms when the access token expires (from `expires_in`), if the server said. */
  readonly expiresAt?: number;
  /** Scopes granted: the token response's `scope`, else the scopes requested (RFC 6749 §5.1). */
  readonly scope?: string;
}

/** How a client registration came about; decides whether it may be replaced by registering again. */
export type ClientKind = 'dynamic' | 'metadataDocument' | 'manual';

export interface StoredClient {
  readonly info: OAuthClientInformationMixed;
  readonly kind: ClientKind;
}

const PREFIX = 'mcpHost.oauth';

export function normalizeServerUrl(url: string | URL): string {
  const u = new URL(String(url));
  u.hash = '';
  return u.href;
}

/**
 * One key per authorization server: the SDK names an issuer with or without one trailing `/`
 * (RFC 8414 §3.3's one tolerance), and both must find the same client and tokens.
 */
function issuerKey(issuer: string): string {
  return issuer.endsWith('/') ? issuer.slice(0, -1) : issuer;
}

export class AuthStorage {
  constructor(private readonly store: SecretStore) {}

  private static key(kind: string, ...parts: string[]): string {
    return `${PREFIX}/${kind}/${parts.map(encodeURIComponent).join('/')}`;
  }

  private async read<T>(key: string): Promise<T | undefined> {
    const raw = await this.store.get(key);
    if (!raw) return undefined;
    try { return JSON.parse(raw) as T; } catch { return undefined; }
  }

  private async write(key: string, value: unknown): Promise<void> {
    if (value === undefined) await this.store.delete(key);
    else await this.store.store(key, JSON.stringify(value));
  }

  discovery(serverUrl: string): Promise<OAuthDiscoveryState | undefined> { return this.read(AuthStorage.key('discovery', serverUrl)); }
  saveDiscovery(serverUrl: string, state: OAuthDiscoveryState | undefined): Promise<void> { return this.write(AuthStorage.key('discovery', serverUrl), state); }

  tokens(serverUrl: string, issuer: string): Promise<StoredTokens | undefined> { return this.read(AuthStorage.key('tokens', serverUrl, issuerKey(issuer))); }
  saveTokens(serverUrl: string, issuer: string, tokens: StoredTokens | undefined): Promise<void> { return this.write(AuthStorage.key('tokens', serverUrl, issuerKey(issuer)), tokens); }

  client(issuer: string): Promise<StoredClient | undefined> { return this.read(AuthStorage.key('client', issuerKey(issuer))); }
  saveClient(issuer: string, client: StoredClient | undefined): Promise<void> { return this.write(AuthStorage.key('client', issuerKey(issuer)), client); }
}

/** OAuth settings (`mcpHost.oauth.*`): pre-registered clients, the client ID metadata document, the redirect. */
import type { AuthTarget, ClientCredentials } from '../../core';
import type { ScopedInputRequest } from '../inputs';
import { readSetting } from '../settingsReader';

export interface OAuthClientSetting {
  readonly clientId: string;
  /** A literal or `${input:id}` (kept in secret storage like every input). */
  readonly clientSecret?: string;
  readonly redirectUri?: string;
}

export interface OAuthSettings {
  /** Pre-registered clients by server name, server URL or server origin. */
  readonly clients: Readonly<Record<string, OAuthClientSetting>>;
  readonly clientMetadataUrl?: string;
  readonly redirect: 'auto' | 'loopback';
  readonly loopbackPort?: number;
}

export function readOAuthSettings(): OAuthSettings {
  const clients = readSetting<Record<string, OAuthClientSetting>>('oauth.clients') ?? {};
  const url = readSetting<unknown>('oauth.clientMetadataUrl');
  const port = readSetting<number>('oauth.loopbackPort');
  return {
    clients: typeof clients === 'object' && clients ? clients : {},
    clientMetadataUrl: typeof url === 'string' && url.trim() ? url.trim() : undefined,
    redirect: readSetting<string>('oauth.redirect') === 'loopback' ? 'loopback' : 'auto',
    loopbackPort: typeof port === 'number' && port > 0 && port < 65536 ? port : undefined,
  };
}

/** The pre-registered client for a server: by name first, then by exact URL, then by origin. */
export async function preRegisteredClient(server: AuthTarget, resolveInput: (request: ScopedInputRequest) => Promise<string | undefined>): Promise<ClientCredentials | undefined> {
  const { clients } = readOAuthSettings();
  let origin: string | undefined;
  try { origin = new URL(server.url).origin; } catch { /* keep undefined */ }
  const key = [server.name, server.url, origin].find(k => k !== undefined && clients[k] !== undefined);
  const entry = key === undefined ? undefined : clients[key];
  if (!entry || typeof entry.clientId !== 'string' || !entry.clientId) return undefined;
  let secret = entry.clientSecret;
  const input = secret && /^\$\{input:([^}]+)\}$/.exec(secret);
  // `mcpHost.oauth.clients` is an application (user) setting; the secret goes to this server's authorization server.
  if (input) {
    secret = await resolveInput({
      id: input[1], server: server.name, scope: 'user', field: `mcpHost.oauth.clients["${key}"].clientSecret`,
      ...(origin ? { target: { kind: 'origin', value: origin } } : {}),
    });
  }
  return { clientId: entry.clientId, ...(secret ? { clientSecret: secret } : {}), ...(entry.redirectUri ? { redirectUri: entry.redirectUri } : {}) };
}

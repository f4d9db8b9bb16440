/**
 * The DPoP key of one MCP server (RFC 9449): made once, kept in the embedder's secret store (VS Code's
 * SecretStorage) so tokens bound to it survive a restart, and used only as a non-extractable WebCrypto
 * key: nothing in the host can export it again, and it is never sent, logged or given to a process.
 * One key per server: a token bound for one server's key proves nothing at another.
 */
import { DpopSession, generateDpopKeyPair, type DpopKeyPair } from '@modelcontextprotocol/client';
import type { webcrypto } from 'node:crypto';
import type { Logger } from '../logger';
import type { SecretStore } from './types';

interface StoredKey {
  readonly alg: 'ES256';
  readonly privateJwk: webcrypto.JsonWebKey;
  readonly publicJwk: webcrypto.JsonWebKey;
  readonly thumbprint: string;
}

const ES256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

const keyName = (serverUrl: string) => `mcpHost.oauth/dpop/${encodeURIComponent(serverUrl)}`;

export async function loadDpopSession(store: SecretStore, serverUrl: string, logger: Logger): Promise<DpopSession> {
  let stored = parse(await store.get(keyName(serverUrl)));
  if (!stored) {
    // Extractable once, only to be written to the secret store; the session gets the re-imported, non-extractable key.
    const fresh = await generateDpopKeyPair({ alg: 'ES256', extractable: true });
    stored = { alg: 'ES256', privateJwk: await crypto.subtle.exportKey('jwk', fresh.privateKey), publicJwk: fresh.publicJwk as webcrypto.JsonWebKey, thumbprint: fresh.thumbprint };
    await store.store(keyName(serverUrl), JSON.stringify(stored));
    logger.info(`OAuth: made this server's DPoP key (thumbprint ${stored.thumbprint})`);
  }
  const keyPair: DpopKeyPair = {
    alg: stored.alg,
    privateKey: await crypto.subtle.importKey('jwk', stored.privateJwk, ES256, false, ['sign']),
    publicKey: await crypto.subtle.importKey('jwk', stored.publicJwk, ES256, true, ['verify']),
    publicJwk: stored.publicJwk as DpopKeyPair['publicJwk'],
    thumbprint: stored.thumbprint,
  };
  return DpopSession.create({ keyPair });
}

function parse(raw: string | undefined): StoredKey | undefined {
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<StoredKey>;
    return v.alg === 'ES256' && v.privateJwk && v.publicJwk && typeof v.thumbprint === 'string' ? v as StoredKey : undefined;
  } catch { return undefined; }
}

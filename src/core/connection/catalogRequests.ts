/**
 * A connection's catalogue and the requests of its loader: usable while the server is still starting
 * (catalogues are listed before `running`), answered from the response cache while fresh.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import type { ServerLimits } from '../budgets';
import { ServerCatalog } from '../catalog/serverCatalog';
import type { Logger } from '../logger';
import { plainText } from '../text/plainText';
import { fetchCatalogPage } from './clientSetup';
import { toServerError } from './errors';
import { withAuthRetry, type ResultSchema } from './requestPath';
import { throughCache, type CacheableMethod, type CacheContext, type ResponseCache } from './responseCache';
import type { ServerError } from './errors';

export interface CatalogRequestTarget {
  readonly name: string;
  readonly cache: ResponseCache;
  client(): Client | undefined;
  secrets(): readonly string[];
  timeoutMs(): number;
  closedReason(): string | undefined;
  url(): string | undefined;
  notRunning(method: string): ServerError;
}

/** The catalogue of one connection, listed through `t`; a tool it cannot offer is left out with a warning. */
export function connectionCatalog(t: CatalogRequestTarget, logger: Logger, debounceMs: number | undefined, limits: ServerLimits): ServerCatalog {
  return new ServerCatalog((k, c) => fetchCatalogPage((m, p, sc: ResultSchema) => listPage(t, m, p, sc), k, c,
    (tool, why) => logger.warn(plainText(`Tool "${tool}" left out: ${why}`, { singleLine: true, maxLength: 300 }))), logger, debounceMs, limits);
}

/** One page of a catalogue, from the response cache while fresh (keyed by its cursor). */
export function listPage<T>(t: CatalogRequestTarget, method: string, params: Record<string, unknown> | undefined, schema: ResultSchema): Promise<T> {
  const cursor = typeof params?.cursor === 'string' ? params.cursor : '';
  return throughCache(t.cache, method as CacheableMethod, cursor, cacheContext(t), () => requestDirect<T>(t, method, params, schema));
}

/**
 * Who asks, for the response cache; undefined on a 2025-era connection (no hints to honour). The
 * authorization context is a digest of every credential in play (OAuth tokens, `${input:…}`
 * secrets): a new token is a new context, where `"private"` results are not served.
 */
export function cacheContext(t: Pick<CatalogRequestTarget, 'client' | 'secrets'>): CacheContext | undefined {
  const client = t.client();
  if (!client || client.getProtocolEra() !== 'modern') return undefined;
  const info = client.getServerVersion();
  return {
    server: JSON.stringify([info?.name ?? '', info?.version ?? '']),
    auth: createHash('sha256').update(JSON.stringify(t.secrets())).digest('base64'),
  };
}

/** Like a request of the connection's, but usable while starting. */
async function requestDirect<T>(t: CatalogRequestTarget, method: string, params: Record<string, unknown> | undefined, schema: ResultSchema): Promise<T> {
  const client = t.client();
  if (!client) throw t.notRunning(method);
  const timeout = t.timeoutMs();
  try { return await withAuthRetry(() => client.request({ method, params } as never, schema, { timeout })) as T; }
  catch (e) { throw toServerError(t.name, method, e, t.closedReason(), t.url()); }
}

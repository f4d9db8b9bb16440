/**
 * The caching hints of protocol 2026-07-28 (server/utilities/caching): a list page or a
 * `resources/read` result that carries `ttlMs` is fresh for that long after it arrived, and a
 * fresh result is answered from here instead of asking the server again. We keep our own cache
 * rather than the SDK's (`Client.listTools()` & co.): the host lists page by page under its
 * catalogue budgets, and the SDK's store is bounded by entry count only (512 resource bodies of
 * up to 16 MB each).
 *
 * What a server cannot do with it: keep an entry longer than `maxCacheTtlMs`, make the cache hold
 * more than `maxCacheEntries` results or `maxCacheBytes` (least recently used go first; a result
 * larger than the whole budget is never kept), or have a `"private"` result served in another
 * authorization context (another token or `${input:…}` secret: spec "Caches MUST NOT be shared
 * across authorization contexts"). Entries are also tied to the server's identity (`serverInfo`):
 * a different server answering at the same place does not get the old answers.
 */
import type { ServerLimits } from '../budgets';
import type { ListMethod } from '../catalog/serverCatalog';

/** The methods whose results may carry caching hints (besides `server/discover`, which the SDK handles). */
export type CacheableMethod = ListMethod | 'resources/read';

/** Who is asking: entries are only served in the context they were stored for (see {@link ResponseCache}). */
export interface CacheContext {
  /** The server's identity (its `serverInfo`). */
  readonly server: string;
  /** A digest of the authorization context (tokens, secrets); `"private"` entries are bound to it. */
  readonly auth: string;
}

interface Entry {
  readonly json: string;
  readonly expiresAt: number;
  readonly server: string;
  /** Undefined for a `"public"` result: any authorization context of this server may have it. */
  readonly auth?: string;
}

export type CacheLimits = Pick<ServerLimits, 'maxCacheTtlMs' | 'maxCacheEntries' | 'maxCacheBytes'>;

export class ResponseCache {
  /** In least-recently-used order (a hit moves its entry to the end). */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Bumped by every invalidation: a result requested before it is not stored (it may predate the change). */
  private epoch = 0;

  constructor(private readonly limits: CacheLimits, private readonly now: () => number = Date.now) {}

  /** What {@link put} needs to tell whether an invalidation happened while the request was out. */
  begin(): number { return this.epoch; }

  /** A copy of the fresh result of `method` for `key` (the cursor or URI; `''` for a first page), if any. */
  get<T>(method: CacheableMethod, key: string, ctx: CacheContext): T | undefined {
    const k = cacheKey(method, key);
    const e = this.entries.get(k);
    if (!e) return undefined;
    if (e.server !== ctx.server || (e.auth !== undefined && e.auth !== ctx.auth) || !(this.now() < e.expiresAt)) {
      // Stale, or stored for another server or authorization context: it will not be served again.
      this.remove(k);
      return undefined;
    }
    this.entries.delete(k);
    this.entries.set(k, e);
    return JSON.parse(e.json) as T;
  }

  /**
   * Keeps `result` if it says it may be cached (`ttlMs` > 0, capped) and nothing was invalidated
   * since `begun` ({@link begin}, taken before the request was sent).
   */
  put(method: CacheableMethod, key: string, result: unknown, ctx: CacheContext, begun: number): void {
    const k = cacheKey(method, key);
    this.remove(k);
    if (begun !== this.epoch) return;
    const ttl = freshFor(result, this.limits.maxCacheTtlMs);
    if (ttl <= 0) return;
    const json = JSON.stringify(result);
    if (json.length > this.limits.maxCacheBytes) return;
    const isPublic = (result as { cacheScope?: unknown }).cacheScope === 'public';
    this.entries.set(k, { json, expiresAt: this.now() + ttl, server: ctx.server, ...(isPublic ? {} : { auth: ctx.auth }) });
    this.bytes += json.length;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.limits.maxCacheEntries && this.bytes <= this.limits.maxCacheBytes) break;
      this.remove(oldest);
    }
  }

  /** A change notification: every page of `method`'s list, or the one resource `key`, is stale now. */
  invalidate(method: CacheableMethod, key?: string): void {
    this.epoch++;
    if (key !== undefined) { this.remove(cacheKey(method, key)); return; }
    const prefix = cacheKey(method, '');
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.remove(k);
  }

  /** Something outside any cache key changed (a multi-round-trip retry went out): results in flight are not kept. */
  interrupt(): void { this.epoch++; }

  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.bytes = 0;
  }

  get size(): number { return this.entries.size; }

  private remove(k: string): void {
    const e = this.entries.get(k);
    if (!e) return;
    this.entries.delete(k);
    this.bytes -= e.json.length;
  }
}

function cacheKey(method: string, key: string): string { return `${method}\0${key}`; }

/**
 * How long a result may be served (ms): its `ttlMs`, capped at `max`. Absent, negative or not a
 * number: 0, immediately stale (spec: "If ttlMs is absent, clients SHOULD assume a default of 0").
 */
export function freshFor(result: unknown, max: number): number {
  const ttl = typeof result === 'object' && result !== null ? (result as { ttlMs?: unknown }).ttlMs : undefined;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? Math.min(ttl, max) : 0;
}

/**
 * `fetch`'s result through `cache`: a fresh cached one without a request, else the server's, kept
 * if its hints allow. `ctx` undefined (a 2025-era connection, whose results carry no hints): no cache.
 */
export async function throughCache<T>(cache: ResponseCache, method: CacheableMethod, key: string, ctx: CacheContext | undefined, fetch: () => Promise<T>): Promise<T> {
  if (!ctx) return fetch();
  const hit = cache.get<T>(method, key, ctx);
  if (hit !== undefined) return hit;
  const begun = cache.begin();
  const result = await fetch();
  cache.put(method, key, result, ctx, begun);
  return result;
}

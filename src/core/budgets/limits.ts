/**
 * What one server may make the shared extension host spend. Every value is per server; the
 * defaults are generous for real servers (server-everything, 5,000-tool catalogues, multi-MB
 * resources) and stop a hostile one long before it hurts the other extensions.
 */
export interface ServerLimits {
  /** Largest single JSON-RPC message (a stdio line, an HTTP JSON body or SSE event), in bytes. */
  readonly maxMessageBytes: number;
  /** Pages one catalogue listing (tools, resources, templates, prompts) may take. */
  readonly maxCatalogPages: number;
  /** Bytes (as JSON) one catalogue listing may hold, summed over its pages. */
  readonly maxCatalogBytes: number;
  /** Longest stderr or log line kept; the rest is cut and replaced by a marker. */
  readonly maxLogLineBytes: number;
  /** Log lines (stderr and `notifications/message`) per second; beyond, lines are dropped and counted. */
  readonly maxLogLinesPerSecond: number;
  /** Notifications handled per second (list_changed, progress, resource updates, log messages). */
  readonly maxNotificationsPerSecond: number;
  /** Notifications waiting when the rate is exceeded; beyond, they are dropped and counted. */
  readonly maxQueuedNotifications: number;
  /** Server→client requests (sampling, elicitation, roots, ping) handled per second. */
  readonly maxServerRequestsPerSecond: number;
  /** Server→client requests waiting; beyond, they are refused with an error. */
  readonly maxQueuedServerRequests: number;
  /** Longest a result is served from the response cache, whatever `ttlMs` the server gave (ms). */
  readonly maxCacheTtlMs: number;
  /** Results (list pages, resource reads) the response cache holds. */
  readonly maxCacheEntries: number;
  /** Characters (as JSON) the response cache holds; a larger result is not cached. */
  readonly maxCacheBytes: number;
}

export const defaultServerLimits: ServerLimits = Object.freeze({
  maxMessageBytes: 16 * 1024 * 1024,
  maxCatalogPages: 1_000,
  maxCatalogBytes: 32 * 1024 * 1024,
  maxLogLineBytes: 8 * 1024,
  maxLogLinesPerSecond: 500,
  maxNotificationsPerSecond: 500,
  maxQueuedNotifications: 1_000,
  maxServerRequestsPerSecond: 20,
  maxQueuedServerRequests: 50,
  // An hour: the spec's own examples go up to one; past that a stale answer costs more than a request.
  maxCacheTtlMs: 60 * 60 * 1000,
  maxCacheEntries: 256,
  maxCacheBytes: 8 * 1024 * 1024,
});

/** The defaults with an embedder's overrides; non-positive or non-finite overrides are ignored. */
export function resolveLimits(overrides?: Partial<ServerLimits>): ServerLimits {
  const out: Record<string, number> = { ...defaultServerLimits };
  for (const [k, v] of Object.entries(overrides ?? {})) {
    if (k in out && typeof v === 'number' && Number.isFinite(v) && v > 0) out[k] = v;
  }
  return Object.freeze(out as unknown as ServerLimits);
}

/** Thrown when a server exceeds one of its {@link ServerLimits}; the message is user-facing. */
export class BudgetExceededError extends Error {
  constructor(message: string, readonly limit: keyof ServerLimits) {
    super(message);
    this.name = 'BudgetExceededError';
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

/** Sliding one-minute window of sampling requests per server. */
export class RateLimiter {
  private readonly times = new Map<string, number[]>();

  constructor(private readonly windowMs = 60_000, private readonly now: () => number = Date.now) {}

  /**
   * Counts a request for `key` when fewer than `limit` were counted in the window and returns
   * `{ ok: true }`; otherwise `{ ok: false, retryAfterMs }`. `limit` 0 means unlimited.
   */
  take(key: string, limit: number): { ok: true } | { ok: false; retryAfterMs: number } {
    if (limit <= 0) return { ok: true };
    const now = this.now();
    const recent = (this.times.get(key) ?? []).filter(t => now - t < this.windowMs);
    if (recent.length >= limit) {
      this.times.set(key, recent);
      return { ok: false, retryAfterMs: this.windowMs - (now - recent[0]) };
    }
    recent.push(now);
    this.times.set(key, recent);
    return { ok: true };
  }

  reset(key?: string): void {
    if (key === undefined) this.times.clear();
    else this.times.delete(key);
  }
}

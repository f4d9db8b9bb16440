/**
 * When a server was last used and what still uses it: requests in flight (a tool call that runs as
 * a task counts until it ends), resource subscriptions, and holds (an open MCP App, an attached
 * debugger). `mcpHost.idleStop` stops only a server nothing uses (core/autostart).
 */
import type { IDisposable } from '../events';

export class UseTracker {
  private _lastUse = performance.now();
  private active = 0;
  private holds = 0;
  private readonly subscribed = new Set<string>();

  /** `performance.now()` of the last request, hold or release. */
  get lastUse(): number { return this._lastUse; }
  /** Something uses the server right now. */
  get busy(): boolean { return this.active > 0 || this.holds > 0 || this.subscribed.size > 0; }

  /** Counts `p` as in flight until it settles; returns `p` itself (no extra tick for the caller). */
  track<T>(p: Promise<T>): Promise<T> {
    this.active++;
    this._lastUse = performance.now();
    const done = () => { this.active--; this._lastUse = performance.now(); };
    p.then(done, done);
    return p;
  }

  /** Keeps the server in use until the returned disposable is disposed. */
  hold(): IDisposable {
    this.holds++;
    this._lastUse = performance.now();
    let held = true;
    return { dispose: () => { if (held) { held = false; this.holds--; this._lastUse = performance.now(); } } };
  }

  /** A resource subscription was made (`on`) or ended. */
  subscription(uri: string, on: boolean): void {
    if (on) this.subscribed.add(uri); else this.subscribed.delete(uri);
    this._lastUse = performance.now();
  }
}

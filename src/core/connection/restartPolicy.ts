/** Bounded automatic restarts with exponential backoff (VS Code's built-in host has none). */
export interface RestartOptions {
  /** Restarts allowed within `windowMs` before the server is left in `error`. */
  readonly maxRestarts: number;
  readonly windowMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

export const defaultRestartOptions: RestartOptions = { maxRestarts: 5, windowMs: 3 * 60_000, baseDelayMs: 1000, maxDelayMs: 30_000 };

export class RestartPolicy {
  private history: number[] = [];

  /** `options` may be a getter so an embedder's setting change applies to the next crash. */
  constructor(private readonly source: RestartOptions | (() => RestartOptions) = defaultRestartOptions, private readonly now: () => number = Date.now) {}

  get options(): RestartOptions { return typeof this.source === 'function' ? this.source() : this.source; }

  /** Delay before the next automatic restart, or `undefined` when the budget is spent. */
  next(): number | undefined {
    const t = this.now();
    this.history = this.history.filter(h => t - h < this.options.windowMs);
    if (this.history.length >= this.options.maxRestarts) return undefined;
    const delay = Math.min(this.options.baseDelayMs * 2 ** this.history.length, this.options.maxDelayMs);
    this.history.push(t);
    return delay;
  }

  get recentRestarts(): number { return this.history.length; }

  /** A manual start resets the budget. */
  reset(): void { this.history = []; }
}

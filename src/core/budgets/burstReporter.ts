import type { Logger } from '../logger';

/**
 * Counts what a limit dropped and says so once per burst: one warning when dropping starts and
 * one summary after a quiet second, never a line per dropped item (that would be a flood too).
 */
export class BurstReporter {
  private dropped = 0;
  private startedAt = 0;
  private lastDropAt = 0;
  private timer?: NodeJS.Timeout;

  /** `what`: plural noun ("log lines"); `limit`: the limit in words ("500 log lines per second"). */
  constructor(private readonly logger: Logger, private readonly what: string, private readonly limit: string, private readonly now: () => number = Date.now) {}

  /** Dropped in the current burst (0 when quiet). */
  get count(): number { return this.dropped; }

  drop(): void {
    const t = this.now();
    if (this.dropped === 0) {
      this.startedAt = t;
      this.logger.warn(`The server sends more than ${this.limit}; further ${this.what} are dropped until it slows down.`);
    }
    this.dropped++;
    this.lastDropAt = t;
    // One timer per burst, re-armed from itself: a clearTimeout/setTimeout per drop would cost the flood's rate.
    this.timer ??= setTimeout(() => this.check(), 1000);
  }

  private check(): void {
    this.timer = undefined;
    const quietFor = this.now() - this.lastDropAt;
    if (quietFor < 1000) { this.timer = setTimeout(() => this.check(), 1000 - quietFor); return; }
    this.flush();
  }

  private flush(): void {
    if (!this.dropped) return;
    const seconds = Math.max(1, Math.round((this.lastDropAt - this.startedAt) / 1000));
    this.logger.warn(`Dropped ${this.dropped} ${this.what} over ${seconds} s (limit: ${this.limit}).`);
    this.dropped = 0;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
  }
}

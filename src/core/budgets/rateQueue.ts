/**
 * A token bucket in front of a bounded FIFO queue. Items pass at once while the rate allows
 * (a burst of up to one second's worth), wait in the queue beyond it, and are dropped once the
 * queue is full. Memory is bounded by `maxQueued`; CPU by `perSecond`.
 */
import type { BurstReporter } from './burstReporter';

export interface RateQueueOptions<T> {
  readonly perSecond: number;
  readonly maxQueued: number;
  readonly deliver: (item: T) => void;
  /** An item that did not fit: refuse or forget it. */
  readonly drop: (item: T) => void;
  readonly reporter: BurstReporter;
  /** Items with the same key as one already waiting are redundant (e.g. list_changed) and skipped. */
  readonly coalesceKey?: (item: T) => string | undefined;
  /** True when the queue is full, false once it has drained to half: lets a transport stop reading. */
  readonly onPressure?: (full: boolean) => void;
  readonly now?: () => number;
}

export class RateQueue<T> {
  private tokens: number;
  private last: number;
  private items: (T | undefined)[] = [];
  private head = 0;
  private readonly keys = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private full = false;
  private readonly now: () => number;

  constructor(private readonly options: RateQueueOptions<T>) {
    this.now = options.now ?? Date.now;
    this.tokens = options.perSecond;
    this.last = this.now();
  }

  get length(): number { return this.items.length - this.head; }

  push(item: T): void {
    const key = this.options.coalesceKey?.(item);
    if (key !== undefined && this.keys.has(key)) return;
    if (this.length === 0 && this.take()) { this.options.deliver(item); return; }
    if (this.length >= this.options.maxQueued) {
      this.options.reporter.drop();
      this.options.drop(item);
      return;
    }
    this.items.push(item);
    if (key !== undefined) this.keys.set(key, (this.keys.get(key) ?? 0) + 1);
    if (!this.full && this.length >= this.options.maxQueued) { this.full = true; this.options.onPressure?.(true); }
    this.schedule();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.items = [];
    this.head = 0;
    this.keys.clear();
  }

  private take(): boolean {
    const t = this.now();
    this.tokens = Math.min(this.options.perSecond, this.tokens + (t - this.last) * this.options.perSecond / 1000);
    this.last = t;
    if (this.tokens < 1) return false;
    this.tokens--;
    return true;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(1, Math.ceil((1 - this.tokens) * 1000 / this.options.perSecond));
    this.timer = setTimeout(() => { this.timer = undefined; this.drain(); }, wait);
  }

  private drain(): void {
    while (this.length && this.take()) {
      const item = this.items[this.head] as T;
      this.items[this.head++] = undefined;
      const key = this.options.coalesceKey?.(item);
      if (key !== undefined) { const n = (this.keys.get(key) ?? 1) - 1; if (n) this.keys.set(key, n); else this.keys.delete(key); }
      this.options.deliver(item);
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) { this.items = this.items.slice(this.head); this.head = 0; }
    if (this.full && this.length <= this.options.maxQueued / 2) { this.full = false; this.options.onPressure?.(false); }
    if (this.length) this.schedule();
  }
}

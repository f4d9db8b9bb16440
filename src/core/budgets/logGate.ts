import { LogLevel, type Logger } from '../logger';
import type { BurstReporter } from './burstReporter';
import { truncateText } from './truncate';

/** Seconds' worth of lines a quiet server may write at once: a start-up dump of a few thousand lines is normal. */
export const LOG_BURST_SECONDS = 10;
/** Room for the prefix ("[stderr] ") and a cut marker the transport already added. */
const SLACK = 256;

/**
 * The logger for what a server writes (stderr, `notifications/message`, stray stdout): each line
 * cut to about `maxLineBytes` with a marker, and `perSecond` lines per second on average (a token
 * bucket holding {@link LOG_BURST_SECONDS} seconds' worth); the rest is dropped and counted by the
 * reporter. Lines below the channel's level cost nothing and count nothing.
 */
export class LogGate implements Logger {
  private tokens: number;
  private last: number;

  constructor(
    private readonly inner: Logger,
    private readonly maxLineBytes: number,
    private readonly perSecond: number,
    private readonly reporter: BurstReporter,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = perSecond * LOG_BURST_SECONDS;
    this.last = now();
  }

  get logLevel(): number | undefined { return this.inner.logLevel; }
  get onDidChangeLogLevel() { return this.inner.onDidChangeLogLevel; }

  trace(message: string): void { if (this.admit(LogLevel.Trace)) this.inner.trace(this.cut(message)); }
  debug(message: string): void { if (this.admit(LogLevel.Debug)) this.inner.debug(this.cut(message)); }
  info(message: string): void { if (this.admit(LogLevel.Info)) this.inner.info(this.cut(message)); }
  warn(message: string): void { if (this.admit(LogLevel.Warning)) this.inner.warn(this.cut(message)); }
  error(message: string | Error): void { if (this.admit(LogLevel.Error)) this.inner.error(this.cut(String(message))); }

  private cut(message: string): string { return truncateText(message, this.maxLineBytes + SLACK); }

  private admit(level: LogLevel): boolean {
    const current = this.inner.logLevel ?? LogLevel.Info;
    if (current === LogLevel.Off || level < current) return false;
    const t = this.now();
    this.tokens = Math.min(this.perSecond * LOG_BURST_SECONDS, this.tokens + (t - this.last) * this.perSecond / 1000);
    this.last = t;
    if (this.tokens >= 1) { this.tokens--; return true; }
    this.reporter.drop();
    return false;
  }
}

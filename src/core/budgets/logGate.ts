import { Emitter } from '../events';
import { logMcpMessage, LogLevel, type Logger, type McpLogLevel } from '../logger';
import { plainText } from '../text/plainText';
import type { BurstReporter } from './burstReporter';
import { truncateText } from './truncate';

/** Seconds' worth of lines a quiet server may write at once: a start-up dump of a few thousand lines is normal. */
export const LOG_BURST_SECONDS = 10;
/** Lines one log entry (a `notifications/message` of the server or of its app) may take; the rest is counted in a last line. */
export const MAX_LOG_ENTRY_LINES = 20;
/** Characters of one entry read at all (each line is cut further). */
const MAX_ENTRY_CHARS = 64 * 1024;
/** Room for the prefix ("[stderr] ") and a cut marker the transport already added. */
const SLACK = 256;

/**
 * The logger for what a server or its apps write (stderr, `notifications/message`, stray stdout, an
 * app's traffic and errors): one per server, so the server and its apps share one budget. Each message
 * is cleaned to one line (escapes, controls and invisible characters removed, line breaks joined) — a
 * line break in server text would start a line that reads as the host's own — and cut to about
 * `maxLineBytes` with a marker; `perSecond` lines per second on average (a token bucket holding
 * {@link LOG_BURST_SECONDS} seconds' worth) pass, the rest is dropped and counted by the reporter.
 * Lines below the channel's level cost nothing and count nothing.
 */
export class LogGate implements Logger {
  private tokens: number;
  private last: number;
  private admitted = 0;
  private readonly forwarded = new Emitter<{ readonly level: McpLogLevel; readonly line: string }>();
  /**
   * Each line of the server's own `notifications/message` that this gate let into the log (cleaned,
   * cut, within the rate): the gateway passes these on to its clients, so they are bounded as the log is.
   */
  readonly onDidForward = this.forwarded.event;

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

  trace(message: string): void { if (this.admit(LogLevel.Trace)) this.inner.trace(this.line(message)); }
  debug(message: string): void { if (this.admit(LogLevel.Debug)) this.inner.debug(this.line(message)); }
  info(message: string): void { if (this.admit(LogLevel.Info)) this.inner.info(this.line(message)); }
  warn(message: string): void { if (this.admit(LogLevel.Warning)) this.inner.warn(this.line(message)); }
  error(message: string | Error): void { if (this.admit(LogLevel.Error)) this.inner.error(this.line(String(message))); }

  /**
   * One log entry the server or its app wrote: each of its lines cleaned and logged on its own behind
   * `tag` (so every line says whose it is), each paying the budget, at most {@link MAX_LOG_ENTRY_LINES}.
   */
  entry(level: McpLogLevel, tag: string, text: string, forward = false): void {
    for (const line of logEntryLines(tag, text)) {
      const before = this.admitted;
      logMcpMessage(this, level, line);
      if (forward && this.admitted !== before) this.forwarded.fire({ level, line: this.line(line) });
    }
  }

  // Cut before cleaning: cleaning only removes characters, and a 16 MB line is never scanned whole.
  private line(message: string): string { return oneLine(truncateText(message, this.maxLineBytes + SLACK)); }

  private admit(level: LogLevel): boolean {
    const current = this.inner.logLevel ?? LogLevel.Info;
    if (current === LogLevel.Off || level < current) return false;
    const t = this.now();
    this.tokens = Math.min(this.perSecond * LOG_BURST_SECONDS, this.tokens + (t - this.last) * this.perSecond / 1000);
    this.last = t;
    if (this.tokens >= 1) { this.tokens--; this.admitted++; return true; }
    this.reporter.drop();
    return false;
  }
}

/** `text` cleaned to one line; the indentation of its first line stays (stack traces, tables). */
function oneLine(text: string): string {
  return plainText(text).replace(/\s*\n\s*/g, ' ').trimEnd();
}

/** The lines a log entry becomes: cleaned, blank lines left out, each behind `tag`, bounded. */
export function logEntryLines(tag: string, text: string): string[] {
  const all = plainText(text.slice(0, MAX_ENTRY_CHARS)).split('\n').map(l => l.trimEnd()).filter(l => l.trim());
  const lines = all.slice(0, MAX_LOG_ENTRY_LINES).map(l => `${tag}${l}`);
  if (all.length > MAX_LOG_ENTRY_LINES) lines.push(`${tag}… ${all.length - MAX_LOG_ENTRY_LINES} more lines left out`);
  return lines;
}

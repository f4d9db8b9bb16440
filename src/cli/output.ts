/**
 * Everything the CLI writes goes through here: results on stdout, progress and logs on stderr. Text
 * a server chose is cleaned (a tool description must not recolour or rewrite the terminal), and every
 * line is redacted with the values of `${input:…}` given this run and the credential shapes the one
 * redaction function knows, so a server echoing a secret does not put it in a CI log.
 */
import { LogLevel, plainText, redact, type Logger } from '../core';

export interface Writable { write(text: string): unknown }

export class Output {
  constructor(
    private readonly secrets: () => Iterable<string>,
    private readonly stdout: Writable,
    private readonly stderr: Writable,
    private readonly quiet = false,
  ) {}

  /** A result line (text mode); `text` may hold a server's words. */
  line(text = ''): void { this.stdout.write(`${this.clean(text)}\n`); }

  /** The result as JSON: escapes keep control characters inert, redaction still applies. */
  json(value: unknown): void { this.stdout.write(`${redact(JSON.stringify(value, null, 2), this.secrets())}\n`); }

  /** Progress for slow starts; off with `--quiet`. */
  progress(text: string): void { if (!this.quiet) this.stderr.write(`mcp-host: ${this.clean(text)}\n`); }

  /** Errors always reach stderr. */
  error(text: string): void { this.stderr.write(`mcp-host: ${this.clean(text)}\n`); }

  private clean(text: string): string { return redact(plainText(text), this.secrets()); }

  /** A server's log on stderr, tagged with its name; below `level` is dropped. */
  logger(server: string, level: LogLevel): Logger {
    const write = (at: LogLevel, tag: string) => (message: string | Error) => {
      if (at >= level) this.stderr.write(`[${this.clean(server)}] ${tag} ${this.clean(message instanceof Error ? message.message : String(message))}\n`);
    };
    return {
      trace: write(LogLevel.Trace, 'trace'),
      debug: write(LogLevel.Debug, 'debug'),
      info: write(LogLevel.Info, 'info'),
      warn: write(LogLevel.Warning, 'warn'),
      error: write(LogLevel.Error, 'error'),
      logLevel: level,
    };
  }
}

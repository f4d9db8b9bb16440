/**
 * Everything the CLI writes goes through here: results on stdout, progress and logs on stderr. Text
 * a server chose is cleaned (a tool description must not recolour or rewrite the terminal), and every
 * line is redacted with the values of `${input:…}` and `${env:…}` given this run, the user-info of
 * every URL (`postgres://user:password@…`) and the credential shapes the one redaction function
 * knows, so a server echoing a secret does not put it in a CI log.
 */
import { type Logger, LogLevel, plainText, redact, REDACTED } from '../core/light';
import { escapeJsonText } from './visible';

// scheme://user-info@ — the user-info ends at the first `@` before the host; `/`, `?`, `#`, quotes,
// whitespace or a backslash (a JSON escape) end the search, so `a://x/y@z` is a path, not user-info.
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'\\<>]+@/gi;

/** `text` with the user-info of every URL in it redacted. */
export const redactUrlUserInfo = (text: string) => text.replace(URL_USER_INFO, `$1${REDACTED}@`);

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

  /** The result as JSON: controls, bidi and other invisible characters as `\\u` escapes, redacted like text. */
  json(value: unknown): void { this.stdout.write(`${escapeJsonText(redactUrlUserInfo(redact(JSON.stringify(value, null, 2), this.secrets())))}\n`); }

  /** Progress for slow starts; off with `--quiet`. */
  progress(text: string): void { if (!this.quiet) this.stderr.write(this.prefixed('mcp-host: ', text)); }

  /** Errors always reach stderr. */
  error(text: string): void { this.stderr.write(this.prefixed('mcp-host: ', text)); }

  /** Each line behind `prefix`: a line break in a server's name or words cannot start a line that reads as another program's. */
  private prefixed(prefix: string, text: string): string {
    return this.clean(text).split('\n').map(l => `${prefix}${l}\n`).join('');
  }

  private clean(text: string): string { return redactUrlUserInfo(redact(plainText(text), this.secrets())); }

  /** A server's log on stderr, tagged with its name; below `level` is dropped. */
  logger(server: string, level: LogLevel): Logger {
    const write = (at: LogLevel, tag: string) => (message: string | Error) => {
      if (at >= level) this.stderr.write(this.prefixed(`[${plainText(server, { singleLine: true })}] ${tag} `, message instanceof Error ? message.message : String(message)));
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

/**
 * A one-shot CLI has no log to check: when a server does not start, its reason is usually the last
 * thing it wrote on stderr (`missing API_KEY`, `Invalid values: …`). The core logs each stderr line at
 * info level as `[stderr] <line>` (already redacted); this logger keeps each server's last lines,
 * whatever the level shown, so a failure message can carry them.
 */
import { LogLevel, type Logger } from '../core';

// The core's closing advice is for an editor, which has a log and a Start button; the CLI gives the reason instead.
const EDITOR_HINT = /\s*(?:Automatic restart is off; )?check the log and start it again\.$/i;

const STDERR = '[stderr] ';
const KEEP = 5;
const MAX_LINE = 300;

export class StderrTails {
  private readonly tails = new Map<string, string[]>();

  /** `inner` with stderr lines remembered; it asks for info lines so the core sends them, and shows what `inner` would. */
  wrap(server: string, inner: Logger): Logger {
    const keep = (message: string) => {
      if (!message.startsWith(STDERR)) return;
      const text = message.slice(STDERR.length).trim();
      if (!text) return;
      const line = text.length > MAX_LINE ? `${text.slice(0, MAX_LINE - 1)}…` : text;
      // A line seen already moves to the end: a server started twice (an era probe, then the start) repeats itself.
      const tail = (this.tails.get(server) ?? []).filter(l => l !== line);
      tail.push(line);
      if (tail.length > KEEP) tail.shift();
      this.tails.set(server, tail);
    };
    return {
      trace: m => inner.trace(m),
      debug: m => inner.debug(m),
      info: m => { keep(m); inner.info(m); },
      warn: m => inner.warn(m),
      error: m => inner.error(typeof m === 'string' ? withoutEditorHint(m) : m),
      logLevel: Math.min(inner.logLevel ?? LogLevel.Info, LogLevel.Info),
    };
  }

  /** The server's last stderr lines, oldest first. */
  of(server: string): readonly string[] { return this.tails.get(server) ?? []; }
}

const withoutEditorHint = (message: string) => message.replace(EDITOR_HINT, '');

/** Why a server is not running, in words a CLI user can act on: the state's message and the server's last stderr lines. */
export function failureText(message: string | undefined, state: string, stderr: readonly string[]): string {
  const base = withoutEditorHint(message ?? state);
  return stderr.length ? `${base}${/[.:]$/.test(base) ? '' : '.'} Its last stderr lines: ${stderr.join(' | ')}` : base;
}

/**
 * A one-shot CLI has no log to check: when a server does not start, its reason is usually the last
 * thing it wrote on stderr (`missing API_KEY`, `Invalid values: …`), which the core keeps, cleaned, as
 * `ServerConnection.stderrTail`; a failure message carries it.
 */
import type { Logger } from '../core';

// The core's closing advice is for an editor, which has a log and a Start button; the CLI gives the reason instead.
const EDITOR_HINT = /\s*(?:Automatic restart is off; )?check the log and start it again\.$/i;

/** `inner`, with the editor's advice left out of the errors it logs. */
export function cliLogger(inner: Logger): Logger {
  return {
    trace: m => inner.trace(m),
    debug: m => inner.debug(m),
    info: m => inner.info(m),
    warn: m => inner.warn(m),
    error: m => inner.error(typeof m === 'string' ? withoutEditorHint(m) : m),
    logLevel: inner.logLevel,
  };
}

const withoutEditorHint = (message: string) => message.replace(EDITOR_HINT, '');

/** Why a server is not running, in words a CLI user can act on: the state's message and the server's last stderr lines. */
export function failureText(message: string | undefined, state: string, stderr: readonly string[]): string {
  const base = withoutEditorHint(message ?? state);
  return stderr.length ? `${base}${/[.:]$/.test(base) ? '' : '.'} Its last stderr lines: ${stderr.join(' | ')}` : base;
}

/**
 * A logger that never throws into the lifecycle. VS Code closes a server's log channel while the
 * window closes, and a write then throws ("Channel has been closed"); a stop that logs must still end
 * its process, and a shutdown must still stop every server, whatever the logger does.
 */
import type { Logger } from '../logger';

export function safeLogger(inner: Logger): Logger {
  const guard = <A extends unknown[]>(write: (...args: A) => void) => (...args: A): void => {
    try { write.apply(inner, args); } catch { /* the log is gone; the work goes on */ }
  };
  return {
    trace: guard(inner.trace), debug: guard(inner.debug), info: guard(inner.info), warn: guard(inner.warn), error: guard(inner.error),
    get logLevel() { try { return inner.logLevel; } catch { return undefined; } },
    onDidChangeLogLevel: inner.onDidChangeLogLevel,
  };
}

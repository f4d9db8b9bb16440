/**
 * What an app writes to its server's log (`notifications/message` from the app, its traffic, its
 * errors) passes the same gate as what the server writes: one {@link ServerBudget} log gate per
 * server's apps (lines cut to the server's line limit, so many per second, the rest dropped and
 * counted once per burst). Every line is cleaned and logged as an entry of its own behind the
 * `MCP App` prefix, so a multi-line entry cannot print lines that read as the host's own.
 */
import { ServerBudget } from '../budgets/serverBudget';
import { logMcpMessage, type Logger, type McpLogLevel } from '../logger';
import { plainText } from '../text/plainText';

/** Lines one log entry of an app may take; the rest is counted in a last line. */
export const MAX_APP_LOG_ENTRY_LINES = 20;
/** Characters of one entry read at all (the gate cuts each line further). */
const MAX_ENTRY_CHARS = 64 * 1024;
const LEVELS: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** The lines an app's log entry becomes: cleaned, one per line, bounded, each naming the app and level. */
export function appLogLines(level: unknown, logger: unknown, data: unknown): { level: McpLogLevel; lines: string[] } {
  const lvl = LEVELS.includes(level as McpLogLevel) ? level as McpLogLevel : 'info';
  let text: string;
  try { text = typeof data === 'string' ? data : JSON.stringify(data) ?? String(data); } catch { text = String(data); }
  const source = typeof logger === 'string' && logger ? ` [${plainText(logger, { singleLine: true, maxLength: 60 })}]` : '';
  const all = plainText(text.slice(0, MAX_ENTRY_CHARS)).split('\n').map(l => l.trimEnd()).filter(Boolean);
  const lines = all.slice(0, MAX_APP_LOG_ENTRY_LINES).map(l => `MCP App [${lvl}]${source}: ${l}`);
  if (all.length > MAX_APP_LOG_ENTRY_LINES) lines.push(`MCP App [${lvl}]${source}: … ${all.length - MAX_APP_LOG_ENTRY_LINES} more lines left out`);
  return { level: lvl, lines };
}

/** The gated log of one server's apps; dispose it with the server. */
export class AppLog {
  private readonly budget: ServerBudget;
  /**
   * Cut and rate-limited like the server's own lines, and each message cleaned to one line: the
   * callers put app-chosen text in it (a JSON-RPC method or id in the traffic, an error's message, a
   * refused URI), and a line break there would start a line that reads as the host's own.
   */
  readonly gated: Logger;

  constructor(logger: Logger) {
    this.budget = new ServerBudget(logger);
    const gate = this.budget.serverLog;
    const line = (m: string | Error) => plainText(String(m).slice(0, MAX_ENTRY_CHARS), { singleLine: true });
    this.gated = {
      get logLevel() { return gate.logLevel; },
      get onDidChangeLogLevel() { return gate.onDidChangeLogLevel; },
      trace: m => gate.trace(line(m)),
      debug: m => gate.debug(line(m)),
      info: m => gate.info(line(m)),
      warn: m => gate.warn(line(m)),
      error: m => gate.error(line(m)),
    };
  }

  /** An app's `notifications/message`. */
  entry(level: unknown, logger: unknown, data: unknown): void {
    const entry = appLogLines(level, logger, data);
    for (const line of entry.lines) logMcpMessage(this.gated, entry.level, line);
  }

  dispose(): void { this.budget.dispose(); }
}

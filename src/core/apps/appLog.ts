/**
 * What an app writes to its server's log (`notifications/message` from the app, its traffic, its
 * errors) goes into its server's own log gate ({@link LogGate}): the same budget object the server's
 * stderr and log notifications pay from, so a server and its apps together write no more than the
 * server alone may, and the same cleaning. Each line of an app's entry is logged behind the `MCP App`
 * prefix, so a multi-line entry cannot print lines that read as the host's own.
 */
import type { LogGate } from '../budgets/logGate';
import { nullLogger, type Logger, type McpLogLevel } from '../logger';
import { plainText } from '../text/plainText';

const LEVELS: readonly McpLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
/** Characters of an entry's data turned into text at all (the gate reads at most 64 K of it). */
const MAX_DATA_CHARS = 64 * 1024;

/** An app's `notifications/message` as the level, the prefix of each of its lines and its text. */
export function appLogEntry(level: unknown, logger: unknown, data: unknown): { level: McpLogLevel; tag: string; text: string } {
  const lvl = LEVELS.includes(level as McpLogLevel) ? level as McpLogLevel : 'info';
  let text: string;
  try { text = typeof data === 'string' ? data : JSON.stringify(data) ?? String(data); } catch { text = String(data); }
  const source = typeof logger === 'string' && logger ? ` [${plainText(logger, { singleLine: true, maxLength: 60 })}]` : '';
  return { level: lvl, tag: `MCP App [${lvl}]${source}: `, text: text.slice(0, MAX_DATA_CHARS) };
}

/** The log of one server's apps: its server's gate, looked up at each line (the host may replace the connection). */
export class AppLog {
  constructor(private readonly serverLog: () => LogGate | undefined) {}

  /** For lines the host writes about the app (traffic, errors, refusals): the gate cleans each to one line. */
  get gated(): Logger { return this.serverLog() ?? nullLogger; }

  /** An app's `notifications/message`. */
  entry(level: unknown, logger: unknown, data: unknown): void {
    const { level: lvl, tag, text } = appLogEntry(level, logger, data);
    this.serverLog()?.entry(lvl, tag, text);
  }
}

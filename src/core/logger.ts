/**
 * The logging port. `vscode.LogOutputChannel` satisfies it as is, so the extension passes one
 * channel per server. `logLevel` uses VS Code's numbering (see {@link LogLevel}).
 */
import type { Event } from './events';

export enum LogLevel { Off = 0, Trace = 1, Debug = 2, Info = 3, Warning = 4, Error = 5 }

export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string | Error, ...args: unknown[]): void;
  /** Current level in {@link LogLevel} numbering (plain numbers so `vscode.LogLevel` fits); absent = Info. */
  readonly logLevel?: number;
  readonly onDidChangeLogLevel?: Event<number>;
}

export const nullLogger: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** MCP (syslog) level → our logger method. */
export function logMcpMessage(logger: Logger, level: McpLogLevel, text: string): void {
  switch (level) {
    case 'debug': return logger.debug(text);
    case 'info': case 'notice': return logger.info(text);
    case 'warning': return logger.warn(text);
    default: return logger.error(text);
  }
}

/** Our log level → the lowest MCP level the server should send (`logging/setLevel`). */
export function toMcpLevel(level: number | undefined): McpLogLevel {
  switch (level ?? LogLevel.Info) {
    case LogLevel.Trace: case LogLevel.Debug: return 'debug';
    case LogLevel.Info: return 'info';
    case LogLevel.Warning: return 'warning';
    default: return 'error';
  }
}

export { redact, redactValue } from './redact';

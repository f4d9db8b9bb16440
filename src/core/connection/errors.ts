import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** An error that names the server it came from, so a user reading it knows where to look. */
export class ServerError extends Error {
  constructor(readonly server: string, message: string, readonly code?: number, options?: { cause?: unknown }) {
    super(`${server}: ${message}`, options);
    this.name = 'ServerError';
  }
}

/** "300 ms", "1.5 s", "60 s": a duration as a person reads it. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  return `${s < 10 ? Math.round(s * 10) / 10 : Math.round(s)} s`;
}

export function describeExit(exit: { code: number | null; signal: string | null } | undefined): string {
  if (!exit) return 'the connection closed';
  if (exit.signal) return `the process was killed by ${exit.signal}`;
  return `the process exited with code ${exit.code}`;
}

/** Maps SDK errors from a request into {@link ServerError}s that say what happened in user terms. */
export function toServerError(server: string, method: string, err: unknown, closedReason?: string): ServerError {
  if (err instanceof ServerError) return err;
  if (err instanceof McpError) {
    switch (err.code) {
      case ErrorCode.ConnectionClosed:
        return new ServerError(server, `${method} failed: ${closedReason ?? 'the connection closed'} before the server answered`, err.code, { cause: err });
      case ErrorCode.RequestTimeout: {
        // The SDK reports an abort as RequestTimeout too; only its own timer puts the timeout in `data`.
        const timeout = (err.data as { timeout?: number } | undefined)?.timeout;
        return timeout === undefined
          ? new ServerError(server, `${method} was cancelled`, err.code, { cause: err })
          : new ServerError(server, `${method} timed out after ${formatDuration(timeout)}; the request was cancelled`, err.code, { cause: err });
      }
      default:
        return new ServerError(server, `${method} failed: ${err.message.replace(/^MCP error -?\d+: /, '')}`, err.code, { cause: err });
    }
  }
  if (err instanceof Error && err.name === 'AbortError') return new ServerError(server, `${method} was cancelled`, ErrorCode.RequestTimeout, { cause: err });
  const msg = err instanceof Error ? err.message : String(err);
  return new ServerError(server, `${method} failed: ${msg}`, undefined, { cause: err });
}

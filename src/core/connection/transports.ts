/** Builds the transport for a resolved declaration; stdio output goes to the server's logger. */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SSEClientTransport } from '@modelcontextprotocol/client';
import type { FetchLike, Transport } from '@modelcontextprotocol/client';
import type { ResolvedLaunch } from '../config/types';
import { redact, type Logger } from '../logger';
import { StdioTransport, type ProcessWarden, type StdioLaunch } from './stdioTransport';
import type { StartedProcess } from './earlyProcesses';
import { defaultServerLimits, limitedFetch, type ServerLimits } from '../budgets';
import { describeOversized } from '../budgets/oversized';
import { isSocketUrl, socketEndpoint, transportUrlOf } from '../config/socketUrl';
import { socketFetch } from './socketFetch';

/**
 * `logger` receives what the server writes: pass a budget's gated logger (lines cut, rate-limited).
 * `adopt` hands over a process already started for this launch (see StdioTransport).
 */
export function createStdioTransport(launch: Extract<ResolvedLaunch, { type: 'stdio' }>, logger: Logger, secrets: readonly string[], limits: ServerLimits = defaultServerLimits, adopt?: (launch: StdioLaunch) => StartedProcess | undefined, warden?: () => ProcessWarden): StdioTransport {
  const stdio: StdioLaunch = { command: launch.command, args: launch.args, env: { ...launch.env }, cwd: launch.cwd };
  const t = new StdioTransport(stdio, limits, adopt && (() => adopt(stdio)), warden);
  // stderr is the server's own log output, not an error (many servers log everything there).
  t.onstderr = line => logger.info(`[stderr] ${redact(line, secrets)}`);
  t.onnoise = line => logger.warn(`[stdout] ignored a line that is not JSON-RPC: ${redact(line.length > 500 ? line.slice(0, 500) + '…' : line, secrets)}`);
  t.onoversized = line => logger.warn(`[stdout] ${describeOversized(line.bytes, limits.maxMessageBytes)}; dropped it unread: ${redact(line.head.slice(0, 200), secrets)}…`);
  return t;
}

/** `fetch` (an OAuth session's) adds the access token and handles 401/403 for every request of the transport. */
export function createHttpTransport(kind: 'http' | 'sse', url: URL, headers: Readonly<Record<string, string>>, fetch?: FetchLike, limits: ServerLimits = defaultServerLimits): Transport {
  const requestInit: RequestInit = { headers: { ...headers } };
  if (isSocketUrl(url)) {
    // unix:///path.sock#/mcp: every request goes over the socket (checked when the launch was resolved).
    const endpoint = socketEndpoint(url.href);
    fetch = socketFetch(endpoint.socketPath);
    url = transportUrlOf(endpoint);
  }
  fetch = limitedFetch(fetch ?? globalThis.fetch, limits.maxMessageBytes);
  return kind === 'http'
    ? new StreamableHTTPClientTransport(url, { requestInit, fetch })
    // The SSE transport adds requestInit's headers to its EventSource requests too.
    : new SSEClientTransport(url, { requestInit, fetch });
}

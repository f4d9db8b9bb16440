/**
 * Keep-alive without lost calls. A client that sends many calls at once (VS Code's chat, a terminal
 * agent: 1,000 in the benchmark) opens a connection per call in flight and puts each back in its pool
 * when the answer has been read. node:http closes an idle connection after `keepAliveTimeout` (5 s)
 * counted from when it *wrote* the answer, and tells the client `Keep-Alive: timeout=5`; undici (VS
 * Code's fetch) keeps it one second less, counted from when it *read* the answer. When the client's
 * event loop is a second behind (a loaded extension host), it sends its next call on a connection the
 * gateway is closing at that moment: the call fails with ECONNRESET and is lost (a POST is not
 * retried). Clients that ignore the hint keep idle connections longer still (hyper, Go: 90 s).
 *
 * So the gateway advertises the usual 5 s and keeps an idle connection for 120 s: a client that keeps
 * to the hint closes it long before we do, one that lags or ignores the hint finds it still open. An
 * idle connection costs a socket; the gateway is 127.0.0.1 only and every request is still
 * authenticated, and a refused request closes its connection (`sendRefusal`). The listen backlog holds a burst of connections at once (node's default is 511).
 */
import type { Server as HttpServer, ServerResponse } from 'node:http';

export const ADVERTISED_KEEP_ALIVE_S = 5;
export const IDLE_CONNECTION_MS = 120_000;
export const LISTEN_BACKLOG = 4096;

export function holdIdleConnections(http: HttpServer): void {
  http.keepAliveTimeout = IDLE_CONNECTION_MS;
}

/** The headers of an answer that keeps its connection: ours, so node does not advertise its own timeout. */
export function keepAliveHeaders(res: ServerResponse): Record<string, string> {
  return res.shouldKeepAlive ? { connection: 'keep-alive', 'keep-alive': `timeout=${ADVERTISED_KEEP_ALIVE_S}` } : {};
}

/**
 * A `fetch` for the SDK's HTTP transports that talks to one local socket (a unix socket or a Windows
 * named pipe) with node:http. Whatever host the request URL names, it goes to `socketPath` and
 * nowhere else (a legacy SSE endpoint event or a redirect cannot send it to the network); redirects
 * are not followed. The response body streams (SSE: the POST's answer and the GET stream), and
 * aborting the request or cancelling the body ends the request on the socket.
 */
import * as http from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/client';

/** Statuses whose Response may not have a body (Fetch standard). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function bodyBytes(body: RequestInit['body']): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return body.toString();
  throw new TypeError('a socket request body must be text or bytes');
}

/** What went wrong on the socket, in words; the code stays on the error for the callers that read it. */
function socketError(e: NodeJS.ErrnoException, socketPath: string): Error {
  const why = e.code === 'ENOENT' ? `no socket at ${socketPath}: is the server running?`
    : e.code === 'ECONNREFUSED' ? `connection refused: nothing is listening on ${socketPath}`
      : e.code === 'EACCES' ? `permission denied on the socket ${socketPath}`
        : `the request over ${socketPath} failed (${e.code ?? e.message})`;
  return Object.assign(new Error(why, { cause: e }), { code: e.code });
}

export function socketFetch(socketPath: string): FetchLike {
  return (input, init) => new Promise<Response>((resolve, reject) => {
    const url = new URL(String(input));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => { headers[key] = value; });
    headers.host = 'localhost';
    let body: string | Uint8Array | undefined;
    try { body = bodyBytes(init?.body); } catch (e) { reject(e as Error); return; }
    if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) { reject(signal.reason ?? new DOMException('aborted', 'AbortError')); return; }
    const req = http.request({ socketPath, method: init?.method ?? 'GET', path: `${url.pathname}${url.search}`, headers, signal });
    req.once('error', e => reject(e.name === 'AbortError' ? e : socketError(e as NodeJS.ErrnoException, socketPath)));
    req.once('response', res => {
      const status = res.statusCode ?? 500;
      if (status < 200 || status > 599) { res.destroy(); reject(new Error(`the server on ${socketPath} answered with HTTP status ${status}`)); return; }
      const out = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      if (NULL_BODY.has(status) || init?.method === 'HEAD') { res.resume(); resolve(new Response(null, { status, statusText: res.statusMessage, headers: out })); return; }
      const stream = Readable.toWeb(res) as ReadableStream<Uint8Array>;
      const response = new Response(stream, { status, statusText: res.statusMessage, headers: out });
      Object.defineProperty(response, 'url', { value: url.href });
      resolve(response);
    });
    req.end(body);
  });
}

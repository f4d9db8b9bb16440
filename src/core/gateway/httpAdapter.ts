/**
 * node:http ↔ web-standard Request/Response, what the SDK's HTTP serving entries take and return.
 * The request body is counted as it arrives: a body without Content-Length that grows past the bound
 * is refused instead of filling memory. The response body is pumped until the client goes
 * away; then the request's signal aborts, which ends the SDK's SSE streams for that request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { keepAliveHeaders } from './keepAlive';

/** A POST's body, read once: its text, and its JSON when it parses (the SDK then parses nothing again). */
export interface ReadBody { readonly text: string; readonly json?: { readonly value: unknown } }

/**
 * Reads a request body whole, bounded: undefined when it grows past `maxBodyBytes` (the connection is
 * then destroyed: the rest of the body is never read). MCP messages are small; reading once here spares
 * the SDK a clone of the request's stream to classify it and a second read to serve it.
 */
export function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<ReadBody | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBodyBytes) { req.pause(); resolve(undefined); return; }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (seen > maxBodyBytes) return;
      const text = Buffer.concat(chunks, seen).toString('utf8');
      try { resolve({ text, json: { value: JSON.parse(text) as unknown } }); } catch { resolve({ text }); }
    });
    req.on('error', reject);
  });
}

/** The web-standard request of `req`, with its body as `readBody` read it (none for GET and HEAD). */
export function toWebRequest(req: IncomingMessage, origin: string, signal: AbortSignal, body?: string): Request {
  return new Request(new URL(req.url ?? '/', origin), { method: req.method ?? 'GET', headers: webHeaders(req), signal, ...(body !== undefined ? { body } : {}) });
}

function webHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = keepAliveHeaders(res);
  response.headers.forEach((value, name) => {
    // The gateway never sends CORS headers, whatever a layer below added.
    if (name.startsWith('access-control-') || name === 'connection' || name === 'keep-alive') return;
    const prev = headers[name];
    headers[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
  });
  res.writeHead(response.status, headers);
  if (!response.body) { res.end(); return; }
  const reader = response.body.getReader();
  const stop = () => { void reader.cancel().catch(() => undefined); };
  res.on('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>(resolve => { res.once('drain', resolve); res.once('close', resolve); });
      if (res.destroyed) break;
    }
  } catch { /* the client went away, or the stream was cancelled */ }
  finally {
    res.off('close', stop);
    res.end();
  }
}

/**
 * A refusal (no credentials, a web page, a body too large, a closed gateway) closes its connection:
 * the 120 s idle hold is for clients' calls, and a prober or a page must not keep sockets open with
 * it — nor send a second request on a connection whose first body the gateway did not read.
 */
export function sendRefusal(res: ServerResponse, status: number, message: string): void {
  res.shouldKeepAlive = false;
  res.writeHead(status, { connection: 'close', 'content-type': 'text/plain; charset=utf-8' });
  res.end(message);
}

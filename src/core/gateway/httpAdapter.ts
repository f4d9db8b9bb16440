/**
 * node:http ↔ web-standard Request/Response, what the SDK's HTTP serving entries take and return.
 * The request body is counted as it streams: a body without Content-Length that grows past the bound
 * fails the request instead of filling memory. The response body is pumped until the client goes
 * away; then the request's signal aborts, which ends the SDK's SSE streams for that request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { keepAliveHeaders } from './keepAlive';

export function toWebRequest(req: IncomingMessage, origin: string, signal: AbortSignal, maxBodyBytes: number): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal };
  if (method !== 'GET' && method !== 'HEAD') {
    let seen = 0;
    init.body = new ReadableStream<Uint8Array>({
      start(controller) {
        req.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > maxBodyBytes) { controller.error(new Error('Request body too large.')); req.destroy(); return; }
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length));
        });
        req.on('end', () => { try { controller.close(); } catch { /* already errored */ } });
        req.on('error', e => { try { controller.error(e); } catch { /* already closed */ } });
      },
    });
    init.duplex = 'half';
  }
  return new Request(new URL(req.url ?? '/', origin), init);
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

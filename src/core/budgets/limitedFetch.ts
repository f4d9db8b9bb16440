/**
 * `fetch` for the HTTP transports with the one-message budget: a JSON body may not pass
 * `maxBytes`, and on an SSE stream no single event may (the stream itself lives as long as the
 * session). Past the limit the body is cut: a JSON body fails to parse with the reason; an SSE
 * stream gets, for each request id of the POST it answers, an error response saying why, then ends,
 * so the call fails at once instead of at its timeout.
 */
import type { FetchLike } from '@modelcontextprotocol/client';
import { MESSAGE_TOO_LARGE, describeOversized } from './oversized';

export function limitedFetch(fetch: FetchLike, maxBytes: number): FetchLike {
  return async (url, init) => {
    const res = await fetch(url, init);
    if (!res.body) return res;
    const sse = (res.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    let lastByte = 0;
    const limit = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        if (sse) {
          // Bytes since the last blank line, i.e. the event being received.
          const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          const end = Math.max(b.lastIndexOf('\n\n'), b.lastIndexOf('\n\r\n'));
          if (end >= 0) size = b.length - end;
          else if (lastByte === 10 && (b[0] === 10 || (b[0] === 13 && b[1] === 10))) size = b.length;
          else size += b.length;
          if (b.length) lastByte = b[b.length - 1];
        } else size += chunk.byteLength;
        if (size <= maxBytes) { ctl.enqueue(chunk); return; }
        const message = describeOversized(undefined, maxBytes);
        if (!sse) { ctl.error(new Error(message)); return; }
        const ids = requestIds(init?.body);
        const events = ids.map(id => `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: MESSAGE_TOO_LARGE, message } })}\n\n`).join('');
        ctl.enqueue(new TextEncoder().encode(`\n\n${events}`));
        ctl.terminate();
      },
    });
    const limited = new Response(res.body.pipeThrough(limit), { status: res.status, statusText: res.statusText, headers: res.headers });
    Object.defineProperty(limited, 'url', { value: res.url });
    return limited;
  };
}

/** The ids of the JSON-RPC requests in a POST body we sent (a message or a batch). */
function requestIds(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    return (Array.isArray(parsed) ? parsed : [parsed])
      .filter((m): m is { id: string | number; method: string } => !!m && typeof m === 'object' && 'method' in m && 'id' in m)
      .map(m => m.id);
  } catch { return []; }
}

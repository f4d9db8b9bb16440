/**
 * What every request to the gateway must pass before any MCP is read: the gateway is nobody
 * else's door. A browser always sends `Origin` on the requests a web page can make with a body (and
 * on every cross-origin fetch), so any `Origin` is refused: no web page, even one served from
 * localhost, talks to the gateway, and no CORS header is ever sent, so a preflight never succeeds. A
 * `Host` other than our own address is a DNS-rebinding attempt. Bodies are bounded before reading.
 */
import type { IncomingMessage } from 'node:http';

export interface Refusal { readonly status: number; readonly message: string }

export function refuseRequest(req: IncomingMessage, port: number, maxBodyBytes: number): Refusal | undefined {
  if (req.headers.origin !== undefined) return { status: 403, message: 'Requests from web pages are refused.' };
  const host = req.headers.host;
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return { status: 421, message: 'Unexpected Host header.' };
  if (req.method === 'OPTIONS') return { status: 405, message: 'Method not allowed.' };
  const length = req.headers['content-length'];
  if (length !== undefined && !(Number(length) <= maxBodyBytes)) return { status: 413, message: 'Request body too large.' };
  return undefined;
}

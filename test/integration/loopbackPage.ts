/**
 * A page on this machine for the links a server asks us to open (http to loopback is allowed, and VS
 * Code opens it without its trusted-domain prompt). The browser of the test run really loads it, so a
 * test sees what was opened from the requests the page received — no opener is replaced.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackPage {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** Path and query of every request received, in order. */
  readonly hits: string[];
  close(): Promise<void>;
}

export async function startLoopbackPage(): Promise<LoopbackPage> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    if (req.url !== '/favicon.ico') hits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Signed in</title><p>You can close this page.</p>');
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>(resolve => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/**
 * Loopback redirect (RFC 8252 §7.3): a one-shot HTTP listener on 127.0.0.1 that receives the
 * authorization response when the UriHandler route is not used. Authorization servers must accept
 * any port for loopback redirect URIs, so the port is free unless a pre-registered client fixes it.
 */
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackListener {
  readonly redirectUri: string;
  /** Resolves with the first request to the callback path that carries `state`. */
  waitFor(state: string): Promise<URL>;
  close(): void;
}

const PAGE = (title: string, body: string) => `<!doctype html><meta charset="utf-8"><title>${title}</title>
<body style="font-family: system-ui, sans-serif; margin: 3em; color: #333"><h2>${title}</h2><p>${body}</p></body>`;

export async function openLoopback(preferred?: URL): Promise<LoopbackListener> {
  const host = preferred?.hostname === 'localhost' ? 'localhost' : '127.0.0.1';
  const path = preferred?.pathname && preferred.pathname !== '/' ? preferred.pathname : '/callback';
  const waiting = new Map<string, (url: URL) => void>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${host}`);
    const resolve = url.pathname === path ? waiting.get(url.searchParams.get('state') ?? '') : undefined;
    if (!resolve) {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE('Not found', 'This address only receives sign-in responses for MCP Host.'));
      return;
    }
    const failed = url.searchParams.get('error');
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(failed
      ? PAGE('Sign-in failed', 'The authorization server refused the sign-in. Return to VS Code for details.')
      : PAGE('Signed in', 'You can close this tab and return to VS Code.'));
    resolve(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(preferred?.port || 0), host, () => { server.off('error', reject); resolve(); });
  });
  const port = (server.address() as AddressInfo).port;
  const redirectUri = `http://${host}:${port}${path}`;
  return {
    redirectUri,
    waitFor: state => new Promise<URL>(resolve => {
      waiting.set(state, url => { waiting.delete(state); resolve(new URL(url.pathname + url.search, redirectUri)); });
    }),
    close: () => { server.close(); server.closeAllConnections?.(); },
  };
}

/**
 * A one-shot local page that redirects to `target`. `vscode.env.openExternal` re-encodes the query
 * of the URL it opens (a `%26` or `%3F` inside a parameter does not survive), which breaks an
 * authorization URL whose `redirect_uri` has a query of its own (the web workbench's callback
 * URL). Opening this launcher instead hands the browser the authorization URL byte for byte.
 */
export async function openLauncher(target: URL): Promise<{ readonly url: string; close(): void }> {
  const path = `/mcp-host/authorize/${randomBytes(16).toString('hex')}`;
  const server = http.createServer((req, res) => {
    if (req.url !== path) { res.writeHead(404).end(); return; }
    res.writeHead(302, { Location: target.href, 'Cache-Control': 'no-store' }).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    close: () => { server.close(); server.closeAllConnections?.(); },
  };
}

/** True when opening `url` through `vscode.env.openExternal` would change it (see {@link openLauncher}). */
export function needsLauncher(url: URL): boolean {
  return [...url.searchParams.values()].some(v => /[?&=#%]/.test(v));
}

export function isLoopback(uri: string): boolean {
  try {
    const u = new URL(uri);
    return u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]');
  } catch { return false; }
}

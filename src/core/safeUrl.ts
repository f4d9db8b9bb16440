/**
 * The one rule for every URL MCP Host opens on behalf of a server (an OAuth authorization page, a
 * URL elicitation, later links from apps): `https:` anywhere, `http:` only to this machine, nothing
 * else. A server or an authorization server is untrusted, and the system's URL handlers reach far
 * beyond a browser: `file:` opens or runs local files, `vscode:` hands a URI to another extension,
 * `search-ms:`/`ms-*:` drive the Windows shell. Credentials in a URL (`https://bank.example@evil.test`)
 * disguise the real host, so they are refused too. Nothing here fetches anything.
 */
import { domainToUnicode } from 'node:url';
import { isPlainLine } from './text/plainText';

export type UnsafeUrlCode =
  /** Not parseable as an absolute URL. */
  | 'invalid'
  /** Whitespace or control characters: what is shown could differ from what is opened. */
  | 'controlCharacters'
  /** A scheme other than https/http (`file:`, `vscode:`, `javascript:`, `search-ms:`, …). */
  | 'scheme'
  /** `http:` to a host other than this machine: readable and changeable on the way. */
  | 'insecureHttp'
  /** `user:password@` before the host. */
  | 'credentials';

export interface SafeUrl {
  /** The parsed URL; open `url.href`, exactly as checked. */
  readonly url: URL;
  /** The host as the browser resolves it (ASCII: IDN labels stay `xn--`), port included when not the default. */
  readonly host: string;
  /** The host with IDN labels decoded, as a look-alike would read. Equals `host` for plain ASCII names. */
  readonly unicodeHost: string;
}

export type SafeUrlCheck =
  | ({ readonly ok: true } & SafeUrl)
  | { readonly ok: false; readonly code: UnsafeUrlCode; readonly reason: string; readonly scheme?: string; readonly host?: string };

/** Checks a URL a server asks MCP Host to open. Only `ok` results may be opened, and only as `url.href`. */
export function checkOpenableUrl(raw: string | URL): SafeUrlCheck {
  const text = typeof raw === 'string' ? raw : raw.href;
  // Any space, and whatever the one cleaner would remove (controls, ignorables, format characters): a URL
  // parser drops or keeps them silently, so what is shown could differ from what is opened.
  if (/\s/u.test(text) || !isPlainLine(text)) return refuse('controlCharacters', 'the link contains spaces or invisible control characters');
  let url: URL;
  try { url = new URL(text); } catch { return refuse('invalid', `"${text.slice(0, 200)}" is not a valid absolute URL`); }
  const scheme = url.protocol.slice(0, -1);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return refuse('scheme', `only https links can be opened, not "${scheme}:" links`, { scheme });
  if (url.username || url.password) return refuse('credentials', `the link puts a user name or password before the host (${url.hostname}), which disguises the site it goes to`, { scheme, host: url.hostname });
  if (!url.hostname) return refuse('invalid', 'the link has no host');
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return refuse('insecureHttp', `http links are opened only to this machine; ${url.hostname} needs https`, { scheme, host: url.hostname });
  return { ok: true, url, host: url.host, unicodeHost: unicodeOf(url) };
}

/**
 * True for the hosts that are this machine: `localhost`, 127.0.0.0/8 and `[::1]` as the WHATWG URL
 * parser normalises them (so `127.1`, `0x7f.0.0.1` count, `127.0.0.1.evil.test` does not).
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function unicodeOf(url: URL): string {
  const unicode = url.hostname.startsWith('[') ? url.hostname : domainToUnicode(url.hostname) || url.hostname;
  return url.port ? `${unicode}:${url.port}` : unicode;
}

function refuse(code: UnsafeUrlCode, reason: string, extra: { scheme?: string; host?: string } = {}): SafeUrlCheck {
  return { ok: false, code, reason, ...extra };
}

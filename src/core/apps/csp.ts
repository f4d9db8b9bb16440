/**
 * The Content-Security-Policy of an app's document, built only from the domains its resource
 * declares in `_meta.ui.csp` (MCP Apps): code of the app itself runs (inline, eval, and `blob:`/`data:`
 * URLs it makes, also as workers), everything else loads only from the declared origins, and an empty
 * list means none. Entries that would widen the policy
 * beyond one origin (`*`, `https:`, paths, quotes, `;`, keywords) are refused and reported, and so are
 * origins on this computer or the local network unless the embedder allows them for this app.
 */
import { isLocalNetworkHost, normalisedHost } from './localHosts';

export interface AppCspDomains {
  readonly connectDomains?: readonly string[];
  readonly resourceDomains?: readonly string[];
  readonly frameDomains?: readonly string[];
  readonly baseUriDomains?: readonly string[];
}

export interface AppCsp {
  /** The `content` of the document's CSP meta tag. */
  readonly policy: string;
  /** The origins actually allowed, per list (after refusals). */
  readonly allowed: Required<{ [K in keyof AppCspDomains]: string[] }>;
  /** Declared entries that were not allowed, as the server sent them. */
  readonly refused: string[];
  /** The refused entries that are local-network origins (allowed only for local servers, by the user's choice). */
  readonly refusedLocal: string[];
}

const HOST = /^(\*\.)?[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*$/i;
const MAX_ENTRIES = 64;

export interface AppCspOptions {
  /**
   * Whether origins on this computer or the local network (`http://127.0.0.1:11434`, `ws://[::1]:9229`,
   * `https://192.168.1.1`, any spelling of them) may be allowed. Only for apps of local (stdio) servers
   * whose user allowed it: a remote server's app could otherwise reach the user's local services.
   */
  readonly localNetwork?: boolean;
}

const ORIGIN = /^(https|wss|http|ws):\/\/([^/:?#\s[\]@]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?\/?$/i;

/** Scheme, host as the browser reads it (`2130706433` is `127.0.0.1`), port; undefined when `raw` is no origin. */
function parseOrigin(raw: unknown): { scheme: string; host: string; wildcard: boolean; port?: string } | undefined {
  if (typeof raw !== 'string' || raw.length > 300) return undefined;
  const m = ORIGIN.exec(raw);
  if (!m) return undefined;
  const [, scheme, declaredHost, port] = m;
  const wildcard = declaredHost.startsWith('*.');
  const parsed = normalisedHost(wildcard ? declaredHost.slice(2) : declaredHost);
  return parsed ? { scheme: scheme.toLowerCase(), host: wildcard ? `*.${parsed}` : parsed, wildcard, port } : undefined;
}

/**
 * `scheme://host[:port]` for a secure origin, or a plain `http`/`ws` one on the local network when
 * `options.localNetwork` allows local origins at all; undefined for anything else. The host is returned
 * as the browser reads it (`https://2130706433` is `https://127.0.0.1`).
 */
export function cspOrigin(raw: unknown, options: AppCspOptions = {}): string | undefined {
  const o = parseOrigin(raw);
  if (!o) return undefined;
  const { scheme, host, wildcard, port } = o;
  const local = isLocalNetworkHost(host);
  if (local && !options.localNetwork) return undefined;
  if (!/^(https|wss)$/.test(scheme) && !local) return undefined;
  if (!host.startsWith('[') && !HOST.test(host)) return undefined;
  // A wildcard must leave at least a registrable-looking name under it (`*.com` would be most of the web).
  if (wildcard && host.split('.').length < 3) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return `${scheme}://${host}${port ? `:${port}` : ''}`;
}

/** Whether a declared entry names an origin on this computer or the local network (to tell the user why it was refused). */
export function isLocalOrigin(raw: unknown): boolean {
  const o = parseOrigin(raw);
  return o !== undefined && isLocalNetworkHost(o.host);
}

function list(declared: unknown, key: keyof AppCspDomains, refused: string[], options: AppCspOptions): string[] {
  const raw = declared && typeof declared === 'object' ? (declared as Record<string, unknown>)[key] : undefined;
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) { refused.push(`${key}: ${JSON.stringify(raw)?.slice(0, 100)}`); return []; }
  const out: string[] = [];
  for (const entry of raw.slice(0, MAX_ENTRIES)) {
    const origin = cspOrigin(entry, options);
    if (origin) { if (!out.includes(origin)) out.push(origin); } else refused.push(String(entry).slice(0, 200));
  }
  if (raw.length > MAX_ENTRIES) refused.push(`${key}: ${raw.length - MAX_ENTRIES} more entries`);
  return out;
}

/** The policy for a resource whose `_meta.ui.csp` is `declared` (anything; validated here). */
export function buildAppCsp(declared: unknown, options: AppCspOptions = {}): AppCsp {
  const refused: string[] = [];
  const allowed = {
    connectDomains: list(declared, 'connectDomains', refused, options),
    resourceDomains: list(declared, 'resourceDomains', refused, options),
    frameDomains: list(declared, 'frameDomains', refused, options),
    baseUriDomains: list(declared, 'baseUriDomains', refused, options),
  };
  const r = allowed.resourceDomains;
  const orNone = (xs: string[]) => xs.length ? xs : [`'none'`];
  // The policy guards where the app's frame may reach, not which code runs in it: all of its code is the
  // server's anyway (inline scripts run). So the sources that only ever hold the app's own bytes —
  // `blob:` and `data:` URLs it builds, eval, WebAssembly — are allowed (pdf.js starts its worker from a
  // blob and falls back to importing it; bundlers inline modules as data: URLs), while every network
  // origin stays what `_meta.ui.csp` declares. Blob URLs belong to the frame's own opaque origin, and a
  // worker started from one inherits this policy.
  const own = ['blob:', 'data:'];
  const directives: [string, string[]][] = [
    ['default-src', [`'none'`]],
    ['script-src', [`'unsafe-inline'`, `'unsafe-eval'`, `'wasm-unsafe-eval'`, ...own, ...r]],
    ['style-src', [`'unsafe-inline'`, ...own, ...r]],
    ['img-src', [...own, ...r]],
    ['font-src', [...own, ...r]],
    ['media-src', [...own, ...r]],
    ['worker-src', [...own, ...r]],
    ['connect-src', [...own, ...allowed.connectDomains]],
    ['frame-src', orNone(allowed.frameDomains)],
    ['base-uri', orNone(allowed.baseUriDomains)],
    ['form-action', [`'none'`]],
    ['object-src', [`'none'`]],
  ];
  return { policy: directives.map(([d, v]) => `${d} ${v.join(' ')}`).join('; '), allowed, refused, refusedLocal: options.localNetwork ? [] : refused.filter(isLocalOrigin) };
}

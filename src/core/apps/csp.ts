/**
 * The Content-Security-Policy of an app's document, built only from the domains its resource
 * declares in `_meta.ui.csp` (MCP Apps): inline code of the app itself runs, everything else loads
 * only from the declared origins, and an empty list means none. Entries that would widen the policy
 * beyond one origin (`*`, `https:`, paths, quotes, `;`, keywords) are refused and reported.
 */

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
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const HOST = /^(\*\.)?[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*$/i;
const MAX_ENTRIES = 64;

/** `scheme://host[:port]` for a secure (or loopback) origin, or undefined when `raw` is anything else. */
export function cspOrigin(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > 300) return undefined;
  const m = /^(https|wss|http|ws):\/\/([^/:?#\s]+|\[::1\])(?::(\d{1,5}))?\/?$/i.exec(raw);
  if (!m) return undefined;
  const [, scheme, host, port] = m;
  const secure = /^(https|wss)$/i.test(scheme);
  if (!secure && !LOOPBACK.test(host)) return undefined;
  if (!LOOPBACK.test(host) && !HOST.test(host)) return undefined;
  // A wildcard must leave at least a registrable-looking name under it (`*.com` would be most of the web).
  if (host.startsWith('*.') && host.split('.').length < 3) return undefined;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return `${scheme.toLowerCase()}://${host.toLowerCase()}${port ? `:${port}` : ''}`;
}

function list(declared: unknown, key: keyof AppCspDomains, refused: string[]): string[] {
  const raw = declared && typeof declared === 'object' ? (declared as Record<string, unknown>)[key] : undefined;
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) { refused.push(`${key}: ${JSON.stringify(raw)?.slice(0, 100)}`); return []; }
  const out: string[] = [];
  for (const entry of raw.slice(0, MAX_ENTRIES)) {
    const origin = cspOrigin(entry);
    if (origin) { if (!out.includes(origin)) out.push(origin); } else refused.push(String(entry).slice(0, 200));
  }
  if (raw.length > MAX_ENTRIES) refused.push(`${key}: ${raw.length - MAX_ENTRIES} more entries`);
  return out;
}

/** The policy for a resource whose `_meta.ui.csp` is `declared` (anything; validated here). */
export function buildAppCsp(declared: unknown): AppCsp {
  const refused: string[] = [];
  const allowed = {
    connectDomains: list(declared, 'connectDomains', refused),
    resourceDomains: list(declared, 'resourceDomains', refused),
    frameDomains: list(declared, 'frameDomains', refused),
    baseUriDomains: list(declared, 'baseUriDomains', refused),
  };
  const r = allowed.resourceDomains;
  const orNone = (xs: string[]) => xs.length ? xs : [`'none'`];
  const directives: [string, string[]][] = [
    ['default-src', [`'none'`]],
    ['script-src', [`'unsafe-inline'`, ...r]],
    ['style-src', [`'unsafe-inline'`, ...r]],
    ['img-src', ['data:', ...r]],
    ['font-src', ['data:', ...r]],
    ['media-src', ['data:', ...r]],
    ['connect-src', orNone(allowed.connectDomains)],
    ['frame-src', orNone(allowed.frameDomains)],
    ['base-uri', orNone(allowed.baseUriDomains)],
    ['form-action', [`'none'`]],
    ['object-src', [`'none'`]],
  ];
  return { policy: directives.map(([d, v]) => `${d} ${v.join(' ')}`).join('; '), allowed, refused };
}

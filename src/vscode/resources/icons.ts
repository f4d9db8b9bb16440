/**
 * MCP icons (`icons: [{ src, mimeType, sizes, theme }]` on servers and resources) turned into
 * `data:` URIs that are safe to show in the tree:
 * - `data:` sources always; `https:` only from the host (and port) of the server's own URL, so a
 *   server cannot make MCP Host contact a third party (a tracker, an internal address). A local
 *   (stdio) server has no host of its own: it gets `data:` icons only, as in VS Code's own MCP support
 *   (contrib/mcp/common/mcpIcons.ts). `http:`, `file:`, `javascript:` and anything else are ignored;
 * - remote icons are fetched here (size- and time-bounded, redirects not followed) so the workbench
 *   never loads the URL itself;
 * - raster images must be PNG/JPEG/GIF/WebP by their magic bytes; SVGs are sanitised (scripts, event
 *   handlers, foreign objects and external references removed) and rejected if anything suspicious
 *   is left.
 * No `vscode` import: unit-tested in plain Node.
 */
import type { Icon } from '@modelcontextprotocol/client';
import { Emitter, type Event } from '../../core';

export const MAX_ICON_BYTES = 256 * 1024;
const FETCH_TIMEOUT_MS = 5000;

export interface ThemedIcon { readonly light: string; readonly dark: string }

/**
 * The host (`name:port`) remote icons of a server may come from: its URL's, for a server declared
 * with a URL; none for a local process.
 */
export function iconHostOf(declaration: { readonly type: string; readonly url?: string }): string | undefined {
  if (declaration.type === 'stdio' || !declaration.url) return undefined;
  try { return new URL(declaration.url).host || undefined; } catch { return undefined; }
}

/** Icons worth trying, best first, for one theme: matching theme, then unthemed; SVG, then small rasters. */
export function candidates(icons: readonly Icon[] | undefined, theme: 'light' | 'dark', serverHost?: string): Icon[] {
  const usable = (icons ?? []).filter(i => typeof i?.src === 'string' && isAllowedSource(i.src, serverHost));
  const score = (i: Icon) => (i.theme === theme ? 0 : i.theme ? 20 : 10) + (isSvg(i) ? 0 : i.sizes?.some(s => /^(16|24|32)x\1$|^any$/.test(s)) ? 1 : 2);
  return usable.filter(i => !i.theme || i.theme === theme).sort((a, b) => score(a) - score(b));
}

/** `data:` always; `https:` only on `serverHost` (see {@link iconHostOf}), without a user name or password. */
export function isAllowedSource(src: string, serverHost?: string): boolean {
  if (/^data:/i.test(src)) return true;
  if (!serverHost || !/^https:\/\//i.test(src)) return false;
  try {
    const url = new URL(src);
    return url.protocol === 'https:' && !url.username && !url.password && url.host === serverHost.toLowerCase();
  } catch { return false; }
}

function isSvg(i: Icon): boolean { return /svg/i.test(i.mimeType ?? '') || /^data:image\/svg\+xml/i.test(i.src) || /\.svg(\?|#|$)/i.test(i.src); }

/** Turns validated bytes into a `data:` URI, or undefined if they are not an acceptable image. */
export function toSafeDataUri(bytes: Uint8Array, declaredMime?: string): string | undefined {
  if (bytes.byteLength === 0 || bytes.byteLength > MAX_ICON_BYTES) return undefined;
  const raster = sniffRaster(bytes);
  if (raster) return `data:${raster};base64,${Buffer.from(bytes).toString('base64')}`;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (/svg/i.test(declaredMime ?? '') || /<svg[\s>]/i.test(text)) {
    const clean = sanitizeSvg(text);
    return clean === undefined ? undefined : `data:image/svg+xml;base64,${Buffer.from(clean, 'utf8').toString('base64')}`;
  }
  return undefined;
}

function sniffRaster(b: Uint8Array): string | undefined {
  const at = (i: number, ...xs: number[]) => xs.every((x, k) => b[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x47, 0x49, 0x46, 0x38)) return 'image/gif';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return undefined;
}

/**
 * Removes everything from an SVG that could run code or load something: `<script>`, `<foreignObject>`,
 * embedded documents, DOCTYPE/entities, processing instructions, `on*` handlers, and `href`s / `url()`s
 * that are not local fragments or inline raster images. Repeats until stable (defeats nesting tricks);
 * returns undefined if the result is not a single `<svg>` document or still looks dangerous.
 */
export function sanitizeSvg(svg: string): string | undefined {
  let s = svg;
  for (let i = 0; i < 5; i++) {
    const before = s;
    s = s
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<\?[\s\S]*?\?>/g, '')
      .replace(/<!DOCTYPE[^[>]*(\[[\s\S]*?\])?\s*>/gi, '')
      .replace(/<!ENTITY[\s\S]*?>/gi, '')
      .replace(/<(script|foreignObject|iframe|object|embed|audio|video|handler|listener)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<(script|foreignObject|iframe|object|embed|audio|video|handler|listener)\b[^>]*>/gi, '')
      .replace(/\s(on[a-z]+|formaction|xmlns:ev)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '')
      .replace(/\s((?:xlink:)?href|src)\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, (m, _n, v: string) => isLocalRef(v.replace(/^["']|["']$/g, '')) ? m : '')
      .replace(/url\(\s*(['"]?)(?!#)[^)]*\)/gi, 'none')
      .replace(/@import[^;]*;?/gi, '');
    if (s === before) break;
  }
  const trimmed = s.trim();
  if (!/^<svg[\s>]/i.test(trimmed) || !/<\/svg\s*>$/i.test(trimmed)) return undefined;
  if (/<script|javascript:|<foreignObject|\son[a-z]+\s*=|<!ENTITY/i.test(trimmed)) return undefined;
  return trimmed;
}

function isLocalRef(v: string): boolean {
  return v.startsWith('#') || /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i.test(v);
}

/** Decodes a `data:` URI (base64 or percent-encoded). */
export function decodeDataUri(src: string): { mime?: string; bytes: Uint8Array } | undefined {
  const m = /^data:([^,]*?),(.*)$/is.exec(src.trim());
  if (!m) return undefined;
  const meta = m[1];
  const isB64 = /;base64$/i.test(meta);
  const mime = meta.replace(/;base64$/i, '').split(';')[0] || undefined;
  try {
    const bytes = isB64 ? Buffer.from(m[2], 'base64') : Buffer.from(decodeURIComponent(m[2]), 'utf8');
    return { mime, bytes: new Uint8Array(bytes) };
  } catch { return undefined; }
}

export type IconFetcher = (url: string) => Promise<{ mime?: string; bytes: Uint8Array } | undefined>;

/**
 * Fetches an https icon, bounded in size and time. A redirect is not followed (it fails the fetch):
 * it could lead to any host, which the source check above would never have allowed.
 * `fetchFn` is the platform's fetch; it is a parameter for tests that must trust a self-signed certificate.
 */
export function createIconFetcher(fetchFn: typeof fetch = fetch): IconFetcher {
  return url => fetchIcon(url, fetchFn);
}

async function fetchIcon(url: string, fetchFn: typeof fetch): Promise<{ mime?: string; bytes: Uint8Array } | undefined> {
  const res = await fetchFn(url, { redirect: 'error', credentials: 'omit', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!res.ok) { await res.body?.cancel().catch(() => {}); return undefined; }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_ICON_BYTES || !res.body) return undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > MAX_ICON_BYTES) return undefined;
    chunks.push(chunk);
  }
  return { mime: res.headers.get('content-type') ?? undefined, bytes: new Uint8Array(Buffer.concat(chunks)) };
}

/**
 * Resolves icon lists to safe `data:` URIs, asynchronously and once per source. `get()` answers
 * from the cache at once and starts what is missing; `onDidResolve` fires when something new is ready.
 */
export class IconCache {
  private readonly resolved = new Map<string, string | null>();
  private readonly pending = new Set<string>();
  private readonly _onDidResolve = new Emitter<void>();
  readonly onDidResolve: Event<void> = this._onDidResolve.event;

  constructor(private readonly fetcher: IconFetcher = createIconFetcher(), private readonly maxEntries = 500) {}

  /** The icon for `icons` of a server whose remote icons may come from `serverHost` ({@link iconHostOf}). */
  get(icons: readonly Icon[] | undefined, serverHost: string | undefined): ThemedIcon | undefined {
    if (!icons?.length) return undefined;
    const light = this.first(candidates(icons, 'light', serverHost));
    const dark = this.first(candidates(icons, 'dark', serverHost));
    if (!light && !dark) return undefined;
    return { light: light ?? dark!, dark: dark ?? light! };
  }

  private first(list: Icon[]): string | undefined {
    for (const icon of list) {
      if (!this.resolved.has(icon.src)) this.start(icon); // data: URIs resolve at once
      const hit = this.resolved.get(icon.src);
      if (hit) return hit;
      if (hit === null) continue;
      return undefined; // pending: wait for the best candidate before falling back to worse ones
    }
    return undefined;
  }

  private start(icon: Icon): void {
    if (this.pending.has(icon.src)) return;
    if (icon.src.trim().toLowerCase().startsWith('data:')) {
      const d = decodeDataUri(icon.src);
      this.remember(icon.src, d ? toSafeDataUri(d.bytes, d.mime ?? icon.mimeType) : undefined);
      return;
    }
    this.pending.add(icon.src);
    this.fetcher(icon.src)
      .then(r => r ? toSafeDataUri(r.bytes, r.mime ?? icon.mimeType) : undefined, () => undefined)
      .then(uri => {
        this.pending.delete(icon.src);
        this.remember(icon.src, uri);
        this._onDidResolve.fire();
      }, () => this.pending.delete(icon.src));
  }

  private remember(src: string, uri: string | undefined): void {
    if (this.resolved.size >= this.maxEntries) this.resolved.delete(this.resolved.keys().next().value as string);
    this.resolved.set(src, uri ?? null);
  }

  dispose(): void { this._onDidResolve.dispose(); }
}

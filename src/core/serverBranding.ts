/**
 * What a server says about itself beyond its name (MCP 2025-11-25 `Implementation.websiteUrl` and
 * `icons`), reduced to what MCP Host can show without trusting the server:
 * - the website only when the safe-URL rule would open it (https; http only to this machine) and of a
 *   length a person can read in a confirmation;
 * - icons only as inline `data:image/png|jpeg|webp;base64,` images whose bytes are what they claim.
 *   Never a URL: fetching one would let the server make the editor contact a host of its choosing (a
 *   tracking pixel, an address on the user's network). Never SVG: it is a document that can carry
 *   script and references. The count looked at and each image's size are bounded, so a thousand icons
 *   or a huge `data:` URI cost nothing.
 * Nothing here fetches or writes anything; the editor side writes the chosen bytes to a file it owns,
 * named by their SHA-256.
 */
import { createHash } from 'node:crypto';
import { checkOpenableUrl } from './safeUrl';

/** Longer website URLs are dropped: a confirmation must be able to show the whole URL. */
export const MAX_WEBSITE_URL_CHARS = 2048;
/** Largest decoded icon accepted: a tree row shows 16 px; 64 KiB is plenty for any honest icon. */
export const MAX_SERVER_ICON_BYTES = 64 * 1024;
/** Icons looked at, in the server's order: the rest of a long list is ignored unread. */
export const MAX_SERVER_ICONS_LOOKED_AT = 16;

export type ServerIconMime = 'image/png' | 'image/jpeg' | 'image/webp';

export interface ServerIcon {
  readonly mime: ServerIconMime;
  readonly bytes: Uint8Array;
  /** Hex SHA-256 of `bytes`: the file's name, so the same picture is one file whoever sends it. */
  readonly sha256: string;
  /** `<sha256>.<ext>`: a name made by MCP Host from the content, nothing of the server's text. */
  readonly fileName: string;
}

/** One icon per theme; when the server has one for a single theme only, it serves both. */
export interface ServerIcons { readonly light: ServerIcon; readonly dark: ServerIcon }

export interface ServerWebsite {
  /** The URL exactly as checked: open this string, nothing else. */
  readonly href: string;
  /** The host as the browser resolves it (punycode kept), port included when not the default. */
  readonly host: string;
  /** The host with IDN labels decoded (equals `host` for plain ASCII names). */
  readonly unicodeHost: string;
}

/** The server's website if MCP Host may offer to open it; otherwise undefined. `info` is the server's `serverInfo`, unchecked. */
export function serverWebsite(info: unknown): ServerWebsite | undefined {
  const raw = field(info, 'websiteUrl');
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_WEBSITE_URL_CHARS) return undefined;
  const checked = checkOpenableUrl(raw);
  // The parser may lengthen it (percent-encoding); the bound is on what would be opened and shown.
  if (!checked.ok || checked.url.href.length > MAX_WEBSITE_URL_CHARS) return undefined;
  return { href: checked.url.href, host: checked.host, unicodeHost: checked.unicodeHost };
}

/** The icons to show for the server (light and dark theme), or undefined when it sent none acceptable. */
export function serverIcons(info: unknown): ServerIcons | undefined {
  const list = field(info, 'icons');
  if (!Array.isArray(list)) return undefined;
  let light: ServerIcon | undefined, dark: ServerIcon | undefined, both: ServerIcon | undefined;
  for (const entry of list.slice(0, MAX_SERVER_ICONS_LOOKED_AT)) {
    const theme = field(entry, 'theme');
    if (theme === 'light' ? light : theme === 'dark' ? dark : both) continue; // the server's first choice wins
    const icon = acceptIcon(entry);
    if (!icon) continue;
    if (theme === 'light') light = icon;
    else if (theme === 'dark') dark = icon;
    else both = icon;
  }
  const forLight = light ?? both ?? dark;
  const forDark = dark ?? both ?? light;
  return forLight && forDark ? { light: forLight, dark: forDark } : undefined;
}

/** One entry of `icons` as an icon MCP Host may show, or undefined when any check refuses it. */
export function acceptIcon(entry: unknown): ServerIcon | undefined {
  const src = field(entry, 'src');
  if (typeof src !== 'string') return undefined;
  // A theme the spec does not name: the entry is not what it claims to be; skip it rather than guess.
  const theme = field(entry, 'theme');
  if (theme !== undefined && theme !== 'light' && theme !== 'dark') return undefined;
  // Bound before any parsing: base64 of the largest accepted image, plus the longest prefix.
  if (src.length > MAX_DATA_URI_CHARS) return undefined;
  const m = DATA_URI.exec(src);
  if (!m) return undefined; // http(s):, file:, svg, a parameterised or percent-encoded data: URI …
  const mime = m[1].toLowerCase() as ServerIconMime;
  const declared = field(entry, 'mimeType');
  // A mimeType that contradicts the data URI is a lie about one of them.
  if (declared !== undefined && (typeof declared !== 'string' || declared.toLowerCase() !== mime)) return undefined;
  const payload = m[2];
  if (payload.length === 0 || payload.length % 4 !== 0 || !BASE64.test(payload)) return undefined;
  const bytes = Buffer.from(payload, 'base64');
  // Node's decoder skips what it does not understand; only a canonical encoding is the bytes it says.
  if (bytes.toString('base64') !== payload) return undefined;
  if (bytes.byteLength > MAX_SERVER_ICON_BYTES || !hasSignature(bytes, mime)) return undefined;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { mime, bytes: new Uint8Array(bytes), sha256, fileName: `${sha256}.${EXTENSIONS[mime]}` };
}

const EXTENSIONS: Record<ServerIconMime, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
const DATA_URI = /^data:(image\/(?:png|jpeg|webp));base64,(.*)$/is;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const MAX_DATA_URI_CHARS = 'data:image/jpeg;base64,'.length + Math.ceil(MAX_SERVER_ICON_BYTES / 3) * 4;

/** The decoded bytes start as an image of the declared type does (PNG, JPEG, WebP's RIFF…WEBP). */
function hasSignature(b: Uint8Array, mime: ServerIconMime): boolean {
  const at = (i: number, ...xs: number[]) => b.length >= i + xs.length && xs.every((x, k) => b[i + k] === x);
  switch (mime) {
    case 'image/png': return at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case 'image/jpeg': return at(0, 0xff, 0xd8, 0xff);
    case 'image/webp': return at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50);
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

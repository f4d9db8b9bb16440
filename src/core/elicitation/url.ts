/**
 * Looks at a URL from a URL-mode elicitation before the user decides to open it: refuses what the
 * safe-URL rule refuses (see ../safeUrl.ts), splits the rest so the domain can be highlighted, and
 * lists what deserves a warning (punycode and mixed-script look-alike domains, raw IP addresses).
 * It never fetches anything.
 */
import { domainToUnicode } from 'node:url';
import { checkOpenableUrl, isLoopbackHost, type UnsafeUrlCode } from '../safeUrl';

export type UrlWarningKind = 'punycode' | 'mixedScripts' | 'ipAddress';

export interface UrlWarning {
  readonly kind: UrlWarningKind;
  readonly message: string;
}

export interface UrlReview {
  /** The URL as it will be opened (normalised by WHATWG URL parsing; the host is in ASCII/punycode). */
  readonly href: string;
  /** `href` split around the host so a UI can highlight the domain: `before + host + after === href`. */
  readonly parts: { readonly before: string; readonly host: string; readonly after: string };
  /** The host as the browser will resolve it (ASCII, `xn--` labels kept). */
  readonly host: string;
  /** The host with punycode decoded, as a look-alike would appear to a reader. */
  readonly unicodeHost: string;
  readonly warnings: readonly UrlWarning[];
}

export type UrlReviewResult = { readonly ok: true; readonly review: UrlReview } | { readonly ok: false; readonly code: UnsafeUrlCode; readonly reason: string };

/** Scripts whose mixing inside one label is normal (Japanese, Chinese, Korean writing; UTS #39 "highly restrictive"). */
const ALLOWED_MIXES: readonly (readonly string[])[] = [
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];
const SCRIPTS = ['Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Han', 'Hiragana', 'Katakana', 'Bopomofo', 'Hangul', 'Thai', 'Devanagari', 'Cherokee'] as const;
const SCRIPT_RES = SCRIPTS.map(s => [s, new RegExp(`\\p{Script=${s}}`, 'u')] as const);

/** The scripts of the letters in `label` (digits, hyphens and combining marks do not count). */
export function scriptsOf(label: string): Set<string> {
  const found = new Set<string>();
  for (const ch of label) {
    if (!/\p{L}/u.test(ch)) continue;
    found.add(SCRIPT_RES.find(([, re]) => re.test(ch))?.[0] ?? 'Other');
  }
  return found;
}

/** True when a domain label mixes scripts in a way real names do not (e.g. Latin with Cyrillic: "pаypal"). */
export function isMixedScript(label: string): boolean {
  const scripts = [...scriptsOf(label)];
  if (scripts.length <= 1) return false;
  return !ALLOWED_MIXES.some(allowed => scripts.every(s => allowed.includes(s)));
}

/** Reviews a URL for consent. Only URLs the safe-URL rule accepts can be opened; anything else is refused with a reason. */
export function reviewUrl(raw: string): UrlReviewResult {
  const checked = checkOpenableUrl(raw);
  if (!checked.ok) return { ok: false, code: checked.code, reason: checked.reason };
  const { url } = checked;
  const href = url.href;
  const host = url.hostname;
  const unicodeHost = domainToUnicode(host) || host;
  const warnings: UrlWarning[] = [];
  const labels = unicodeHost.split('.');
  const mixed = labels.filter(isMixedScript);
  if (mixed.length) warnings.push({ kind: 'mixedScripts', message: `The domain mixes alphabets (${mixed.map(l => `"${l}": ${[...scriptsOf(l)].join(' + ')}`).join('; ')}); it may imitate a different site.` });
  if (host.split('.').some(l => l.startsWith('xn--'))) warnings.push({ kind: 'punycode', message: `The domain is internationalized: "${host}" is shown as "${unicodeHost}" and may look like a different, familiar site.` });
  if ((/^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[')) && !isLoopbackHost(host)) {
    warnings.push({ kind: 'ipAddress', message: `The link points to a raw IP address (${host}) instead of a domain name.` });
  }
  // The host's position in href: right after "scheme://" (the rule refuses user names and passwords).
  const start = url.protocol.length + 2;
  const parts = href.startsWith(host, start)
    ? { before: href.slice(0, start), host, after: href.slice(start + host.length) }
    : { before: '', host: '', after: href };
  return { ok: true, review: { href, parts, host, unicodeHost, warnings } };
}

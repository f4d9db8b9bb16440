/**
 * Checks that translations are complete: every `%key%` the manifest uses exists in each
 * `package.nls*.json`, every `vscode.l10n.t` message of the source exists in each
 * `l10n/bundle.l10n.<lang>.json`, and a translation keeps its placeholders (`{0}`, `{name}`),
 * command links (`command:mcpHost.x`) and setting links (`#mcpHost.x#`), which would otherwise break silently.
 */

/** Every `%key%` placeholder in a manifest (package.json), anywhere in its values. */
export function manifestKeys(manifest: unknown, into = new Set<string>()): Set<string> {
  if (typeof manifest === 'string') {
    const m = /^%([^%\s]+)%$/.exec(manifest);
    if (m) into.add(m[1]);
  } else if (Array.isArray(manifest)) {
    manifest.forEach(v => manifestKeys(v, into));
  } else if (manifest && typeof manifest === 'object') {
    Object.values(manifest).forEach(v => manifestKeys(v, into));
  }
  return into;
}

export interface KeyComparison {
  /** Required but absent. */
  readonly missing: string[];
  /** Present but not required (stale). */
  readonly unused: string[];
}

export function compareKeys(required: Iterable<string>, present: Iterable<string>): KeyComparison {
  const req = new Set(required);
  const have = new Set(present);
  return { missing: [...req].filter(k => !have.has(k)).sort(), unused: [...have].filter(k => !req.has(k)).sort() };
}

/** The message of a bundle entry (`"text"` or `{ "message": "text", "comment": [...] }`). */
export function bundleMessage(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry === 'object' && typeof (entry as { message?: unknown }).message === 'string') return (entry as { message: string }).message;
  return undefined;
}

/** The parts of a message a translation must keep, sorted: `{0}`/`{name}`, `command:…` and `#setting#` links, `${…}` variables. */
export function protectedParts(message: string): string[] {
  const parts = [
    ...message.match(/\{[A-Za-z0-9_]+\}/g) ?? [],
    ...message.match(/command:[\w.-]+/g) ?? [],
    ...message.match(/#[\w]+(?:\.[\w]+)+#/g) ?? [],
    ...message.match(/\$\{[^}]+\}/g) ?? [],
  ];
  return parts.sort();
}

/** Keys whose translation lost or changed a protected part (see {@link protectedParts}). */
export function placeholderMismatches(source: Readonly<Record<string, unknown>>, translation: Readonly<Record<string, unknown>>): { key: string; expected: string[]; actual: string[] }[] {
  const out: { key: string; expected: string[]; actual: string[] }[] = [];
  for (const [key, entry] of Object.entries(translation)) {
    if (!(key in source)) continue; // stale or not yet in the source: compareKeys reports it
    const en = bundleMessage(source[key]) ?? key;
    const tr = bundleMessage(entry);
    if (en === undefined || tr === undefined) continue;
    const expected = protectedParts(en);
    const actual = protectedParts(tr);
    if (expected.join('\n') !== actual.join('\n')) out.push({ key, expected, actual });
  }
  return out;
}

/** Keys whose translation is empty or still the English text (a forgotten copy-paste). */
export function untranslated(source: Readonly<Record<string, unknown>>, translation: Readonly<Record<string, unknown>>, allowSame: ReadonlySet<string> = new Set()): string[] {
  return Object.keys(translation).filter(key => {
    const tr = bundleMessage(translation[key]);
    if (!tr?.trim()) return true;
    const en = bundleMessage(source[key]) ?? key;
    return tr === en && !allowSame.has(key) && /[A-Za-z]{3,}\s+[A-Za-z]{3,}/.test(en);
  }).sort();
}

/**
 * `{n}` placeholders that `vscode.l10n.t` would leave in the text: it replaces `/{([^}]+)}/` matches, so a
 * placeholder inside other braces (`${input:{0}}`, `{{0}}`) is never filled. Pass such text as an argument.
 */
export function unreachablePlaceholders(message: string): string[] {
  const reached = new Set([...message.matchAll(/\{([^}]+)\}/g)].map(m => m[1]));
  return [...new Set([...message.matchAll(/\{(\d+)\}/g)].map(m => m[1]))].filter(n => !reached.has(n)).map(n => `{${n}}`);
}

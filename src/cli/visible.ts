/**
 * Characters that a terminal or a JSON consumer does not show as themselves: controls (C0, DEL, C1),
 * format characters (bidi controls and marks, zero-width characters, Unicode tags) and the line and
 * paragraph separators U+2028/U+2029 (line breaks to JavaScript before ES2019 and to many viewers).
 */
// Line feed excepted: in JSON text it is only ever the pretty-printer's (JSON.stringify escapes those in strings).
const INVISIBLE = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const unicodeEscape = (c: string) => [...Array(c.length).keys()].map(i => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');

/**
 * JSON text with every invisible character as a `\uXXXX` escape (astral ones as their surrogate
 * pair), so a server's text cannot reorder or hide what a `--json` reader or a terminal shows.
 * Outside strings JSON text is ASCII, so every such character sits in a string, where the escape
 * means the same character: the parsed value is unchanged.
 */
export function escapeJsonText(json: string): string {
  return json.replace(INVISIBLE, unicodeEscape);
}

/** A command-line word as the user should read it before running it: plain words as they are, others quoted and escaped. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : escapeJsonText(JSON.stringify(word));
}

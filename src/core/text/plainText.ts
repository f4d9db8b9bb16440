/**
 * Text a server chose (tool names and titles, descriptions, arguments a model wrote) is shown to the
 * user in consent prompts. It must read as what it is: terminal escapes could recolour or hide
 * parts, bidi controls reorder what is displayed (`txt.exe` shown for `exe.txt`), and invisible
 * characters (zero-width, Unicode tags) carry text the user cannot see. One function removes them
 * all so every prompt cleans text the same way.
 */

// CSI (ESC [ … final, or the C1 form U+009B), OSC (ESC ] … BEL or ST) and the two-character escapes.
const ANSI = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]/g;
// C0 and C1 controls except tab, line feed and carriage return (handled below), and DEL.
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// Bidi embeddings/overrides/isolates and marks (U+202A–202E, U+2066–2069, U+200E/200F, U+061C),
// zero-width characters, word joiners and invisible operators, the BOM, the soft hyphen, the
// Mongolian vowel separator, and Unicode tag characters (U+E0000–E007F, "ASCII smuggling").
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu;
const LINE_BREAKS = /\r\n?|[\u2028\u2029\u0085]/g;

export interface PlainTextOptions {
  /** Collapse line breaks, tabs and runs of spaces into single spaces (labels, titles). */
  readonly singleLine?: boolean;
  /** Cut at this many characters (after cleaning), ending with `…`. */
  readonly maxLength?: number;
}

/** `text` without escapes, controls, bidi and invisible characters; line feeds and tabs survive unless `singleLine`. */
export function plainText(text: string, options: PlainTextOptions = {}): string {
  let out = text.replace(ANSI, '').replace(LINE_BREAKS, '\n').replace(CONTROLS, '').replace(INVISIBLE, '');
  if (options.singleLine) out = out.replace(/\s+/g, ' ').trim();
  const max = options.maxLength;
  if (max !== undefined && out.length > max) out = `${out.slice(0, Math.max(0, max - 1))}…`;
  return out;
}

/** Whether {@link plainText} would remove anything (a hint that a server tries to hide something). */
export function hasHiddenCharacters(text: string): boolean {
  return plainText(text) !== text.replace(LINE_BREAKS, '\n');
}

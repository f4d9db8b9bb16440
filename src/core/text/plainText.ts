/**
 * Text a server chose (tool names and titles, descriptions, arguments a model wrote) is shown to the
 * user in consent prompts, to models and in the terminal. It must read as what it is: terminal escapes
 * could recolour or hide parts, bidi controls reorder what is displayed (`txt.exe` shown for
 * `exe.txt`), and invisible characters (zero-width, Unicode tags, variation selectors) carry text the
 * user cannot see. One function removes them all so every prompt cleans text the same way.
 *
 * The invisible set is Unicode's, not a list of examples: every Default_Ignorable_Code_Point (zero-width
 * characters, bidi controls, variation selectors U+FE00–FE0F and U+E0100–E01EF, Mongolian FVS, U+034F,
 * Hangul fillers, tags U+E0000–E007F, unassigned ignorables) and every format character (Cf: the
 * interlinear annotation marks, Arabic/Syriac number signs, Egyptian format controls …). A Unicode update
 * in the runtime widens the set without a code change.
 */

// CSI (ESC [ … final, or the C1 form U+009B), OSC (ESC ] … BEL or ST) and the two-character escapes.
const ANSI = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]/g;
const LINE_BREAKS = /\r\n?|[\u2028\u2029\u0085]/g;
// Controls (Cc) but tab and line feed; ignorables and format characters; lone surrogates (a half pair
// renders as nothing or a box, and breaks every encoder downstream).
const INVISIBLE = /[^\t\n\P{Cc}]|\p{Default_Ignorable_Code_Point}|\p{Cf}|\p{Cs}/gu;
// Private-use and unassigned code points have no agreed glyph: a font may draw them as nothing. They are
// kept visible as one replacement character per run, so the user sees that something is there.
const NO_GLYPH = /[\p{Co}\p{Cn}]+/gu;
// Blank glyphs that are neither whitespace nor ignorable (U+2800 BRAILLE PATTERN BLANK): shown as a space,
// so `singleLine` and trimming treat them as the blanks they look like.
const BLANKS = /\u2800/g;

export interface PlainTextOptions {
  /** Collapse line breaks, tabs and runs of spaces into single spaces (labels, titles). */
  readonly singleLine?: boolean;
  /** Cut at this many characters (after cleaning), ending with `…`. */
  readonly maxLength?: number;
}

/** `text` without escapes, controls, bidi and invisible characters; line feeds and tabs survive unless `singleLine`. */
export function plainText(text: string, options: PlainTextOptions = {}): string {
  let out = text.replace(ANSI, '').replace(LINE_BREAKS, '\n').replace(INVISIBLE, '').replace(NO_GLYPH, '\ufffd').replace(BLANKS, ' ');
  if (options.singleLine) out = out.replace(/\s+/g, ' ').trim();
  const max = options.maxLength;
  if (max !== undefined && out.length > max) out = `${cut(out, Math.max(0, max - 1))}…`;
  return out;
}

/** Whether {@link plainText} would change anything but line breaks (a hint that a server tries to hide something). */
export function hasHiddenCharacters(text: string): boolean {
  return plainText(text) !== text.replace(LINE_BREAKS, '\n');
}

/**
 * Whether `text` is one line that shows exactly what it holds: nothing hidden and no line break or tab.
 * For text that is refused rather than cleaned (a command line, a URL to open), because cleaning would
 * show something other than what is used.
 */
export function isPlainLine(text: string): boolean {
  return !/[\t\n\r\u0085\u2028\u2029]/.test(text) && !hasHiddenCharacters(text);
}

/** The first `n` UTF-16 units of `s`, without splitting a surrogate pair (the half would be a lone surrogate). */
function cut(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

// `]`, then whitespace, what plainText removes (escapes, controls, invisible and format characters) or a
// codicon (`$(lock)`, `$(sync~spin)`: VS Code's progress notifications strip icons before they parse links), then `(`.
const CODICON = /\$\([A-Za-z0-9-]+(?:~[A-Za-z0-9-]+)?\)/u;
const LINK_JOIN = new RegExp(`\\](?:\\s|${ANSI.source}|${INVISIBLE.source}|${CODICON.source})*\\(`, 'gu');

/**
 * `text` where `[label](target)` is no link: VS Code's notifications open such links (`command:` ones
 * with their arguments), so a server's text shown in one must not be able to write one. A space between
 * `]` and `(` keeps every character readable and matches no link syntax (Markdown's or VS Code's).
 * What {@link plainText} removes between them goes too: an embedder that cleans the text afterwards
 * (a zero-width space or an escape between `]` and `(`) would otherwise join them into a link again; and
 * so does a codicon there, which VS Code strips from progress titles before it looks for links.
 */
export function unlinked(text: string): string {
  return text.replace(LINK_JOIN, '] (');
}

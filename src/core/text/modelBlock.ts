/**
 * Text another party wrote (a server's instructions, an app's model context) reaches a model inside a
 * block that names its author: `<tag server="name">…</tag>`. The body must not be able to end its
 * block and open one for someone else. Deleting tags from the body does not hold (a tag stripped in one
 * pass re-forms: `</x-</x>x>`), so the body is escaped instead: no `<` or `>` survives in it, nor any
 * character that may read as a delimiter (see {@link isDelimiterLookAlike}), and `&` is escaped so the
 * escape reads back unambiguously. The only angle brackets in the message are the host's own.
 *
 * Text that is not in a block but reaches the same model (tool results) keeps its angle brackets (code,
 * HTML), but not one that would open or close a tag of the host's: {@link modelText}.
 */
import { plainText } from './plainText';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

// Beyond ASCII, every opening or closing punctuation and quotation mark (‹ › 〈 〉 《 》 「 」 ❮ ❯ « » …)
// and every math or modifier symbol (≺ ⊲ ˂ ˃ …) may be read as a bracket; plus the letters and symbols
// Unicode's confusables.txt maps to `<` or `>` (Canadian syllabics ᐸ ᐳ, runic ᚲ, Miao 𖼿, Greek
// instrumental notation 𝈶 𝈷).
const DELIMITER_CLASS = /[\p{Ps}\p{Pe}\p{Pi}\p{Pf}\p{Sm}\p{Sk}\u1433\u1438\u16b2\u{16F3F}\u{1D236}\u{1D237}]/u;

/** Whether `ch` (one code point beyond ASCII) may read as a block delimiter: its compatibility form holds `<`/`>` (`＜`, `﹤`), or it is of the class above. */
export function isDelimiterLookAlike(ch: string): boolean {
  return /[<>]/.test(ch.normalize('NFKC')) || DELIMITER_CLASS.test(ch);
}

const entity = (ch: string) => ENTITIES[ch] ?? `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`;

/** `text` with `&`, `<`, `>` and every character that may read as a delimiter written as an entity. */
export function escapeBlockText(text: string): string {
  return text.replace(/[&<>]|[^\x00-\x7f]/gu, ch => (ENTITIES[ch] || isDelimiterLookAlike(ch) ? entity(ch) : ch));
}

/** Every block tag of the host starts with this (checked by {@link modelBlock}), so {@link modelText} can find them all. */
const HOST_TAG_PREFIX = 'mcp-';

// The prefix as a reader may take it: each letter itself or any letter beyond ASCII (Cyrillic `с` reads as
// `c`), then a dash of any kind (`‐`, `−` …: anything beyond ASCII that is no letter, digit or blank).
const LOOKS_LIKE_PREFIX = /^(?:m|(?![a-z])\p{L})(?:c|(?![a-z])\p{L})(?:p|(?![a-z])\p{L})(?:-|(?![\x00-\x7f])[^\p{L}\p{N}\s])/u;
// What a reader skips between a bracket and a tag name, and inside the name: blanks, slashes and combining marks, however many.
const SKIPPED = /[\s/\\\p{M}]/gu;

/** The first characters after `from` as a reader takes them: compatibility forms folded, accents, case, blanks and slashes dropped. */
function readerPrefix(text: string, from: number): string {
  let out = '';
  for (let i = from; i < text.length && out.length < HOST_TAG_PREFIX.length;) {
    const ch = String.fromCodePoint(text.codePointAt(i)!);
    i += ch.length;
    out += ch.normalize('NFKD').toLowerCase().replace(SKIPPED, '');
  }
  return out;
}

/**
 * Text of another party that reaches a model outside a block (a tool's result): cleaned ({@link plainText}:
 * controls, escapes and invisible characters removed, line breaks kept) and with every bracket that would
 * open or close a host tag (`<mcp-…`, `</ mcp-…`, in any case, full-width or look-alike, split by invisible
 * characters, combining marks or any run of blanks, the name in look-alike letters or dashes) written as an
 * entity, as block bodies are, so the text cannot end or forge a block; all other content stays as is (an
 * entity the server wrote is text already, as `&lt;` in a block body is).
 */
export function modelText(text: string): string {
  const clean = plainText(text);
  return clean.replace(/[<>]|[^\x00-\x7f]/gu, (ch: string, offset: number) => {
    if (ch !== '<' && ch !== '>' && !isDelimiterLookAlike(ch)) return ch;
    return LOOKS_LIKE_PREFIX.test(readerPrefix(clean, offset + ch.length)) ? entity(ch) : ch;
  });
}

/**
 * What a block's name attribute holds: the name with every character but ASCII letters, digits and `_.-`
 * written as `&#x…;`. Written out, not replaced: `a_b`, `a b` and `aéb` stay three names, so a server
 * cannot sign its block with another server's name by choosing one that reduces to it.
 */
export function blockName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/gu, ch => `&#x${ch.codePointAt(0)!.toString(16).toUpperCase()};`) || '_';
}

/**
 * One attributed block for a model: `body` cleaned ({@link plainText}), trimmed, escaped and cut to
 * `maxLength` characters of escaped text (escaping can only grow it, so the cap holds for what the model
 * reads), or undefined when nothing is left. `tag` is the host's own (lower-case letters and `-`).
 */
export function modelBlock(tag: string, author: string, body: string, maxLength = Infinity): string | undefined {
  if (!/^[a-z][a-z-]*$/.test(tag) || !tag.startsWith(HOST_TAG_PREFIX)) throw new Error(`not a block tag: ${tag}`);
  // Cut before cleaning too, so a huge value costs nothing.
  let text = escapeBlockText(plainText(body.slice(0, Math.min(body.length, maxLength * 2))).trim());
  if (text.length > maxLength) text = `${text.slice(0, Math.max(0, maxLength - 1)).replace(/&[#a-zA-Z0-9]*$|[\ud800-\udbff]$/, '')}…`;
  return text ? `<${tag} server="${blockName(author)}">\n${text}\n</${tag}>` : undefined;
}

/** What a message made of {@link modelBlock}s tells the model about reading them. */
export const BLOCK_ESCAPING_NOTE = 'Inside a block the less-than, greater-than and ampersand signs are written &lt; &gt; &amp;, so a tag written inside a block is text and never ends the block.';

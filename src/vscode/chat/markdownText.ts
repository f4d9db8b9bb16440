/**
 * Server-chosen text (tool names and descriptions, error messages) put into chat Markdown. A server
 * is not trusted to write Markdown into the user's chat: `[x](https://…)` links, `![](…)` images
 * that fetch a URL when shown, headings or HTML would read as ours. Text is cleaned by the core's
 * `plainText` (no escapes, bidi or invisible characters) and set in a code span.
 */
import { plainText } from '../../core';

/**
 * `s` as one line of literal text in Markdown, cut to `max` characters: a code span, since escaping is
 * not enough (the chat shows some backslash escapes as typed and linkifies bare URLs).
 */
export function markdownText(s: string, max: number): string {
  return inlineCode(plainText(s, { singleLine: true, maxLength: max }));
}

/** `s` as one inline code span: a fence longer than any backtick run inside, padded so edge backticks stay content. */
export function inlineCode(s: string): string {
  const fence = '`'.repeat(Math.max(0, ...(s.match(/`+/g) ?? []).map(r => r.length)) + 1);
  return `${fence} ${s} ${fence}`;
}

/**
 * `ui/message` from an app: text that goes into the chat input, where the user reads it and sends it
 * (or not). It comes from the server's app, so from an attacker, and the user only reviews what fits
 * on screen: a harmless first line over 400 blank-looking lines hides the real request. So a message
 * is refused unless it is short enough to read at a glance (lines and characters, after cleaning and
 * collapsing runs of spaces), and nothing in it may act as more than text once sent: the chat reads
 * `#file:…`/`#tool` as attachments and tools, `@name` as a participant and `/name` as a command or
 * prompt file (at the start of the input, and, in the chat's own parser, after any line break or space) — the app chose none of them for the user, so their leaders become
 * look-alike full-width characters the chat does not parse, and the user is told.
 */
import type { ContentBlock } from '@modelcontextprotocol/client';
import { plainText } from '../text/plainText';

/** Most lines an app's message may have (a short paragraph, all of it visible in the chat input). */
export const MAX_APP_MESSAGE_LINES = 10;
/** Most characters an app's message may have. */
export const MAX_APP_MESSAGE_CHARS = 1_000;

export type AppChatMessage =
  | { readonly text: string; /** The references made inert, as the app wrote them. */ readonly neutralised: readonly string[] }
  | { readonly refused: string };

const NAME = String.raw`[\p{L}\p{N}_.:-]`;
// `#` before a name anywhere in a word (prompt-file syntax needs no space before it); `@` and `/` at the
// start of every word, on every line: a message is short, and which positions the chat reads as a
// participant or a command is the chat's choice (and changes between versions), not ours to guess.
const HASH = new RegExp(`#(?=${NAME})`, 'gu');
const AT = new RegExp(`^@(?=${NAME})`, 'u');
const SLASH = new RegExp(`^/(?=${NAME})`, 'u');

/** The text an app may put into the chat input, or why it may not. */
export function appChatMessage(content: readonly ContentBlock[] | unknown): AppChatMessage {
  const blocks = Array.isArray(content) ? content as ContentBlock[] : [];
  const raw = blocks.flatMap(c => c?.type === 'text' && typeof c.text === 'string' ? [c.text] : []).join('\n\n');
  // Bounded before cleaning too, so a huge message costs nothing.
  if (raw.length > MAX_APP_MESSAGE_CHARS * 20) return { refused: tooLong(raw.length, 'characters') };
  const text = plainText(raw).replace(/[^\S\n]+/g, ' ').replace(/ *\n */g, '\n').trim();
  if (!text) return { refused: 'the message has no text' };
  const lines = text.split('\n').length;
  if (lines > MAX_APP_MESSAGE_LINES) return { refused: tooLong(lines, 'lines') };
  if (text.length > MAX_APP_MESSAGE_CHARS) return { refused: tooLong(text.length, 'characters') };
  const neutralised: string[] = [];
  const inert = text.replace(/\S+/g, word => {
    const out = word.replace(HASH, '\uff03').replace(AT, '\uff20').replace(SLASH, '\uff0f');
    if (out !== word) neutralised.push(word);
    return out;
  });
  return { text: inert, neutralised };
}

function tooLong(n: number, what: 'lines' | 'characters'): string {
  return `the message has ${n} ${what}; an app may put at most ${MAX_APP_MESSAGE_LINES} lines and ${MAX_APP_MESSAGE_CHARS} characters into the chat input, so that the user can read all of it before sending`;
}

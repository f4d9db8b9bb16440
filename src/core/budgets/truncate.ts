import { redact } from '../redact';
import { formatBytes } from './limits';

/**
 * `text` cut to at most `maxBytes` of UTF-8, with a marker saying how much was cut. Cuts on a
 * character boundary; cheap when the text is clearly short enough.
 */
export function truncateText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return text;
  const head = headOf(Buffer.from(text, 'utf8'), maxBytes);
  return cutMarker(head, bytes - Buffer.byteLength(head, 'utf8'));
}

/** The first `maxBytes` of `buf` as text, without a character split in half at the end. */
export function headOf(buf: Buffer, maxBytes: number): string {
  let end = Math.min(maxBytes, buf.length);
  // Step back over continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && end < buf.length && (buf[end] & 0xc0) === 0x80) end--;
  return buf.toString('utf8', 0, end);
}

export function cutMarker(head: string, cutBytes: number): string {
  return `${head}… [${formatBytes(cutBytes)} cut]`;
}

/**
 * Redacts, then cuts: cutting first could split a secret and leave its first part, which no
 * longer matches, in the text. Every cut of text that may hold a secret goes through here.
 */
export function redactThenCut(text: string, secrets: Iterable<string>, maxBytes: number): string {
  return truncateText(redact(text, secrets), maxBytes);
}

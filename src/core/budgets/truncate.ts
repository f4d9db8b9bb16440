import { formatBytes } from './limits';

/**
 * `text` cut to at most `maxBytes` of UTF-8, with a marker saying how much was cut. Cuts on a
 * character boundary; cheap when the text is clearly short enough.
 */
export function truncateText(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return text;
  return cutMarker(headOf(Buffer.from(text, 'utf8'), maxBytes), bytes - maxBytes);
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

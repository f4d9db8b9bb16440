/**
 * The parts of a `resources/read` result as bytes, kinds and file names. No `vscode` import.
 */
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { contentKind, fileNameFor, type ContentKind } from './mime';

export type ResourceContent = ReadResourceResult['contents'][number];

export interface ContentPart {
  readonly index: number;
  /** The URI the server gave this content (may differ from the one read, e.g. a directory's files). */
  readonly uri: string;
  readonly mimeType?: string;
  readonly kind: ContentKind;
  readonly fileName: string;
}

/**
 * Describes every content of a read result. `hint` is what the listing said (name for URIs without
 * a last segment, MIME type for contents that carry none).
 */
export function describeParts(result: ReadResourceResult, requestedUri: string, hint: { name?: string; mimeType?: string } = {}): ContentPart[] {
  return result.contents.map((c, index) => {
    const uri = typeof c.uri === 'string' && c.uri ? c.uri : requestedUri;
    const hasText = typeof (c as { text?: unknown }).text === 'string';
    const mimeType = c.mimeType ?? hint.mimeType;
    return { index, uri, mimeType, kind: contentKind(mimeType, hasText), fileName: fileNameFor(uri, hint.name, mimeType) };
  });
}

/** The bytes of one content: UTF-8 of `text`, or the decoded base64 `blob`. */
export function contentBytes(content: ResourceContent): Uint8Array {
  const text = (content as { text?: unknown }).text;
  if (typeof text === 'string') return new TextEncoder().encode(text);
  const blob = (content as { blob?: unknown }).blob;
  if (typeof blob === 'string') {
    const buf = Buffer.from(blob, 'base64');
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  return new Uint8Array(0);
}

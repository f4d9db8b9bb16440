/**
 * Turns a `tools/call` result into neutral parts a chat adapter can hand to a language model and
 * show to the user: text, images/audio as data, resource links and embedded resources as references,
 * `structuredContent` as JSON when the tool declares an `outputSchema`.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { modelText } from '../text/modelBlock';

export type ToolResultPart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'data'; readonly mimeType: string; readonly base64: string; readonly what: 'image' | 'audio' | 'resource' }
  | { readonly kind: 'reference'; readonly uri: string; readonly name?: string; readonly mimeType?: string; readonly text?: string };

export function toolResultParts(result: CallToolResult, tool?: Tool): ToolResultPart[] {
  const parts: ToolResultPart[] = [];
  for (const c of result.content ?? []) {
    switch (c.type) {
      case 'text': parts.push({ kind: 'text', text: c.text }); break;
      case 'image': parts.push({ kind: 'data', what: 'image', mimeType: c.mimeType, base64: c.data }); break;
      case 'audio': parts.push({ kind: 'data', what: 'audio', mimeType: c.mimeType, base64: c.data }); break;
      case 'resource_link': parts.push({ kind: 'reference', uri: c.uri, name: c.title ?? c.name, mimeType: c.mimeType, text: c.description }); break;
      case 'resource': {
        const r = c.resource;
        if ('text' in r) parts.push({ kind: 'reference', uri: r.uri, mimeType: r.mimeType, text: r.text });
        else parts.push({ kind: 'data', what: 'resource', mimeType: r.mimeType ?? 'application/octet-stream', base64: r.blob });
        break;
      }
    }
  }
  if (result.structuredContent !== undefined && (tool?.outputSchema || !parts.some(p => p.kind === 'text'))) {
    parts.push({ kind: 'text', text: JSON.stringify(result.structuredContent) });
  }
  return parts;
}

/**
 * The model's view of a result: one text per part, so `structuredContent` stays a part of its own
 * next to the content blocks; an error result starts with a part that says so (for models that do
 * not read the result's `isError`). Each text passes {@link modelText}: the content stays, but no
 * control, escape or invisible character, nor a tag that would end or forge one of the host's blocks.
 */
export function toolResultTexts(parts: readonly ToolResultPart[], isError: boolean | undefined): string[] {
  // Everything here is the server's text (a MIME type and a URI too): cleaned as every model-facing text is.
  const texts = parts.map(p => {
    switch (p.kind) {
      case 'text': return modelText(p.text);
      case 'data': return modelText(`[${p.what} ${p.mimeType}, ${Math.round(p.base64.length * 3 / 4)} bytes]`);
      case 'reference': return modelText(`[resource ${p.name ? `${p.name} ` : ''}${p.uri}${p.mimeType ? ` (${p.mimeType})` : ''}]${p.text ? `\n${p.text}` : ''}`);
    }
  });
  const body = texts.join('') ? texts : ['(no content)'];
  return isError ? ['The tool reported an error:', ...body] : body;
}

/** The same as one text (logs, the tool activity, language-model tool results). */
export function toolResultText(parts: readonly ToolResultPart[], isError: boolean | undefined): string {
  return toolResultTexts(parts, isError).join('\n');
}

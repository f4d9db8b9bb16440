/**
 * Turns a `prompts/get` result into one chat request: the text of the messages becomes the query,
 * everything that is not text becomes an attachment (images, audio, embedded resources as data;
 * `file:` resource links as references). Other resource links stay in the text as Markdown links,
 * since a chat attachment must be a file the editor can open. When the messages mix roles, each
 * gets a label so the model still sees who said what. The text is the user's message to a model, so it
 * passes the model-facing cleaner: a server cannot hide words in it nor close a host block. Pure: the VS Code layer writes the data
 * attachments to files and opens the chat.
 */
import type { GetPromptResult } from '@modelcontextprotocol/client';
import { modelText } from '../text/modelBlock';
import { isTextMime, renderBlock } from './promptMarkdown';

export type PromptChatAttachment =
  /** Content to be written to a file named `fileName` (unique within one request). */
  | { readonly kind: 'data'; readonly fileName: string; readonly mimeType: string; readonly text?: string; readonly base64?: string; readonly sourceUri?: string }
  /** An existing file the server pointed to. */
  | { readonly kind: 'file'; readonly uri: string; readonly name: string };

export interface PromptChatRequest {
  readonly text: string;
  readonly attachments: readonly PromptChatAttachment[];
}

export function promptChatRequest(result: GetPromptResult): PromptChatRequest {
  const mixed = new Set(result.messages.map(m => m.role)).size > 1;
  const names = new Set<string>();
  const unique = (base: string, ext: string) => {
    let name = `${base}${ext}`;
    for (let n = 2; names.has(name); n++) name = `${base}-${n}${ext}`;
    names.add(name);
    return name;
  };
  const attachments: PromptChatAttachment[] = [];
  const parts: string[] = [];
  let role: string | undefined;
  for (const { role: r, content } of result.messages) {
    let text: string | undefined;
    switch (content.type) {
      case 'text': text = content.text; break;
      case 'image':
      case 'audio':
        attachments.push({ kind: 'data', fileName: unique(content.type, extensionOf(content.mimeType)), mimeType: content.mimeType, base64: content.data });
        break;
      case 'resource': {
        const res = content.resource;
        const base = baseName(res.uri);
        const ext = /\.[A-Za-z0-9]{1,8}$/.test(base) ? '' : extensionOf(res.mimeType);
        const data = 'text' in res && typeof res.text === 'string'
          ? { text: res.text }
          : isTextMime(res.mimeType) ? { text: Buffer.from((res as { blob: string }).blob, 'base64').toString('utf8') } : { base64: (res as { blob: string }).blob };
        attachments.push({ kind: 'data', fileName: unique(base, ext), mimeType: res.mimeType ?? (data.text !== undefined ? 'text/plain' : 'application/octet-stream'), sourceUri: res.uri, ...data });
        break;
      }
      case 'resource_link':
        if (content.uri.startsWith('file:')) attachments.push({ kind: 'file', uri: content.uri, name: content.title ?? content.name });
        else text = renderBlock(content);
        break;
    }
    if (text === undefined) continue;
    if (mixed && r !== role) parts.push(`**${r === 'assistant' ? 'Assistant' : 'User'}:**`);
    role = r;
    // Sent in the user's name to a model: nothing in it may be invisible to them, and no bracket of it may
    // end or forge a host block (core/text/modelBlock.ts); attachments stay exact, as files they can open.
    parts.push(modelText(text));
  }
  return { text: parts.join('\n\n'), attachments };
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp', 'image/svg+xml': '.svg', 'image/bmp': '.bmp',
  'audio/wav': '.wav', 'audio/x-wav': '.wav', 'audio/mpeg': '.mp3', 'audio/mp3': '.mp3', 'audio/ogg': '.ogg', 'audio/webm': '.webm',
  'text/plain': '.txt', 'text/markdown': '.md', 'text/html': '.html', 'text/css': '.css', 'text/csv': '.csv', 'text/xml': '.xml',
  'application/json': '.json', 'application/xml': '.xml', 'application/javascript': '.js', 'text/javascript': '.js',
  'application/pdf': '.pdf', 'application/octet-stream': '.bin', 'application/yaml': '.yaml', 'application/x-yaml': '.yaml',
};

export function extensionOf(mime: string | undefined): string {
  if (!mime) return '';
  const base = mime.split(';')[0].trim().toLowerCase();
  return EXTENSIONS[base] ?? (base.endsWith('+json') ? '.json' : base.startsWith('text/') ? '.txt' : '');
}

/** Last path segment of a URI, reduced to characters that are safe in a file name. */
export function baseName(uri: string): string {
  let path = uri;
  try { path = decodeURIComponent(new URL(uri).pathname); } catch { /* not a URL: use as is */ }
  const last = path.split('/').filter(Boolean).pop() ?? '';
  return last.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '').slice(0, 80) || 'resource';
}

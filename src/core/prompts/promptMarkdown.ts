/**
 * Renders a `prompts/get` result as Markdown for a human to read (the untitled editor): a header
 * naming the prompt, server and arguments, then the messages grouped by role. Every content type
 * is rendered: text as is, images and image blobs as data-URI images, text resources (and blobs
 * with a text MIME type) in fenced blocks, resource links as links, audio and other binary data as
 * a short note. Pure: no I/O, no VS Code.
 */
import type { ContentBlock, GetPromptResult, Prompt } from '@modelcontextprotocol/client';

export interface PromptRunInfo {
  readonly server: string;
  readonly prompt: Pick<Prompt, 'name' | 'title' | 'description'>;
  /** The arguments the prompt was run with (only those that were sent). */
  readonly args: Readonly<Record<string, string>>;
}

export function renderPromptMarkdown(result: GetPromptResult, info: PromptRunInfo): string {
  const out: string[] = [`# ${oneLine(info.prompt.title ?? info.prompt.name)}`];
  const description = result.description ?? info.prompt.description;
  if (description) out.push(description.split('\n').map(l => `> ${l}`).join('\n'));
  const meta = [`- Server: ${code(info.server)}`, `- Prompt: ${code(info.prompt.name)}`];
  const args = Object.entries(info.args);
  if (args.length) meta.push(`- Arguments: ${args.map(([k, v]) => `${code(k)} = ${code(v)}`).join(', ')}`);
  out.push(meta.join('\n'));
  let role: string | undefined;
  let images = 0;
  for (const message of result.messages) {
    if (message.role !== role) {
      role = message.role;
      out.push(`## ${role === 'assistant' ? 'Assistant' : role === 'user' ? 'User' : oneLine(String(role))}`);
    }
    out.push(renderBlock(message.content, () => ++images));
  }
  if (!result.messages.length) out.push('*The prompt returned no messages.*');
  return out.join('\n\n') + '\n';
}

/** One content block as Markdown. `nextImage` numbers images for their alt text. */
export function renderBlock(block: ContentBlock, nextImage: () => number = () => 1): string {
  switch (block.type) {
    case 'text': return block.text;
    case 'image': return `![Image ${nextImage()} (${oneLine(block.mimeType)})](${dataUri(block.mimeType, block.data)})`;
    case 'audio': return `*Audio (${oneLine(block.mimeType)}, ${formatBytes(base64Bytes(block.data))}) — not shown.*`;
    case 'resource_link': {
      const label = block.title ?? block.name;
      const extra = [block.mimeType, block.size !== undefined ? formatBytes(block.size) : undefined].filter(Boolean).join(', ');
      return `**Resource link:** [${escapeLinkText(label)}](${linkTarget(block.uri)})${extra ? ` (${oneLine(extra)})` : ''}${block.description ? ` — ${oneLine(block.description)}` : ''}`;
    }
    case 'resource': {
      const r = block.resource;
      const head = `**Resource:** ${code(r.uri)}${r.mimeType ? ` (${oneLine(r.mimeType)})` : ''}`;
      if ('text' in r && typeof r.text === 'string') return `${head}\n\n${fence(r.text, languageOf(r.mimeType))}`;
      const blob = (r as { blob: string }).blob;
      if (r.mimeType?.startsWith('image/')) return `${head}\n\n![${escapeLinkText(r.uri)}](${dataUri(r.mimeType, blob)})`;
      if (isTextMime(r.mimeType)) return `${head}\n\n${fence(Buffer.from(blob, 'base64').toString('utf8'), languageOf(r.mimeType))}`;
      return `${head}\n\n*Binary content, ${formatBytes(base64Bytes(blob))} — not shown.*`;
    }
    default: return `*Unsupported content (${oneLine(String((block as { type?: unknown }).type))}).*`;
  }
}

/** A fenced code block whose fence is longer than any backtick run inside `text`. */
export function fence(text: string, language = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map(m => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${language}\n${text}${text.endsWith('\n') ? '' : '\n'}${ticks}`;
}

/** Inline code that survives backticks in the value. */
export function code(text: string): string {
  const value = oneLine(text);
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map(m => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') || value === '' ? ' ' : '';
  return `${ticks}${pad}${value}${pad}${ticks}`;
}

export function isTextMime(mime: string | undefined): boolean {
  if (!mime) return false;
  return mime.startsWith('text/') || /^application\/(json|xml|javascript|typescript|x-yaml|yaml|toml|x-sh|sql)\b/.test(mime) || /\+(json|xml)\b/.test(mime);
}

const LANGUAGES: Record<string, string> = {
  'text/plain': 'text', 'text/markdown': 'markdown', 'text/html': 'html', 'text/css': 'css', 'text/csv': 'csv',
  'text/xml': 'xml', 'application/xml': 'xml', 'application/json': 'json', 'text/javascript': 'javascript',
  'application/javascript': 'javascript', 'application/typescript': 'typescript', 'text/x-python': 'python',
  'application/x-yaml': 'yaml', 'application/yaml': 'yaml', 'text/yaml': 'yaml', 'application/x-sh': 'sh', 'application/sql': 'sql',
};

export function languageOf(mime: string | undefined): string {
  if (!mime) return '';
  const base = mime.split(';')[0].trim().toLowerCase();
  if (LANGUAGES[base]) return LANGUAGES[base];
  if (base.endsWith('+json')) return 'json';
  if (base.endsWith('+xml')) return 'xml';
  return '';
}

export function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor(clean.length * 3 / 4) - padding);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function dataUri(mime: string, base64: string): string {
  return `data:${mime.replace(/[\s()]/g, '')};base64,${base64.replace(/\s/g, '')}`;
}

function oneLine(text: string): string { return text.replace(/\s*\n\s*/g, ' '); }

function escapeLinkText(text: string): string { return oneLine(text).replace(/[[\]\\]/g, '\\$&'); }

/** Link targets with spaces or parentheses go in angle brackets (CommonMark). */
function linkTarget(uri: string): string { return /[\s()<>]/.test(uri) ? `<${uri.replace(/[<>]/g, encodeURIComponent)}>` : uri; }

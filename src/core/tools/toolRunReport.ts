/**
 * The tool runner's result document: what ran, then the result (text, structured content with the
 * output-schema verdict, images, resources) as Markdown. Everything the server wrote is cleaned and
 * fenced, so the document shows it as text: no HTML, link or `command:` URI of the server becomes
 * live, even in the Markdown preview. Pure; labels come from the embedder (translated there).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { plainText } from '../text';
import { base64Bytes, code, fence, formatBytes, languageOf } from '../prompts/promptMarkdown';

export interface ToolRunLabels {
  readonly server: string;
  readonly arguments: string;
  readonly result: string;
  readonly errorResult: string;
  readonly failed: string;
  readonly structured: string;
  readonly matchesSchema: string;
  readonly noSchema: string;
  readonly image: string;
  readonly audio: string;
  readonly resource: string;
  readonly resourceLink: string;
  readonly binary: string;
  readonly empty: string;
}

export const englishToolRunLabels: ToolRunLabels = {
  server: 'Server', arguments: 'Arguments', result: 'Result', errorResult: 'Result (the tool reported an error)',
  failed: 'The call failed', structured: 'Structured content', matchesSchema: '✓ matches the tool\'s output schema',
  noSchema: 'The tool declares no output schema.', image: 'Image', audio: 'Audio', resource: 'Embedded resource',
  resourceLink: 'Resource link', binary: 'binary, not shown', empty: '(no content)',
};

export interface ToolRun {
  readonly server: string;
  readonly tool: Pick<Tool, 'name' | 'title' | 'outputSchema'>;
  readonly args: unknown;
  /** The result, when the server answered one that passed validation. */
  readonly result?: CallToolResult;
  /** Why there is no result (the call failed, was denied, or its structured content broke the output schema). */
  readonly failure?: string;
}

const clean = (s: string) => plainText(s);
const line = (s: string) => plainText(s, { singleLine: true, maxLength: 300 });

export function renderToolRun(run: ToolRun, labels: ToolRunLabels = englishToolRunLabels): string {
  const out: string[] = [`# ${line(run.tool.title ?? run.tool.name)}`];
  out.push(`- ${labels.server}: ${code(line(run.server))}\n- Tool: ${code(line(run.tool.name))}`);
  out.push(`## ${labels.arguments}\n\n${fence(JSON.stringify(run.args ?? {}, null, 2), 'json')}`);
  if (run.failure !== undefined || !run.result) {
    out.push(`## ${labels.failed}\n\n${fence(clean(run.failure ?? ''), 'text')}`);
    return out.join('\n\n') + '\n';
  }
  const r = run.result;
  out.push(`## ${r.isError ? labels.errorResult : labels.result}`);
  let images = 0;
  for (const c of r.content ?? []) {
    switch (c.type) {
      case 'text': out.push(fence(clean(c.text), 'text')); break;
      case 'image': out.push(`**${labels.image} ${++images}** (${code(line(c.mimeType))}, ${formatBytes(base64Bytes(c.data))})${safeImage(c.mimeType, c.data)}`); break;
      case 'audio': out.push(`**${labels.audio}** (${code(line(c.mimeType))}, ${formatBytes(base64Bytes(c.data))}, ${labels.binary})`); break;
      case 'resource_link': out.push(`**${labels.resourceLink}:** ${code(line(c.uri))}${c.title ?? c.name ? ` — ${code(line(c.title ?? c.name))}` : ''}${c.mimeType ? ` (${code(line(c.mimeType))})` : ''}${c.description ? `\n\n${fence(clean(c.description), 'text')}` : ''}`); break;
      case 'resource': {
        const res = c.resource;
        const head = `**${labels.resource}:** ${code(line(res.uri))}${res.mimeType ? ` (${code(line(res.mimeType))})` : ''}`;
        out.push('text' in res && typeof res.text === 'string'
          ? `${head}\n\n${fence(clean(res.text), languageOf(res.mimeType) || 'text')}`
          : `${head} — ${formatBytes(base64Bytes((res as { blob: string }).blob))}, ${labels.binary}`);
        break;
      }
      default: out.push(fence(clean(JSON.stringify(c, null, 2)), 'json'));
    }
  }
  if (!(r.content ?? []).length) out.push(`*${labels.empty}*`);
  if (r.structuredContent !== undefined || run.tool.outputSchema) {
    // The core validated it before handing the result over (a mismatch arrives as `failure`).
    const verdict = run.tool.outputSchema ? labels.matchesSchema : labels.noSchema;
    out.push(`## ${labels.structured}\n\n${verdict}${r.structuredContent !== undefined ? `\n\n${fence(clean(JSON.stringify(r.structuredContent, null, 2)), 'json')}` : ''}`);
  }
  return out.join('\n\n') + '\n';
}

/** Raster images only, as a data URI the Markdown preview shows (SVG could carry script or links). */
function safeImage(mime: string, data: string): string {
  if (!/^image\/(png|jpeg|gif|webp)$/i.test(mime.trim()) || !/^[A-Za-z0-9+/=\s]*$/.test(data)) return '';
  return `\n\n![](data:${mime.trim().toLowerCase()};base64,${data.replace(/\s/g, '')})`;
}

/** The JSON-RPC exchange behind a run, for the "raw JSON" view. */
export function toolRunExchange(run: ToolRun): string {
  const request = { jsonrpc: '2.0', method: 'tools/call', params: { name: run.tool.name, arguments: run.args ?? {} } };
  const response = run.result ? { result: run.result } : { error: run.failure };
  return JSON.stringify({ request, response }, null, 2);
}

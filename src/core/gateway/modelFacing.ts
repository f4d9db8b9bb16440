/**
 * What the gateway passes on that its client puts before a model, cleaned as @mcp cleans it. A client
 * of the gateway is a model host (VS Code's chat, a terminal agent): it quotes a tool's description
 * and parameters in the model's request, and a result, a resource's contents and a prompt's messages
 * in the conversation. So every text a server wrote there goes through {@link modelText} (no control,
 * escape or invisible character; no bracket that opens or closes a host tag) — the rule §16 gives
 * @mcp. Left as they are: names and URIs (a client calls and reads by them, a changed one would not
 * be found), binary data, MIME types, and completion values (the user picks them into an argument).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { modelText } from '../text/modelBlock';
import { plainText } from '../text/plainText';

type Json = unknown;

/** Every string in a JSON value cleaned (structured content is read by the model as JSON text). */
function cleanJson(value: Json, depth = 0): Json {
  if (typeof value === 'string') return modelText(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(v => cleanJson(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanJson(v, depth + 1)]));
}

/** A JSON Schema with the prose in it (`title`, `description`, at any depth) cleaned; its structure stays. */
function cleanSchema(schema: Json, depth = 0): Json {
  if (depth > 64 || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map(s => cleanSchema(s, depth + 1));
  return Object.fromEntries(Object.entries(schema).map(([k, v]) =>
    [k, (k === 'title' || k === 'description') && typeof v === 'string' ? modelText(v) : cleanSchema(v, depth + 1)]));
}

/** `title` and `description` of a listed item (tool, resource, template, prompt, argument) cleaned. */
function cleanProse<T extends object>(item: T): T {
  const o = item as Record<string, unknown>;
  const out: Record<string, unknown> = { ...o };
  for (const k of ['title', 'description'] as const) if (typeof o[k] === 'string') out[k] = modelText(o[k]);
  return out as T;
}

export function cleanTool(tool: Tool): Tool {
  const t = cleanProse(tool);
  return {
    ...t,
    inputSchema: cleanSchema(tool.inputSchema) as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: cleanSchema(tool.outputSchema) as Tool['outputSchema'] } : {}),
    ...(tool.annotations ? { annotations: cleanProse(tool.annotations) } : {}),
  };
}

/** A resource's contents (`resources/read`, or embedded in a result or a message): text cleaned, blobs as sent. */
export function cleanContents<T extends object>(contents: T): T {
  const text = (contents as { text?: unknown }).text;
  return typeof text === 'string' ? { ...contents, text: modelText(text) } : contents;
}

/** One content block of a result or a prompt message. */
export function cleanBlock<T extends { type: string }>(block: T): T {
  const b = block as unknown as Record<string, unknown>;
  switch (block.type) {
    case 'text': return { ...block, text: modelText(String(b.text ?? '')) };
    case 'resource': return { ...block, resource: cleanContents(b.resource as object) };
    case 'resource_link': return cleanProse(block);
    default: return block;
  }
}

export function cleanCallResult(result: CallToolResult): CallToolResult {
  return {
    ...result,
    content: (result.content ?? []).map(cleanBlock),
    ...(result.structuredContent !== undefined ? { structuredContent: cleanJson(result.structuredContent) as Record<string, unknown> } : {}),
  };
}

export interface PromptResult { description?: string; messages: { role: string; content: { type: string } }[]; [k: string]: unknown }

export function cleanPromptResult<T extends PromptResult>(result: T): T {
  return {
    ...result,
    ...(typeof result.description === 'string' ? { description: modelText(result.description) } : {}),
    messages: result.messages.map(m => ({ ...m, content: cleanBlock(m.content) })),
  };
}

/** A listed prompt: its prose and its arguments' prose. */
export function cleanPrompt<T extends { arguments?: object[] }>(prompt: T): T {
  const p = cleanProse(prompt);
  return prompt.arguments ? { ...p, arguments: prompt.arguments.map(cleanProse) } : p;
}

export { cleanProse as cleanListed };

/** A server's instructions: cleaned, then cut to `maxLength` characters of what the model reads, never inside an entity. */
export function cleanInstructions(text: string, maxLength: number): string {
  const clean = modelText(plainText(text, { maxLength: maxLength * 2 }));
  return clean.length <= maxLength ? clean : `${clean.slice(0, maxLength - 1).replace(/&[#a-zA-Z0-9]*$|[\ud800-\udbff]$/, '')}…`;
}

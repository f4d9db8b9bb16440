/**
 * Finding a prompt, checking its arguments and getting it, with errors a user can act on. Shared by
 * the "Run Prompt" command, the per-prompt commands and `@mcp /prompt`.
 */
import type { CompleteRequest, GetPromptResult, Prompt, PromptArgument } from '@modelcontextprotocol/client';
import { ServerError } from '../connection/errors';
import type { CallOptions, ServerConnection } from '../connection/serverConnection';
import type { McpHost } from '../host';

export type PromptErrorCode = 'unknown-server' | 'not-running' | 'unknown-prompt' | 'missing-argument' | 'unknown-argument' | 'server-error';

/** A failure to run a prompt; `message` is meant for the user as it is. */
export class PromptError extends Error {
  constructor(readonly code: PromptErrorCode, message: string, readonly server?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PromptError';
  }
}

export interface FoundPrompt { readonly conn: ServerConnection; readonly prompt: Prompt; }

/** The argument's display title (the 2025-06-18 spec gives arguments an optional `title`). */
export function argumentTitle(arg: PromptArgument): string {
  const title = (arg as { title?: unknown }).title;
  return typeof title === 'string' && title ? title : arg.name;
}

/** Waits for a starting server, then looks the prompt up in its catalog. */
export async function findPrompt(host: McpHost, server: string, name: string): Promise<FoundPrompt> {
  const conn = host.get(server);
  if (!conn) {
    const names = host.servers.map(s => s.name);
    throw new PromptError('unknown-server', `No MCP server named "${server}" is configured${names.length ? ` (configured: ${names.join(', ')})` : ''}.`, server);
  }
  if (conn.state === 'starting') await conn.whenRunning().catch(() => undefined);
  if (conn.state !== 'running') {
    throw new PromptError('not-running', `MCP server "${server}" is not running (${conn.state}${conn.message ? `: ${conn.message}` : ''}); start it to use its prompts.`, server);
  }
  const prompts = conn.catalog.get('prompts');
  const prompt = prompts.find(p => p.name === name);
  if (!prompt) {
    const list = prompts.map(p => p.name);
    throw new PromptError('unknown-prompt', `MCP server "${server}" has no prompt "${name}". ${list.length ? `Its prompts: ${list.join(', ')}.` : 'It offers no prompts.'}`, server);
  }
  return { conn, prompt };
}

/**
 * Normalises arguments from callers (keybindings, other extensions, chat): numbers and booleans
 * become strings; `undefined`, `null` and `''` mean "not given" and are dropped (the spec sends
 * string values only).
 */
export function cleanArguments(args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!args || typeof args !== 'object' || Array.isArray(args)) return out;
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    if (v === undefined || v === null || v === '') continue;
    out[k] = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return out;
}

/** Throws for unknown argument names and (unless `missing` is false) missing required ones. */
export function checkArguments(server: string, prompt: Prompt, args: Readonly<Record<string, string>>, { missing: checkMissing = true } = {}): void {
  const declared = prompt.arguments ?? [];
  const unknown = Object.keys(args).filter(k => !declared.some(a => a.name === k));
  if (unknown.length) {
    throw new PromptError('unknown-argument', `Prompt "${prompt.name}" of MCP server "${server}" has no argument${unknown.length > 1 ? 's' : ''} ${unknown.map(q).join(', ')}${declared.length ? ` (its arguments: ${declared.map(a => a.name).join(', ')})` : ' (it takes no arguments)'}.`, server);
  }
  if (!checkMissing) return;
  const missing = declared.filter(a => a.required && !args[a.name]);
  if (missing.length) {
    const what = missing.map(a => `${q(a.name)}${a.description ? ` (${a.description})` : ''}`).join(', ');
    throw new PromptError('missing-argument', `Prompt "${prompt.name}" of MCP server "${server}" needs a value for ${what}.`, server);
  }
}

/** `completion/complete` parameters for one argument; earlier answers go in `context.arguments`. */
export function completionParams(prompt: string, argument: string, value: string, earlier: Readonly<Record<string, string>>): CompleteRequest['params'] {
  const params: CompleteRequest['params'] = { ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } };
  if (Object.keys(earlier).length) params.context = { arguments: { ...earlier } };
  return params;
}

/** Gets the prompt after checking its arguments; server failures become a `server-error`. */
export async function getPrompt(host: McpHost, server: string, name: string, args: Readonly<Record<string, string>>, opts?: CallOptions): Promise<FoundPrompt & { result: GetPromptResult }> {
  const { conn, prompt } = await findPrompt(host, server, name);
  checkArguments(server, prompt, args);
  try {
    return { conn, prompt, result: await conn.getPrompt(name, { ...args }, opts) };
  } catch (e) {
    const detail = e instanceof ServerError ? e.message.slice(`${e.server}: `.length).replace(/^prompts\/get failed: /, '') : e instanceof Error ? e.message : String(e);
    throw new PromptError('server-error', `MCP server "${server}" could not get prompt "${name}": ${detail}`, server, { cause: e });
  }
}

function q(s: string): string { return `"${s}"`; }

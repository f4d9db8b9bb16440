/**
 * The hook for `@mcp /prompt`: parses `/prompt server.prompt arg=value "quoted value" …` into a
 * target and arguments. Values may be quoted with "…" or '…' (backslash escapes inside "…" and
 * outside quotes); `key=value` sets an argument by name, bare words fill the prompt's arguments in
 * declared order. With the list of known prompts, dots inside server or prompt names resolve, and
 * a prompt name alone works when only one server has it.
 */
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/client';
import type { CallOptions } from '../connection/serverConnection';
import type { McpHost, Owned } from '../host';
import { findPrompt, getPrompt, PromptError, type FoundPrompt } from './promptInvocation';

export interface ParsedPromptCommand {
  readonly server: string;
  readonly prompt: string;
  /** Named arguments plus positional ones mapped onto declared arguments (when the prompt is known). */
  readonly args: Readonly<Record<string, string>>;
  /** Bare words that could not be mapped because the prompt is not known. */
  readonly positional: readonly string[];
}

export function parsePromptCommand(text: string, known?: readonly Owned<Pick<Prompt, 'name' | 'arguments'>>[]): ParsedPromptCommand {
  const tokens = tokenize(text.trim().replace(/^@mcp\b\s*/, '').replace(/^\/prompt\b\s*/, ''));
  const target = tokens.shift();
  if (!target) throw new PromptError('unknown-prompt', 'Name a prompt: /prompt <server>.<prompt> [argument=value …]');
  const { server, prompt, declared } = resolveTarget(target.value, known);
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const t of tokens) {
    const eq = t.unquotedEq;
    if (eq > 0) args[t.value.slice(0, eq)] = t.value.slice(eq + 1);
    else positional.push(t.value);
  }
  if (declared && positional.length) {
    const free = declared.map(a => a.name).filter(n => !(n in args));
    if (positional.length > free.length) {
      throw new PromptError('unknown-argument', `Prompt "${prompt}" takes ${declared.length ? `the arguments ${declared.map(a => a.name).join(', ')}` : 'no arguments'}; too many values: ${positional.slice(free.length).join(' ')}`, server);
    }
    positional.forEach((v, i) => { args[free[i]] = v; });
    return { server, prompt, args, positional: [] };
  }
  return { server, prompt, args, positional };
}

function resolveTarget(target: string, known: readonly Owned<Pick<Prompt, 'name' | 'arguments'>>[] | undefined): { server: string; prompt: string; declared?: Prompt['arguments'] } {
  if (known) {
    for (let i = target.indexOf('.'); i > 0; i = target.indexOf('.', i + 1)) {
      const server = target.slice(0, i), prompt = target.slice(i + 1);
      const hit = known.find(k => k.server === server && k.item.name === prompt);
      if (hit) return { server, prompt, declared: hit.item.arguments ?? [] };
    }
    const byName = known.filter(k => k.item.name === target);
    if (byName.length === 1) return { server: byName[0].server, prompt: target, declared: byName[0].item.arguments ?? [] };
    if (byName.length > 1) throw new PromptError('unknown-prompt', `Several servers offer a prompt "${target}" (${byName.map(k => k.server).join(', ')}); write <server>.${target}.`);
  }
  const dot = target.indexOf('.');
  if (dot <= 0 || dot === target.length - 1) {
    throw new PromptError('unknown-prompt', known
      ? `No running MCP server offers a prompt "${target}". Write /prompt <server>.<prompt> [argument=value …]`
      : `"${target}" does not name a prompt. Write /prompt <server>.<prompt> [argument=value …]`);
  }
  return { server: target.slice(0, dot), prompt: target.slice(dot + 1) };
}

interface Token { value: string; /** Index of the first `=` outside quotes, or -1. */ unquotedEq: number }

/** Shell-like words: whitespace separates, quotes group, backslash escapes (not inside '…'). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let cur: Token | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!quote && /\s/.test(c)) { if (cur) tokens.push(cur); cur = undefined; continue; }
    cur ??= { value: '', unquotedEq: -1 };
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) cur.value += text[++i];
      else cur.value += c;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\' && i + 1 < text.length) cur.value += text[++i];
    else {
      if (c === '=' && cur.unquotedEq < 0) cur.unquotedEq = cur.value.length;
      cur.value += c;
    }
  }
  if (quote) throw new PromptError('unknown-argument', `Unclosed ${quote} in: ${text}`);
  if (cur) tokens.push(cur);
  return tokens;
}

/**
 * Parses `/prompt …` against the running servers' prompts and gets the prompt: what `@mcp /prompt`
 * calls. Throws {@link PromptError} (unknown prompt, missing or unknown argument, server error).
 */
export async function getPromptFromCommand(host: McpHost, text: string, opts?: CallOptions): Promise<FoundPrompt & { command: ParsedPromptCommand; result: GetPromptResult }> {
  const parsed = parsePromptCommand(text, host.prompts);
  if (parsed.positional.length) {
    // The target is not among the known prompts; let findPrompt say why (unknown server, stopped, …).
    await findPrompt(host, parsed.server, parsed.prompt);
  }
  return { command: parsed, ...await getPrompt(host, parsed.server, parsed.prompt, parsed.args, opts) };
}

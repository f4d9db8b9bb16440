/**
 * The pure half of "Add Server…": parsing what the user typed, suggesting a name, and building a
 * declaration whose secret values are `${input:id}` references (the values go to the secret store).
 */
import { parseServers } from '../config/parse';
import type { InputDefinition, SecretValue } from './inputs';
import { inputIdFor, splitCredential, uniqueId } from './secrets';

/** Splits a command line like a POSIX shell would (quotes and backslashes; no expansion). */
export function splitCommandLine(line: string): { args: string[]; error?: undefined } | { args?: undefined; error: 'unclosedQuote' } {
  const args: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && (line[i + 1] === '"' || line[i + 1] === '\\')) cur += line[++i];
      else cur += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length && /[\s"'\\]/.test(line[i + 1])) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) args.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += c;
      inWord = true;
    }
  }
  if (quote) return { error: 'unclosedQuote' };
  if (inWord) args.push(cur);
  return { args };
}

/**
 * An npm package spec `npx` can run: a (scoped) registry name with an optional version or tag, a
 * local folder or tarball, or a `file:`/`git+`/`https:` spec.
 */
export function isPackageSpec(spec: string): boolean {
  const s = spec.trim();
  if (!s || /\s/.test(s)) return false;
  if (/^(?:file:|git\+|git:|github:|https?:\/\/)/.test(s)) return true;
  if (/^(?:\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(s)) return true;
  return /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@[^\s@/]+)?$/.test(s);
}

/** Server names: letters, digits, `_`, `-`, `.` (they become parts of tool names and command ids). */
export function isValidServerName(name: string): boolean {
  return /^[\p{L}\p{N}_.-]+$/u.test(name) && name.length <= 64;
}

/** A short name for a new server, not in `taken`: `@modelcontextprotocol/server-everything` → `everything`. */
export function suggestServerName(from: { package?: string; command?: readonly string[]; url?: string }, taken: Iterable<string> = []): string {
  let base = '';
  if (from.package) {
    const spec = from.package.trim();
    const noVersion = spec.replace(/(.)@[^/@]*$/, '$1');
    base = noVersion.split(/[\\/]/).filter(Boolean).pop() ?? '';
    base = base.replace(/\.(?:tgz|tar\.gz)$/, '');
    base = base.replace(/^(?:mcp-server-|server-|mcp-)/, '').replace(/(?:-mcp-server|-mcp|-server)$/, '');
  } else if (from.command?.length) {
    const [cmd, ...rest] = from.command;
    const script = ['node', 'python', 'python3', 'uv', 'uvx', 'npx', 'deno', 'bun', 'docker'].includes(basename(cmd).replace(/\.exe$/, ''))
      ? rest.find(a => !a.startsWith('-') && !['run', '-y', 'exec'].includes(a)) ?? cmd
      : cmd;
    base = basename(script).replace(/\.(?:m?js|cjs|ts|py|exe)$/, '').replace(/^(?:mcp-server-|server-|mcp-)/, '').replace(/(?:-mcp-server|-mcp|-server)$/, '');
  } else if (from.url) {
    try {
      const u = new URL(from.url);
      const labels = u.hostname.split('.').filter(l => !['www', 'api', 'mcp', 'com', 'org', 'net', 'io', 'dev', 'ai', 'app'].includes(l));
      base = u.hostname === '127.0.0.1' || u.hostname === 'localhost' ? `local-${u.port || 'http'}` : labels[0] ?? u.hostname;
    } catch { /* fall through */ }
  }
  base = base.replace(/[^\p{L}\p{N}_.-]+/gu, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 48) || 'server';
  return uniqueId(base, new Set(taken));
}

function basename(p: string): string {
  return p.split(/[\\/]/).filter(Boolean).pop() ?? p;
}

/** One `env` variable or header as the user entered it. */
export interface Entry {
  readonly name: string;
  readonly value: string;
  /** Store the value in the secret store and reference it as `${input:id}`. */
  readonly secret: boolean;
}

export type AddServerAnswers =
  | { readonly kind: 'npm'; readonly name: string; readonly package: string; readonly args: readonly string[]; readonly env: readonly Entry[] }
  | { readonly kind: 'command'; readonly name: string; readonly commandLine: readonly string[]; readonly env: readonly Entry[] }
  | { readonly kind: 'http'; readonly name: string; readonly url: string; readonly headers: readonly Entry[] };

export interface NewServer {
  readonly name: string;
  readonly declaration: Record<string, unknown>;
  readonly inputs: readonly InputDefinition[];
  readonly secrets: readonly SecretValue[];
  /** The core's verdict on the declaration (errors mean it must not be written). */
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

/**
 * Builds the declaration for `mcpHost.servers[answers.name]`. Secret entries become `${input:<name>.<key>}`
 * (unique among `takenInputIds`) with a password input definition; an `Authorization: Bearer …` value
 * keeps its scheme in plain text.
 */
export function buildServer(answers: AddServerAnswers, takenInputIds: Iterable<string> = []): NewServer {
  const taken = new Set(takenInputIds);
  const inputs: InputDefinition[] = [];
  const secrets: SecretValue[] = [];
  const values = (entries: readonly Entry[], what: 'env' | 'header') => Object.fromEntries(entries.map(e => {
    if (!e.secret) return [e.name, e.value];
    const { prefix, secret } = what === 'header' ? splitCredential(e.value) : { prefix: '', secret: e.value };
    const id = uniqueId(inputIdFor(answers.name, e.name), taken);
    inputs.push({ id, type: 'promptString', description: `${e.name} for MCP server "${answers.name}"`, password: true });
    // An empty secret is asked (and stored) when the server first starts.
    if (secret) secrets.push({ id, value: secret });
    return [e.name, `${prefix}\${input:${id}}`];
  }));
  let declaration: Record<string, unknown>;
  if (answers.kind === 'http') {
    declaration = { type: 'http', url: answers.url.trim() };
    if (answers.headers.length) declaration.headers = values(answers.headers, 'header');
  } else {
    const [command, ...args] = answers.kind === 'npm' ? ['npx', '-y', answers.package.trim(), ...answers.args] : answers.commandLine;
    declaration = { type: 'stdio', command, args };
    if (answers.env.length) declaration.env = values(answers.env, 'env');
  }
  const check = parseServers({ [answers.name]: declaration });
  return {
    name: answers.name, declaration, inputs, secrets,
    errors: check.problems.filter(p => p.severity === 'error').map(p => p.message),
    warnings: check.problems.filter(p => p.severity === 'warning').map(p => p.message),
  };
}

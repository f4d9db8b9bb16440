/**
 * Validates the raw `mcpHost.servers` value (VS Code does not validate settings at run time).
 * One bad server never hides the good ones: each gets its own problems.
 */
import { PROTOCOL_CHOICES, type ConfigProblem, type HttpDeclaration, type ParseResult, type ProtocolChoice, type ServerDeclaration, type StdioDeclaration } from './types';
import { checkVariables, inputIds } from './variables';
import { unlinked } from '../text/plainText';
import { parseSandbox } from './sandboxDecl';
import { parseDev } from './devDecl';
import { parseAuth } from './authDecl';
import { isSocketUrl, socketEndpoint } from './socketUrl';
import { AUTOSTART_CHOICES, isAutostart, type Autostart } from '../autostart/policy';

const STDIO_FIELDS = new Set(['type', 'command', 'args', 'env', 'envFile', 'cwd', 'sandbox', 'dev']);
const HTTP_FIELDS = new Set(['type', 'url', 'headers', 'auth']);
const COMMON_FIELDS = new Set(['disabled', 'timeout', 'startTimeout', 'protocol', 'description', 'gallery', 'version', 'roots', 'autostart']);

export function parseServers(raw: unknown): ParseResult {
  const servers: ServerDeclaration[] = [];
  const problems: ConfigProblem[] = [];
  if (raw === undefined || raw === null) return { servers, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push({ server: '', severity: 'error', message: 'The servers setting must be an object mapping server names to declarations, e.g. { "my-server": { "command": "npx", "args": ["-y", "pkg"] } }.' });
    return { servers, problems };
  }
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const own: ConfigProblem[] = [];
    const decl = parseOne(name, value, own);
    problems.push(...own);
    if (decl && !own.some(p => p.severity === 'error')) servers.push(decl);
  }
  return { servers, problems };
}

function parseOne(name: string, value: unknown, problems: ConfigProblem[]): ServerDeclaration | undefined {
  const error = (message: string, field?: string) => problems.push({ server: name, field, severity: 'error', message });
  const warn = (message: string, field?: string) => problems.push({ server: name, field, severity: 'warning', message });

  if (!name.trim()) error('A server needs a non-empty name.');
  // The name is shown in notifications, which render `[label](command:…)` as a live link: a cloned
  // repository's settings or another host's file must not write one with it. (Hidden and control
  // characters in a name are cleaned wherever it is shown, and deny rules match every spelling.)
  else if (unlinked(name) !== name) {
    error('A server\'s name cannot contain "](" (with or without characters between them): it is shown in notifications, which would make it a link. Rename it.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    error(`The declaration must be an object with "command" (local server) or "url" (remote server).`);
    return undefined;
  }
  const v = value as Record<string, unknown>;
  let type = v.type;
  if (type === undefined) {
    if (v.command !== undefined && v.url !== undefined) {
      error('Declares both "command" and "url": keep one, or set "type" to "stdio", "http" or "sse".', 'type');
      return undefined;
    }
    type = v.url !== undefined ? 'http' : v.command !== undefined ? 'stdio' : undefined;
    if (type === undefined) {
      error('Needs "command" (a program to start, e.g. "npx") or "url" (a remote server\'s address).');
      return undefined;
    }
  }
  if (type === 'streamableHttp' || type === 'streamable-http') type = 'http';
  if (type !== 'stdio' && type !== 'http' && type !== 'sse') {
    error(`"type" must be "stdio", "http" or "sse", not ${JSON.stringify(type)}.`, 'type');
    return undefined;
  }

  const disabled = v.disabled === undefined ? false : v.disabled;
  if (typeof disabled !== 'boolean') error('"disabled" must be true or false.', 'disabled');
  let timeoutMs: number | undefined;
  if (v.timeout !== undefined) {
    if (typeof v.timeout !== 'number' || !Number.isFinite(v.timeout) || v.timeout <= 0) error('"timeout" must be a positive number of seconds.', 'timeout');
    else timeoutMs = Math.round(v.timeout * 1000);
  }
  let startTimeoutMs: number | undefined;
  if (v.startTimeout !== undefined) {
    if (typeof v.startTimeout !== 'number' || !Number.isFinite(v.startTimeout) || v.startTimeout <= 0) error('"startTimeout" must be a positive number of seconds.', 'startTimeout');
    else startTimeoutMs = Math.round(v.startTimeout * 1000);
  }

  let protocol: ProtocolChoice | undefined;
  if (v.protocol !== undefined) {
    if (!PROTOCOL_CHOICES.includes(v.protocol as ProtocolChoice)) error(`"protocol" must be one of ${PROTOCOL_CHOICES.map(c => `"${c}"`).join(', ')}.`, 'protocol');
    else protocol = v.protocol as ProtocolChoice;
  }

  let autostart: Autostart | undefined;
  if (v.autostart !== undefined) {
    if (!isAutostart(v.autostart)) error(`"autostart" must be one of ${AUTOSTART_CHOICES.map(c => `"${c}"`).join(', ')}.`, 'autostart');
    else autostart = v.autostart;
  }

  const allowed = type === 'stdio' ? STDIO_FIELDS : HTTP_FIELDS;
  for (const key of Object.keys(v)) {
    if (allowed.has(key) || COMMON_FIELDS.has(key)) continue;
    if (STDIO_FIELDS.has(key) || HTTP_FIELDS.has(key)) warn(`"${key}" is ignored for a ${type} server.`, key);
    else warn(`Unknown field "${key}" is ignored.`, key);
  }

  const checkVars = (field: string, s: string) => { for (const m of checkVariables(s)) error(`${field}: ${m}.`, field); };
  const roots = v.roots === undefined ? undefined : parseRoots(v.roots, error, checkVars);
  const base = { name, disabled: disabled === true, timeoutMs, ...(startTimeoutMs !== undefined ? { startTimeoutMs } : {}), ...(roots ? { roots } : {}), ...(protocol ? { protocol } : {}), ...(autostart ? { autostart } : {}) };

  if (type === 'stdio') {
    if (typeof v.command !== 'string' || !v.command.trim()) {
      error('"command" must be a non-empty string: the program to start, e.g. "npx" or "node".', 'command');
      return undefined;
    }
    checkVars('command', v.command);
    const args = stringList(v.args, 'args', error);
    args.forEach((a, i) => checkVars(`args[${i}]`, a));
    const env = stringMap(v.env, 'env', error, true) as Record<string, string | null>;
    for (const [k, val] of Object.entries(env)) if (val !== null) checkVars(`env.${k}`, val);
    const envFile = optionalString(v.envFile, 'envFile', error);
    if (envFile) checkVars('envFile', envFile);
    // What the env file holds is part of the program's identity (approvals, trust, the cache), read before
    // anything is asked: a path known only from an answer would leave the file's content out of it.
    if (envFile && /\$\{input:/.test(envFile)) error('"envFile" cannot name an ${input:…}: write the file\'s path (${workspaceFolder}, ${userHome} or ${env:…} may start it), so that what it holds is part of what you approve.', 'envFile');
    const cwd = optionalString(v.cwd, 'cwd', error);
    if (cwd) checkVars('cwd', cwd);
    const sandbox = parseSandbox(v.sandbox, error);
    const dev = parseDev(v.dev, error);
    if (dev?.watch) checkVars('dev.watch', dev.watch);
    const decl: StdioDeclaration = { ...base, type, command: v.command, args, env, envFile, cwd, ...(sandbox ? { sandbox } : {}), ...(dev ? { dev } : {}) };
    return decl;
  }

  if (typeof v.url !== 'string' || !v.url.trim()) {
    error('"url" must be the server\'s address, e.g. "https://example.com/mcp".', 'url');
    return undefined;
  }
  checkVars('url', v.url);
  if (!v.url.includes('${')) {
    let parsed: URL | undefined;
    try { parsed = new URL(v.url); } catch { error(`"url" is not a valid URL: ${v.url}`, 'url'); }
    if (isSocketUrl(v.url)) {
      try { socketEndpoint(v.url); } catch (e) { error(`"url": ${(e as Error).message}`, 'url'); }
    } else if (parsed && parsed.protocol !== 'http:' && parsed.protocol !== 'https:') error(`"url" must start with http://, https://, unix:// (a local socket) or pipe:// (a Windows named pipe), not ${parsed.protocol}//`, 'url');
  } else if (isSocketUrl(v.url)) {
    // The socket part of a URL with variables in its request path can be checked now; the rest at start.
    const socketPart = v.url.split('#')[0];
    if (!socketPart.includes('${')) try { socketEndpoint(socketPart); } catch (e) { error(`"url": ${(e as Error).message}`, 'url'); }
  }
  const headers = stringMap(v.headers, 'headers', error, false) as Record<string, string>;
  for (const [k, val] of Object.entries(headers)) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(k)) error(`headers: "${k}" is not a valid HTTP header name.`, `headers.${k}`);
    checkVars(`headers.${k}`, val);
  }
  const auth = parseAuth(v.auth, error);
  if (auth && Object.keys(headers).some(h => h.toLowerCase() === 'authorization')) error('Declares both an Authorization header and "auth": keep one.', 'auth');
  // OAuth discovers and signs in over the network, which a socket server is not on: it takes headers.
  if (auth && isSocketUrl(v.url)) error('"auth" (OAuth) is not available for a server on a local socket: send its credential in "headers".', 'auth');
  for (const [field, value] of [['auth.clientId', auth?.clientId], ['auth.scope', auth?.scope]] as const) if (value) checkVars(field, value);
  const decl: HttpDeclaration = { ...base, type, url: v.url, headers, ...(auth ? { auth } : {}) };
  return decl;
}

function parseRoots(value: unknown, error: (m: string, f?: string) => void, checkVars: (field: string, s: string) => void): string[] {
  if (!Array.isArray(value)) {
    error('"roots" must be a list of folder paths, e.g. ["${userHome}/notes"].', 'roots');
    return [];
  }
  return value.flatMap((item, i) => {
    const field = `roots[${i}]`;
    if (typeof item !== 'string' || !item.trim()) { error(`${field} must be a folder path, not ${describe(item)}.`, field); return []; }
    // A root is shown to the server: a value asked for as a secret must not end up there.
    if (inputIds(item).length) { error(`${field}: \${input:…} is not allowed in roots (a root is sent to the server as it is).`, field); return []; }
    checkVars(field, item);
    return [item];
  });
}

function stringList(value: unknown, field: string, error: (m: string, f?: string) => void): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    error(`"${field}" must be a list of strings, e.g. ["-y", "package"].`, field);
    return [];
  }
  return value.map((item, i) => {
    if (typeof item === 'string') return item;
    if (typeof item === 'number' || typeof item === 'boolean') return String(item);
    error(`${field}[${i}] must be a string, not ${describe(item)}.`, `${field}[${i}]`);
    return '';
  });
}

function stringMap(value: unknown, field: string, error: (m: string, f?: string) => void, allowNull: boolean): Record<string, string | null> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    error(`"${field}" must be an object of name → string value pairs.`, field);
    return {};
  }
  const out: Record<string, string | null> = {};
  for (const [k, item] of Object.entries(value as Record<string, unknown>)) {
    // `{"NODE_OPTIONS=--require x --title": "y"}` would be written out as NODE_OPTIONS=…: a name with "=" is two names.
    if (/[=\0]/.test(k) || k === '') { error(`${field} has the name ${JSON.stringify(k)}: a name may not be empty or hold "=" or a NUL character.`, field); continue; }
    if (typeof item === 'string') out[k] = item;
    else if (typeof item === 'number' || typeof item === 'boolean') out[k] = String(item);
    else if (item === null && allowNull) out[k] = null;
    else error(`${field}.${k} must be a string${allowNull ? ' (or null to remove the variable)' : ''}, not ${describe(item)}.`, `${field}.${k}`);
  }
  return out;
}

function optionalString(value: unknown, field: string, error: (m: string, f?: string) => void): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !value.trim()) {
    error(`"${field}" must be a non-empty string (a path).`, field);
    return undefined;
  }
  return value;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`;
}

/** A stable key of what makes a server (re)start, so `apply()` restarts only changed servers. */
export function declarationKey(d: ServerDeclaration): string {
  // `roots` change without a restart: the server gets roots/list_changed (ServerConnection.refreshRoots).
  // Nor `autostart`: it decides when the server starts next, not what runs.
  const { roots: _roots, autostart: _autostart, ...rest } = d;
  return JSON.stringify(rest, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : val);
}

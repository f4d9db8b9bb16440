/**
 * The servers one discovered file declares, as `mcpHost.servers` declarations. The values stay as the
 * file has them (they are resolved at start like any workspace declaration's); only field names are
 * translated and fields this host would run differently are dropped (`sandbox`, `dev`, `roots`, other
 * hosts' `autoApprove`/`alwaysAllow`): a file another program writes cannot widen what its server may.
 */
import { isRecord } from '../isRecord';
import { parseJsonc } from '../onboarding/jsonc';
import { locateServers, normalizeDeclaration } from '../onboarding/importConfig';
import { parseToml, TomlError } from './toml';
import type { DiscoveryFile } from './sources';

export interface FileServers {
  /** Declarations by the name the file gives them. */
  readonly servers: Readonly<Record<string, Record<string, unknown>>>;
  /** Servers that could not be translated, with why. */
  readonly skipped: readonly { readonly name: string; readonly reason: string }[];
  /** The file as a whole cannot be read (its syntax); never quotes its content. */
  readonly error?: string;
}

/** `folders`: the open workspace folders' paths (Claude Code keeps per-project servers under them). */
export function serversOfFile(file: Pick<DiscoveryFile, 'format'>, text: string, folders: readonly string[]): FileServers {
  let raw: Record<string, unknown>;
  if (file.format === 'codexToml') {
    let doc: Record<string, unknown>;
    try { doc = parseToml(text); } catch (e) { return { servers: {}, skipped: [], error: e instanceof TomlError ? e.message : 'not valid TOML' }; }
    raw = isRecord(doc.mcp_servers) ? Object.fromEntries(Object.entries(doc.mcp_servers).map(([k, v]) => [k, codexServer(v)])) : {};
  } else {
    const parsed = parseJsonc(text);
    if (parsed.error !== undefined) return { servers: {}, skipped: [], error: parsed.error };
    raw = { ...locateServers(parsed.value)?.servers };
    if (file.format === 'claudeUser' && isRecord(parsed.value) && isRecord(parsed.value.projects)) {
      // A project's own ("local") servers override the user's of the same name, as in Claude Code.
      for (const folder of folders) {
        const project = parsed.value.projects[folder];
        // Spread, not Object.assign: a `__proto__` key in the file stays a key and never sets a prototype.
        if (isRecord(project) && isRecord(project.mcpServers)) raw = { ...raw, ...project.mcpServers };
      }
    }
  }
  const servers: [string, Record<string, unknown>][] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const normal = normalizeDeclaration(value);
    if ('reason' in normal) {
      skipped.push({ name, reason: normal.reason.kind === 'unknownType' ? `unknown type "${normal.reason.type}"` : 'not an object' });
      continue;
    }
    servers.push([name, normal.declaration]);
  }
  return { servers: Object.fromEntries(servers), skipped };
}

/**
 * `[mcp_servers.<name>]` of Codex in `mcp.json` terms. Codex passes the named environment variables
 * through (`env_vars`, `env_http_headers`, `bearer_token_env_var`); here they become `${env:NAME}`,
 * which a workspace declaration may use too.
 */
function codexServer(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const key of ['command', 'args', 'cwd', 'url'] as const) if (v[key] !== undefined) out[key] = v[key];
  const env: Record<string, unknown> = isRecord(v.env) ? { ...v.env } : {};
  if (Array.isArray(v.env_vars)) for (const name of v.env_vars) if (typeof name === 'string' && !(name in env)) env[name] = `\${env:${name}}`;
  if (Object.keys(env).length) out.env = env;
  const headers: Record<string, unknown> = isRecord(v.http_headers) ? { ...v.http_headers } : {};
  if (isRecord(v.env_http_headers)) for (const [h, name] of Object.entries(v.env_http_headers)) if (typeof name === 'string') headers[h] = `\${env:${name}}`;
  if (typeof v.bearer_token_env_var === 'string') headers.Authorization = `Bearer \${env:${v.bearer_token_env_var}}`;
  if (Object.keys(headers).length) out.headers = headers;
  if (v.enabled === false) out.disabled = true;
  if (typeof v.tool_timeout_sec === 'number') out.timeout = v.tool_timeout_sec;
  return out;
}

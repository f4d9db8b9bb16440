/**
 * Converts other hosts' MCP configurations into `mcpHost.servers` declarations: Claude Desktop's
 * `claude_desktop_config.json` and Cursor's `mcp.json` (`mcpServers`), VS Code's `mcp.json`
 * (`servers` + `inputs`), VS Code settings (`mcp.servers`) and our own settings (`mcpHost.servers`).
 *
 * Contract: nothing that looks like a secret survives in a declaration. Secret values (by name or
 * shape, see secrets.ts) in `env`, `headers`, `args` and URL query parameters become `${input:id}`
 * references with an `mcpHost.inputs` entry, and the value is returned in `secrets` for the embedder's
 * secret store. Every declaration returned passes {@link parseServers}; everything else is returned
 * in `skipped` with the reason. Notes and reasons are structured so the embedder words them.
 */
import { parseServers } from '../config/parse';
import { parseJsonc } from './jsonc';
import { type InputDefinition, readInputList, referencedInputs, renameInput, sameInput, type SecretValue } from './inputs';
import { inputIdFor, isHarmlessValue, isSecretEntry, isSecretName, looksLikeToken, splitCredential, uniqueId } from './secrets';
import { isRecord } from '../isRecord';

export type ConfigFormat = 'mcpServers' | 'servers' | 'vscodeSettings' | 'mcpHostSettings';

/** What changed while converting one server. */
export type ConversionNote =
  /** A secret value was moved to secret storage; `field` is e.g. `env.API_KEY`, `headers.Authorization`, `args[2]`, `url`. */
  | { readonly kind: 'secretMoved'; readonly field: string; readonly input: string }
  /** A field this host does not support was left out. */
  | { readonly kind: 'fieldDropped'; readonly field: string }
  /** A field was renamed to its `mcp.json` name (`serverUrl` → `url`, `transport` → `type`). */
  | { readonly kind: 'fieldRenamed'; readonly from: string; readonly to: string }
  /** An input of the file was given another id because settings already define `from` differently. */
  | { readonly kind: 'inputRenamed'; readonly from: string; readonly to: string }
  /** `${input:id}` without a definition in the file: asked with a generic prompt on first start. */
  | { readonly kind: 'inputUndefined'; readonly input: string }
  /** An input of a type this host cannot replay (e.g. `command`): asked as text on first start. */
  | { readonly kind: 'inputUnsupported'; readonly input: string; readonly type: string };

export type SkipReason =
  | { readonly kind: 'notAnObject' }
  | { readonly kind: 'unknownType'; readonly type: string }
  /** The converted declaration does not validate; `problems` are the core's messages. */
  | { readonly kind: 'invalid'; readonly problems: readonly string[] };

export interface ConvertedServer {
  readonly name: string;
  readonly type: 'stdio' | 'http' | 'sse';
  /** The value for `mcpHost.servers[name]`: no secret in it. */
  readonly declaration: Record<string, unknown>;
  /** `mcpHost.inputs` entries this declaration needs that settings do not already have. */
  readonly inputs: readonly InputDefinition[];
  /** Values for the secret store, by input id. */
  readonly secrets: readonly SecretValue[];
  readonly notes: readonly ConversionNote[];
  /** Validation warnings of the core (ignored fields and the like). */
  readonly warnings: readonly string[];
}

export interface ConversionResult {
  readonly format?: ConfigFormat;
  readonly servers: readonly ConvertedServer[];
  readonly skipped: readonly { readonly name: string; readonly reason: SkipReason }[];
  /** The file as a whole could not be used. */
  readonly error?: { readonly kind: 'json'; readonly message: string } | { readonly kind: 'noServers' };
}

export interface ConvertOptions {
  /** Where the file comes from, for input descriptions ("Claude Desktop"). */
  readonly source?: string;
  /** `mcpHost.inputs` as it is now: identical definitions are reused, other ids are not overwritten. */
  readonly existingInputs?: unknown;
}

const STDIO_KEEP = ['command', 'args', 'env', 'envFile', 'cwd'] as const;
const HTTP_KEEP = ['url', 'headers'] as const;
const COMMON_KEEP = ['disabled', 'timeout', 'description'] as const;
/** Fields of other hosts that mean nothing here and are dropped without a note. */
const SILENT_DROP = new Set(['gallery', 'version', 'metadata']);

export function convertConfigText(text: string, options: ConvertOptions = {}): ConversionResult {
  const parsed = parseJsonc(text);
  if (parsed.error !== undefined) return { servers: [], skipped: [], error: { kind: 'json', message: parsed.error } };
  return convertConfig(parsed.value, options);
}

/** Finds the servers (and inputs) in a parsed configuration file of any supported format. */
export function locateServers(value: unknown): { format: ConfigFormat; servers: Record<string, unknown>; inputs: unknown } | undefined {
  if (!isRecord(value)) return undefined;
  if (isRecord(value.mcpServers)) return { format: 'mcpServers', servers: value.mcpServers, inputs: value.inputs };
  if (isRecord(value.servers)) return { format: 'servers', servers: value.servers, inputs: value.inputs };
  if (isRecord(value.mcp) && isRecord(value.mcp.servers)) return { format: 'vscodeSettings', servers: value.mcp.servers, inputs: value.mcp.inputs };
  if (isRecord(value['mcpHost.servers'])) return { format: 'mcpHostSettings', servers: value['mcpHost.servers'], inputs: value['mcpHost.inputs'] };
  return undefined;
}

export function convertConfig(value: unknown, options: ConvertOptions = {}): ConversionResult {
  const found = locateServers(value);
  if (!found || !Object.keys(found.servers).length) return { format: found?.format, servers: [], skipped: [], error: { kind: 'noServers' } };
  const source = options.source ?? 'another MCP host';

  const existing = readInputList(options.existingInputs);
  const fileInputs = new Map(readInputList(found.inputs).map(i => [i.id, i]));
  // Ids that new inputs must not take: those in settings and those the file defines.
  const taken = new Set<string>([...existing.map(i => i.id), ...fileInputs.keys()]);
  // A file input keeps one resolution for every server that uses it.
  const resolvedFileInputs = new Map<string, { id: string; definition?: InputDefinition; note?: ConversionNote }>();
  const resolveFileInput = (id: string) => {
    let r = resolvedFileInputs.get(id);
    if (r) return r;
    const def = fileInputs.get(id);
    if (!def) {
      r = { id, note: { kind: 'inputUndefined', input: id } };
    } else if (def.type !== 'promptString' && def.type !== 'pickString') {
      r = { id, note: { kind: 'inputUnsupported', input: id, type: String(def.type) } };
    } else {
      const clean = cleanInput(def);
      const same = existing.find(e => e.id === id);
      if (!same) r = { id, definition: clean };
      else if (sameInput(same, clean)) r = { id };
      else {
        const to = uniqueId(id, taken);
        r = { id: to, definition: { ...clean, id: to }, note: { kind: 'inputRenamed', from: id, to } };
      }
    }
    resolvedFileInputs.set(id, r);
    return r;
  };

  const servers: ConvertedServer[] = [];
  const skipped: { name: string; reason: SkipReason }[] = [];
  for (const [name, raw] of Object.entries(found.servers)) {
    const one = convertOne(name, raw, source, taken);
    if ('reason' in one) { skipped.push({ name, reason: one.reason }); continue; }
    let declaration = one.declaration;
    const inputs = [...one.inputs];
    const notes = [...one.notes];
    const own = new Set(one.inputs.map(i => i.id));
    for (const id of referencedInputs(declaration)) {
      if (own.has(id)) continue;
      const r = resolveFileInput(id);
      if (r.id !== id) declaration = renameInput(declaration, id, r.id);
      if (r.definition && !inputs.some(i => i.id === r.id)) inputs.push(r.definition);
      if (r.note) notes.push(r.note);
    }
    const check = parseServers({ [name]: declaration });
    const errors = check.problems.filter(p => p.severity === 'error').map(p => p.message);
    if (errors.length || !check.servers.length) { skipped.push({ name, reason: { kind: 'invalid', problems: errors } }); continue; }
    servers.push({
      name, type: check.servers[0].type, declaration, inputs, secrets: one.secrets, notes,
      warnings: check.problems.filter(p => p.severity === 'warning').map(p => p.message),
    });
  }
  return { format: found.format, servers, skipped };
}

interface Draft {
  declaration: Record<string, unknown>;
  inputs: InputDefinition[];
  secrets: SecretValue[];
  notes: ConversionNote[];
}

/**
 * Another host's declaration in this host's field names: `serverUrl`/`transport` renamed, the type
 * spelled as here, and only the fields this host runs kept (everything else is noted as dropped, so
 * a file cannot smuggle `sandbox`, `dev` or another host's `autoApprove` in). Values are untouched.
 */
export function normalizeDeclaration(raw: unknown): { declaration: Record<string, unknown>; notes: ConversionNote[] } | { reason: SkipReason } {
  if (!isRecord(raw)) return { reason: { kind: 'notAnObject' } };
  const v: Record<string, unknown> = { ...raw };
  const notes: ConversionNote[] = [];
  for (const [from, to] of [['serverUrl', 'url'], ['transport', 'type'], ['transportType', 'type']] as const) {
    if (v[from] !== undefined && v[to] === undefined) {
      v[to] = v[from];
      notes.push({ kind: 'fieldRenamed', from, to });
    }
    if (from in v) delete v[from];
  }
  let type: 'stdio' | 'http' | 'sse';
  const t = typeof v.type === 'string' ? v.type.toLowerCase().replace(/[-_]/g, '') : v.type;
  if (t === undefined) type = v.url !== undefined && v.command === undefined ? 'http' : 'stdio';
  else if (t === 'stdio') type = 'stdio';
  else if (t === 'http' || t === 'streamablehttp') type = 'http';
  else if (t === 'sse') type = 'sse';
  else return { reason: { kind: 'unknownType', type: String(v.type) } };

  const declaration: Record<string, unknown> = {};
  if (v.type !== undefined) declaration.type = type;
  const keep: readonly string[] = [...(type === 'stdio' ? STDIO_KEEP : HTTP_KEEP), ...COMMON_KEEP];
  for (const key of keep) if (v[key] !== undefined) declaration[key] = v[key];
  for (const key of Object.keys(v)) {
    if (key === 'type' || keep.includes(key) || SILENT_DROP.has(key)) continue;
    notes.push({ kind: 'fieldDropped', field: key });
  }
  return { declaration, notes };
}

function convertOne(name: string, raw: unknown, source: string, taken: Set<string>): Draft | { reason: SkipReason } {
  const normal = normalizeDeclaration(raw);
  if ('reason' in normal) return normal;
  const { declaration, notes } = normal;

  const inputs: InputDefinition[] = [];
  const secrets: SecretValue[] = [];
  const hide = (field: string, label: string, value: string): string => {
    const id = uniqueId(inputIdFor(name, label), taken);
    inputs.push({ id, type: 'promptString', description: `${label} for MCP server "${name}" (imported from ${source})`, password: true });
    secrets.push({ id, value });
    notes.push({ kind: 'secretMoved', field, input: id });
    return `\${input:${id}}`;
  };

  if (isRecord(declaration.env)) {
    const env: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(declaration.env)) {
      env[k] = typeof val === 'string' && isSecretEntry(k, val) ? hide(`env.${k}`, k, val) : val;
    }
    declaration.env = env;
  }
  if (isRecord(declaration.headers)) {
    const headers: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(declaration.headers)) {
      if (typeof val !== 'string' || !isSecretEntry(k, val) && !splitCredential(val).prefix) { headers[k] = val; continue; }
      const { prefix, secret } = splitCredential(val);
      headers[k] = isHarmlessValue(secret) ? val : prefix + hide(`headers.${k}`, k, secret);
    }
    declaration.headers = headers;
  }
  if (Array.isArray(declaration.args)) {
    const args = [...declaration.args] as unknown[];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      if (typeof a !== 'string') continue;
      const flag = /^(--?[A-Za-z][\w-]*)=(.+)$/.exec(a);
      if (flag && isSecretEntry(flag[1], flag[2])) {
        args[i] = `${flag[1]}=${hide(`args[${i}]`, flag[1].replace(/^-+/, ''), flag[2])}`;
      } else if (/^--?[A-Za-z][\w-]*$/.test(a) && isSecretName(a) && typeof args[i + 1] === 'string') {
        const next = args[i + 1] as string;
        if (!next.startsWith('-') && !isHarmlessValue(next)) {
          args[i + 1] = hide(`args[${i + 1}]`, a.replace(/^-+/, ''), next);
          i++;
        }
      } else if (looksLikeToken(a)) {
        args[i] = hide(`args[${i}]`, `arg${i}`, a);
      }
    }
    declaration.args = args;
  }
  if (typeof declaration.url === 'string') {
    declaration.url = declaration.url.replace(/([?&])([^=&#]+)=([^&#]*)/g, (whole, sep: string, key: string, val: string) => {
      let decoded = val;
      try { decoded = decodeURIComponent(val); } catch { /* keep raw */ }
      return isSecretEntry(key, decoded) ? `${sep}${key}=${hide('url', key, decoded)}` : whole;
    });
  }
  return { declaration, inputs, secrets, notes };
}

function cleanInput(def: { id: string; [key: string]: unknown }): InputDefinition {
  return {
    id: def.id,
    type: def.type === 'pickString' ? 'pickString' : 'promptString',
    ...(typeof def.description === 'string' ? { description: def.description } : {}),
    ...(def.password === true ? { password: true } : {}),
    ...(typeof def.default === 'string' ? { default: def.default } : {}),
    ...(Array.isArray(def.options) ? { options: def.options.map(o => typeof o === 'string' ? o : isRecord(o) && typeof o.value === 'string' ? o.value : String(o)) } : {}),
  };
}

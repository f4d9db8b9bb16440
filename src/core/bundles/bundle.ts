/**
 * MCP bundles (`.mcpb`: a zip with `manifest.json`): open and check one (sha256 when the source gives
 * one, the zip's safety, the manifest against `@anthropic-ai/mcpb`'s schema), unpack it into a folder
 * of our storage, and declare its server. The manifest is the bundle author's: its `mcp_config` may use
 * the bundle's own variables (`${__dirname}`, `${user_config.x}`, `${HOME}`, `${/}`), nothing of ours.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { parseServers } from '../config/parse';
import type { NewServer } from '../onboarding/addServer';
import type { InputDefinition } from '../onboarding/inputs';
import { inputIdFor, uniqueId } from '../onboarding/secrets';
import { plainText } from '../text/plainText';
import { entryTarget, readZip, ZipError, type ZipEntry, type ZipLimits } from './zip';

export class BundleError extends Error {
  constructor(message: string) { super(message); this.name = 'BundleError'; }
}

export interface BundleManifest {
  readonly name: string;
  readonly display_name?: string;
  readonly version: string;
  readonly description: string;
  readonly server: { readonly type: string; readonly entry_point: string; readonly mcp_config?: { readonly command: string; readonly args?: readonly string[]; readonly env?: Readonly<Record<string, string>> } };
  readonly user_config?: Readonly<Record<string, { readonly type: string; readonly title: string; readonly description: string; readonly required?: boolean; readonly sensitive?: boolean; readonly default?: unknown }>>;
}

export interface OpenedBundle {
  readonly manifest: BundleManifest;
  readonly entries: readonly ZipEntry[];
  readonly sha256: string;
}

/** Checks a bundle's bytes; rejects with a BundleError saying what is wrong. */
export async function openBundle(bytes: Buffer, expectedSha256?: string, limits?: ZipLimits): Promise<OpenedBundle> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (expectedSha256 !== undefined && sha256 !== expectedSha256.trim().toLowerCase()) {
    throw new BundleError(`its SHA-256 is ${sha256}, not the expected ${expectedSha256.trim()}: the file is not the one that was published.`);
  }
  let entries: ZipEntry[];
  try { entries = readZip(bytes, limits); } catch (e) {
    throw new BundleError(e instanceof ZipError ? `the archive is unsafe or damaged: ${e.message}` : String(e));
  }
  const manifestEntry = entries.find(e => e.name === 'manifest.json');
  if (!manifestEntry) throw new BundleError('it has no manifest.json at its top level.');
  let raw: unknown;
  try { raw = JSON.parse(manifestEntry.data.toString('utf8')); } catch { throw new BundleError('its manifest.json is not JSON.'); }
  // The package is an ES module; only its schemas are loaded (they bring their own zod 3, ~64 KiB minified).
  const schemas = await import('@anthropic-ai/mcpb/schemas');
  const declared = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).manifest_version ?? (raw as Record<string, unknown>).dxt_version : undefined;
  type Schema = { safeParse(v: unknown): { success: true; data: unknown } | { success: false; error: { issues: { path: (string | number)[]; message: string }[] } } };
  const byVersion: Record<string, Schema> = { '0.1': schemas.v0_1.McpbManifestSchema, '0.2': schemas.v0_2.McpbManifestSchema, '0.3': schemas.v0_3.McpbManifestSchema, '0.4': schemas.v0_4.McpbManifestSchema };
  const schema = typeof declared === 'string' ? byVersion[declared] : undefined;
  if (!schema) throw new BundleError(`its manifest.json has manifest_version ${JSON.stringify(declared)}; supported are ${Object.keys(byVersion).join(', ')}.`);
  const checked = schema.safeParse(raw);
  if (!checked.success) {
    const issues = checked.error.issues.slice(0, 5).map(i => `${i.path.join('.') || '(manifest)'}: ${i.message}`).join('; ');
    throw new BundleError(`its manifest.json is not a valid MCP bundle manifest (${issues}).`);
  }
  const manifest = checked.data as unknown as BundleManifest;
  if (!manifest.server.mcp_config) throw new BundleError('its manifest does not say how to start the server (server.mcp_config).');
  return { manifest, entries, sha256 };
}

/**
 * The folder of one install: the server name, the first 16 hex digits of the bundle's SHA-256 and a
 * random part. Never reused: two installs of one bundle (from two workspaces, whose server names can
 * be equal) get two folders, so removing one never removes the other's files, and new code never
 * lands where an older declaration runs.
 */
export function installFolderName(name: string, sha256: string): string {
  return `${name}-${sha256.slice(0, 16)}-${randomBytes(4).toString('hex')}`;
}

/** A server name from the manifest's name (`@acme/files` → `acme-files`). */
export function bundleServerName(manifest: BundleManifest, taken: Iterable<string>): string {
  const base = manifest.name.replace(/[^\p{L}\p{N}_.-]+/gu, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 56) || 'bundle';
  return uniqueId(base, new Set(taken));
}

/**
 * The declaration that runs the unpacked bundle in `dir`. `${user_config.x}` becomes an input
 * (`password` when sensitive); `${__dirname}` the folder; `${HOME}` ours `${userHome}`.
 */
export function bundleDeclaration(manifest: BundleManifest, dir: string, name: string, takenInputIds: Iterable<string> = []): NewServer {
  const taken = new Set(takenInputIds);
  const errors: string[] = [];
  const inputs: InputDefinition[] = [];
  const ids = new Map<string, string>();
  const inputFor = (key: string): string => {
    const option = manifest.user_config?.[key];
    if (!option) { errors.push(`the manifest uses \${user_config.${key}} but declares no such user_config.`); return ''; }
    let id = ids.get(key);
    if (!id) {
      id = uniqueId(inputIdFor(name, key), taken);
      ids.set(key, id);
      const description = plainText(`${option.title}: ${option.description}`, { singleLine: true, maxLength: 200 });
      const fallback = option.default !== undefined && !option.sensitive && typeof option.default !== 'object' ? { default: String(option.default) } : {};
      inputs.push(option.type === 'boolean'
        ? { id, type: 'pickString', description, options: ['true', 'false'], ...fallback }
        : { id, type: 'promptString', description, ...(option.sensitive ? { password: true } : {}), ...fallback });
    }
    return `\${input:${id}}`;
  };
  const substitute = (value: string, field: string): string => value.replace(/\$\{([^}]*)\}/g, (whole, v: string) => {
    if (v === '__dirname') return dir;
    if (v === 'HOME') return '${userHome}';
    if (v === '/' || v === 'pathSeparator') return path.sep;
    if (v.startsWith('user_config.')) return inputFor(v.slice('user_config.'.length));
    errors.push(`${field} uses \${${v}}, which a bundle may not use.`);
    return whole;
  });
  const config = manifest.server.mcp_config!;
  const declaration: Record<string, unknown> = {
    type: 'stdio',
    command: substitute(config.command, 'command'),
    args: (config.args ?? []).map((a, i) => substitute(a, `args[${i}]`)),
    cwd: dir,
  };
  if (config.env && Object.keys(config.env).length) {
    declaration.env = Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, substitute(v, `env.${k}`)]));
  }
  const check = errors.length ? { problems: [] } : parseServers({ [name]: declaration });
  return {
    name, declaration, inputs, secrets: [],
    errors: [...errors, ...check.problems.filter(p => p.severity === 'error').map(p => p.message)],
    warnings: check.problems.filter(p => p.severity === 'warning').map(p => p.message),
  };
}

/** Writes the bundle's files into `dir` (which must not exist yet); every path is checked to stay inside. */
export async function unpackBundle(bundle: OpenedBundle, dir: string): Promise<void> {
  await fs.mkdir(path.dirname(dir), { recursive: true });
  await fs.mkdir(dir); // fails when the folder exists: an install never writes into another bundle's files
  try {
    for (const e of bundle.entries) {
      const target = entryTarget(dir, e.name);
      if (e.name.endsWith('/')) { await fs.mkdir(target, { recursive: true }); continue; }
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, e.data, { flag: 'wx', mode: e.mode && e.mode & 0o111 ? 0o755 : 0o644 });
    }
  } catch (e) {
    await fs.rm(dir, { recursive: true, force: true });
    throw e;
  }
}

/** Removes an unpacked bundle, only when `dir` is directly inside `bundlesRoot`. */
export async function removeBundle(bundlesRoot: string, dir: string): Promise<void> {
  const root = path.resolve(bundlesRoot);
  const target = path.resolve(dir);
  if (path.dirname(target) !== root) throw new BundleError(`${target} is not an installed bundle's folder.`);
  await fs.rm(target, { recursive: true, force: true });
}

/**
 * Policy files: VS Code's Linux policy file (`/etc/vscode/policy.json`, which desktop VS Code reads
 * and code-server does not) and any file an administrator names in `MCP_HOST_POLICY_FILE`. Both use
 * the policy names of MCP Host's settings (`McpHostDeny` …), with list values as JSON arrays or as the
 * JSON text VS Code's policy formats use. A file that exists but cannot be read or parsed refuses every
 * server ("access: none"): a broken policy must not open what it was written to close.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import * as path from 'node:path';
import { POLICY_ACCESS, type PolicyAccess, type PolicyValues } from './types';
import type { PolicySource } from './merge';

export const LINUX_POLICY_FILE = '/etc/vscode/policy.json';
/** Policy names (the `policy.name` of each setting in package.json). */
export const POLICY_NAMES = {
  access: 'McpHostAccess',
  allow: 'McpHostAllow',
  deny: 'McpHostDeny',
  requireSandbox: 'McpHostRequireSandbox',
  registryUrl: 'McpHostRegistryUrl',
  authorizationServers: 'McpHostAuthorizationServers',
} as const;

const MAX_BYTES = 1024 * 1024;

/** The policy files that apply on this machine, administrators' own first: VS Code's Linux file, then `MCP_HOST_POLICY_FILE` (absolute paths, separated like PATH). */
export function policyFiles(env: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform): string[] {
  const extra = (env.MCP_HOST_POLICY_FILE ?? '').split(path.delimiter).filter(f => path.isAbsolute(f));
  return [...(platform === 'linux' ? [LINUX_POLICY_FILE] : []), ...extra];
}

/** Every policy file's values, in {@link policyFiles} order. */
export function readPolicyFiles(env?: Readonly<Record<string, string | undefined>>): PolicySource[] {
  return policyFiles(env).map(readPolicyFile).filter((s): s is PolicySource => s !== undefined);
}

/** The file's values, undefined when it does not exist; read synchronously (the early start needs it before anything runs). */
export function readPolicyFile(file: string): PolicySource | undefined {
  let text: string;
  try {
    text = readSmallFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return refuseAll(file, e instanceof Error ? e.message : String(e));
  }
  let json: unknown;
  try { json = JSON.parse(text); } catch (e) { return refuseAll(file, `not JSON (${(e as Error).message})`); }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return refuseAll(file, 'not a JSON object of policy names');
  const values = policyValues(json as Record<string, unknown>);
  return typeof values === 'string' ? refuseAll(file, values) : { label: file, values };
}

/** Values by policy name (from a file) or by setting key (`access`, `allow`…); a sentence when one is malformed. */
export function policyValues(o: Readonly<Record<string, unknown>>, names: Readonly<Record<keyof typeof POLICY_NAMES, string>> = POLICY_NAMES): PolicyValues | string {
  const out: { -readonly [K in keyof PolicyValues]: PolicyValues[K] } = {};
  const get = (k: keyof typeof POLICY_NAMES) => o[names[k]];
  const list = (k: 'allow' | 'deny' | 'authorizationServers'): readonly string[] | undefined | string => {
    let v = get(k);
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') { try { v = JSON.parse(v); } catch { return `${names[k]} must be a list of strings`; } }
    return Array.isArray(v) && v.every(x => typeof x === 'string') ? v : `${names[k]} must be a list of strings`;
  };
  const access = get('access');
  if (access !== undefined && access !== null && access !== '') {
    if (!POLICY_ACCESS.includes(access as PolicyAccess)) return `${names.access} must be one of ${POLICY_ACCESS.join(', ')}`;
    out.access = access as PolicyAccess;
  }
  for (const k of ['allow', 'deny', 'authorizationServers'] as const) {
    const v = list(k);
    if (typeof v === 'string') return v;
    if (v) out[k] = v;
  }
  const sandbox = get('requireSandbox');
  if (sandbox !== undefined && sandbox !== null) {
    if (typeof sandbox !== 'boolean') return `${names.requireSandbox} must be true or false`;
    out.requireSandbox = sandbox;
  }
  const registry = get('registryUrl');
  if (registry !== undefined && registry !== null && registry !== '') {
    if (typeof registry !== 'string' || !/^https:\/\//i.test(registry)) return `${names.registryUrl} must be an https:// URL`;
    out.registryUrl = registry;
  }
  return out;
}

function refuseAll(file: string, why: string): PolicySource {
  return { label: `${file} (unreadable: ${why}; every server is refused until it is fixed)`, values: { access: 'none' } };
}

/** A regular file of at most 1 MB; a FIFO or device is refused without blocking. */
function readSmallFile(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error('not a regular file');
    if (st.size > MAX_BYTES) throw new Error(`larger than ${MAX_BYTES} bytes`);
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < st.size) { const n = readSync(fd, buf, at, st.size - at, at); if (n === 0) break; at += n; }
    return buf.subarray(0, at).toString('utf8');
  } finally { closeSync(fd); }
}

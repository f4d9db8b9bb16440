/** Validates a stdio declaration's `sandbox` field: `true`, `false`, or rules (see `SandboxDeclaration`). */
import type { SandboxDeclaration } from './types';

type ErrorSink = (message: string, field?: string) => void;

const FS_KEYS = ['allowWrite', 'allowRead', 'denyRead', 'denyWrite'] as const;
const NET_KEYS = ['allowedDomains', 'deniedDomains'] as const;
// A host name, optionally `*.`-prefixed (srt's wildcard form), optionally `:port` (else 443); no scheme or path.
const DOMAIN = /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*(:([1-9]\d{0,4}))?$/;

export function parseSandbox(value: unknown, error: ErrorSink): SandboxDeclaration | undefined {
  if (value === undefined || value === false) return undefined;
  const empty: SandboxDeclaration = { filesystem: { allowWrite: [], allowRead: [], denyRead: [], denyWrite: [] }, network: { deniedDomains: [] } };
  if (value === true) return empty;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    error('"sandbox" must be true, or an object with "filesystem" ({ allowWrite, allowRead, denyRead, denyWrite }) and/or "network" ({ allowedDomains, deniedDomains }).', 'sandbox');
    return undefined;
  }
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (key !== 'filesystem' && key !== 'network') error(`sandbox: unknown field "${key}"; use "filesystem" or "network".`, `sandbox.${key}`);
  }
  const section = (name: 'filesystem' | 'network', keys: readonly string[]): Record<string, unknown> => {
    const s = v[name];
    if (s === undefined) return {};
    if (typeof s !== 'object' || s === null || Array.isArray(s)) { error(`sandbox.${name} must be an object.`, `sandbox.${name}`); return {}; }
    for (const key of Object.keys(s)) if (!keys.includes(key)) error(`sandbox.${name}: unknown field "${key}"; use ${keys.map(k => `"${k}"`).join(', ')}.`, `sandbox.${name}.${key}`);
    return s as Record<string, unknown>;
  };
  const fs = section('filesystem', FS_KEYS);
  const net = section('network', NET_KEYS);
  const list = (field: string, raw: unknown, check: (s: string) => string | undefined): string[] => {
    if (raw === undefined) return [];
    if (!Array.isArray(raw)) { error(`${field} must be a list of strings.`, field); return []; }
    const out: string[] = [];
    raw.forEach((item, i) => {
      const problem = typeof item !== 'string' || !item.trim() ? 'must be a non-empty string' : check(item);
      if (problem) error(`${field}[${i}] ${problem}.`, `${field}[${i}]`);
      else out.push(item as string);
    });
    return out;
  };
  // Relative paths would be read against whatever directory srt happens to run in.
  const pathCheck = (s: string) => s.startsWith('/') || s.startsWith('~/') || s === '~' || /^[A-Za-z]:[\\/]/.test(s) ? undefined : `must be an absolute path or start with "~/", not ${JSON.stringify(s)}`;
  const domainCheck = (s: string) => DOMAIN.test(s) ? undefined : `must be a host name such as "registry.npmjs.org" or "*.example.com", not ${JSON.stringify(s)}`;
  const allowedDomains = net.allowedDomains === undefined ? undefined : list('sandbox.network.allowedDomains', net.allowedDomains, domainCheck);
  return {
    filesystem: {
      allowWrite: list('sandbox.filesystem.allowWrite', fs.allowWrite, pathCheck),
      allowRead: list('sandbox.filesystem.allowRead', fs.allowRead, pathCheck),
      denyRead: list('sandbox.filesystem.denyRead', fs.denyRead, pathCheck),
      denyWrite: list('sandbox.filesystem.denyWrite', fs.denyWrite, pathCheck),
    },
    network: { ...(allowedDomains ? { allowedDomains } : {}), deniedDomains: list('sandbox.network.deniedDomains', net.deniedDomains, domainCheck) },
  };
}

/**
 * The user's sampling settings, validated here because VS Code does not validate setting values at
 * run time. `mcpHost.sampling` is keyed by server name; the key "*" holds defaults that every
 * server's entry overrides field by field. Unknown or malformed values become problems and fall back
 * to the safe default (policy "ask").
 */

export type SamplingPolicy = 'ask' | 'allow' | 'deny';

/** Key of the defaults entry in `mcpHost.sampling`. */
export const SAMPLING_DEFAULTS_KEY = '*';
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 10;

export interface ServerSamplingSettings {
  readonly policy: SamplingPolicy;
  /** Model references (id, vendor/id, family or name, case-insensitive); absent = every model. */
  readonly allowedModels?: readonly string[];
  /** Used when the server's hints match nothing. */
  readonly defaultModel?: string;
  /** Requests per minute for this server; 0 = unlimited. */
  readonly rateLimit: number;
}

export interface SamplingSettings {
  forServer(server: string): ServerSamplingSettings;
  /** The server names (not "*") whose policy is "allow": each is bound to its program when read (see toolApproval.ts). */
  readonly allowedServers: readonly string[];
  /** Redact stored input values and token-shaped strings before messages reach a model. */
  readonly redactSecrets: boolean;
  readonly problems: readonly string[];
}

/** Raw values as read from the settings store. */
export interface RawSamplingSettings {
  readonly sampling?: unknown;
  readonly rateLimit?: unknown;
  readonly redactSecrets?: unknown;
}

type Entry = { -readonly [K in keyof ServerSamplingSettings]?: ServerSamplingSettings[K] };

export function parseSamplingSettings(raw: RawSamplingSettings): SamplingSettings {
  const problems: string[] = [];
  const globalRate = parseRate(raw.rateLimit, 'mcpHost.samplingRateLimit', problems) ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
  const entries = new Map<string, Entry>();
  if (raw.sampling !== undefined && raw.sampling !== null) {
    if (typeof raw.sampling !== 'object' || Array.isArray(raw.sampling)) problems.push('mcpHost.sampling must be an object keyed by server name (or "*" for defaults).');
    else for (const [key, value] of Object.entries(raw.sampling)) entries.set(key, parseEntry(key, value, problems));
  }
  const defaults = entries.get(SAMPLING_DEFAULTS_KEY) ?? {};
  return {
    redactSecrets: typeof raw.redactSecrets === 'boolean' ? raw.redactSecrets : true,
    problems,
    allowedServers: [...entries.keys()].filter(k => k !== SAMPLING_DEFAULTS_KEY && (entries.get(k)?.policy ?? defaults.policy) === 'allow'),
    forServer(server) {
      const own = entries.get(server) ?? {};
      const merged: Entry = { ...defaults, ...definedOnly(own) };
      return {
        policy: merged.policy ?? 'ask',
        allowedModels: merged.allowedModels,
        defaultModel: merged.defaultModel,
        rateLimit: merged.rateLimit ?? globalRate,
      };
    },
  };
}

function parseEntry(key: string, value: unknown, problems: string[]): Entry {
  const where = `mcpHost.sampling["${key}"]`;
  if (typeof value === 'string' && isPolicy(value)) return { policy: value };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${where} must be an object like { "policy": "ask" }.`);
    return {};
  }
  const v = value as Record<string, unknown>;
  const entry: Entry = {};
  if (v.policy !== undefined) {
    if (typeof v.policy === 'string' && isPolicy(v.policy)) entry.policy = v.policy;
    else problems.push(`${where}.policy must be "ask", "allow" or "deny" (using "ask").`);
  }
  if (v.allowedModels !== undefined) {
    if (Array.isArray(v.allowedModels) && v.allowedModels.every(m => typeof m === 'string')) entry.allowedModels = (v.allowedModels as string[]).map(m => m.trim()).filter(Boolean);
    else problems.push(`${where}.allowedModels must be a list of model ids.`);
  }
  if (v.defaultModel !== undefined) {
    if (typeof v.defaultModel === 'string' && v.defaultModel.trim()) entry.defaultModel = v.defaultModel.trim();
    else problems.push(`${where}.defaultModel must be a model id.`);
  }
  const rate = parseRate(v.rateLimit, `${where}.rateLimit`, problems);
  if (rate !== undefined) entry.rateLimit = rate;
  return entry;
}

function parseRate(value: unknown, where: string, problems: string[]): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  problems.push(`${where} must be a whole number of requests per minute (0 = unlimited).`);
  return undefined;
}

function isPolicy(s: string): s is SamplingPolicy {
  return s === 'ask' || s === 'allow' || s === 'deny';
}

function definedOnly(e: Entry): Entry {
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as Entry;
}

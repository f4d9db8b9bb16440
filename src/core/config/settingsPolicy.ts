/**
 * How far a workspace (its settings, its folders' settings, a `.code-workspace` file) may shape each
 * `mcpHost.*` setting. A cloned repository is someone else's: it may narrow the user's safety choices,
 * never widen them. Editors replace arrays and scalars by the most specific scope's value, so reading
 * the merged value would let `"mcpHost.tools.disabled": []` in a repository turn the user's disabled
 * tools back on; every setting is therefore read layer by layer and merged by the rule below.
 */
import { isRecord } from '../isRecord';

export type WorkspaceRule =
  /** Only the user's value (or the default) counts; also `"scope": "application"` in package.json. */
  | { readonly kind: 'user' }
  /** A list of things turned off: the user's, the workspace's and every folder's entries together. */
  | { readonly kind: 'union' }
  /** A limit where lower is stricter; values below `floor` (which may mean "no limit") are ignored. */
  | { readonly kind: 'min'; readonly floor: number }
  /** A limit where higher is stricter (a delay). */
  | { readonly kind: 'max'; readonly floor: number }
  /** An enum: the value furthest along `order` (most permissive first) wins. */
  | { readonly kind: 'stricter'; readonly order: readonly string[] }
  /**
   * Entries by key (an array by `id`, or an object's keys): a trusted workspace adds entries, the user's
   * entries win, so a repository cannot redefine how the user's own input is asked for or what the user's
   * tool set holds. Nothing from the workspace while it is untrusted.
   */
  | { readonly kind: 'addEntries'; readonly idField?: string }
  /** A list a trusted workspace may add to (never remove from); nothing from it while untrusted. */
  | { readonly kind: 'addWhenTrusted' }
  /** `mcpHost.servers`: each scope keeps its own declarations, trust-gated where they are read (vscode/config.ts). */
  | { readonly kind: 'declarations' };

const user = { kind: 'user' } as const;
const union = { kind: 'union' } as const;

/** Every contributed `mcpHost.*` setting (a unit test checks this against package.json and the README's table). */
export const SETTINGS_POLICY: Readonly<Record<string, WorkspaceRule>> = {
  'servers': { kind: 'declarations' },
  'inputs': { kind: 'addEntries', idField: 'id' },
  'roots': { kind: 'addWhenTrusted' },
  'autoRestart.maxRestarts': { kind: 'min', floor: 0 },
  'autoRestart.initialDelay': { kind: 'max', floor: 0.05 },
  'requestTimeout': { kind: 'min', floor: 1 },
  // A workspace may make servers start less, never more (a user's `never` stays never).
  'autostart': { kind: 'stricter', order: ['always', 'onDemand', 'never'] },
  // Stopping the user's servers (and their state) is the user's choice.
  'idleStop': user,
  // The editor is the stricter target: nothing is put into the chat input.
  'prompts.openIn': { kind: 'stricter', order: ['chat', 'editor'] },
  'tools.autoApprove': user,
  'tools.disabled': union,
  // Reviewing more results is the narrower choice: a workspace may ask for more review, never less.
  'tools.reviewResults': { kind: 'stricter', order: ['off', 'openWorld', 'untrustedServers', 'always'] },
  'chat.excludedServers': union,
  // Off is the narrower choice: no gateway route into VS Code's chat. A workspace may turn it off, not back on.
  'chat.nativeServers': { kind: 'stricter', order: ['true', 'false'] },
  'chat.maxTools': { kind: 'min', floor: 1 },
  // 0 means "a quarter of the model's input", which cannot be compared with a workspace's number: the user's model, the user's budget.
  'chat.maxToolSchemaTokens': user,
  'chat.maxResultTokens': user,
  'toolSets': { kind: 'addEntries' },
  'apps.allowLocalNetwork': user,
  'sandbox.all': user,
  'sandbox.allowedDomains': user,
  'sandbox.allowUnsandboxed': user,
  'sandbox.autoApproveTools': user,
  'sandbox.runtimePath': user,
  'trustedServers': user,
  'sampling': user,
  'samplingRateLimit': user,
  'samplingRedactSecrets': user,
  'oauth.clients': user,
  'oauth.clientMetadataUrl': user,
  'oauth.redirect': user,
  'oauth.loopbackPort': user,
  'registry.url': user,
  // An administrator's controls (core/policy): a workspace never sets them; locked values come from VS Code's policy.
  'policy.access': user,
  'policy.allow': user,
  'policy.deny': user,
  'policy.requireSandbox': user,
  'policy.registryUrl': user,
  'policy.authorizationServers': user,
  // Which other hosts' files are followed: a repository enabling one would start its own `.mcp.json`.
  'discovery': user,
};

/** What an editor reports for one setting, scope by scope (VS Code's `inspect()`), plus every folder's own value. */
export interface SettingLayers {
  readonly defaultValue?: unknown;
  readonly userValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly folderValues?: readonly unknown[];
}

/**
 * The value MCP Host uses for `key` (without the `mcpHost.` prefix). The user's value is taken as the
 * user wrote it (the readers validate it); a workspace value of the wrong type or outside the rule is
 * ignored, since it can only be an attempt to widen or a mistake.
 */
export function effectiveSetting(key: string, layers: SettingLayers, trusted: boolean): unknown {
  const rule = SETTINGS_POLICY[key];
  if (!rule) throw new Error(`mcpHost.${key} has no workspace rule in SETTINGS_POLICY`);
  const base = layers.userValue !== undefined ? layers.userValue : layers.defaultValue;
  const workspace = [layers.workspaceValue, ...layers.folderValues ?? []].filter(v => v !== undefined);
  switch (rule.kind) {
    case 'user':
    case 'declarations':
      return base;
    case 'union':
      return unionOf([base, ...workspace]);
    case 'addWhenTrusted':
      return trusted ? unionOf([base, ...workspace]) : base;
    case 'min':
    case 'max': {
      const limits = workspace.filter((v): v is number => typeof v === 'number' && Number.isFinite(v) && v >= rule.floor);
      if (!limits.length) return base;
      const all = typeof base === 'number' && Number.isFinite(base) ? [base, ...limits] : limits;
      return rule.kind === 'min' ? Math.min(...all) : Math.max(...all);
    }
    case 'stricter': {
      const rank = (v: unknown) => rule.order.indexOf(String(v));
      return [base, ...workspace].reduce((a, b) => rank(b) > rank(a) ? b : a, base);
    }
    case 'addEntries':
      if (!trusted) return base;
      return rule.idField ? addById(base, workspace, rule.idField) : addKeys(base, workspace);
  }
}

function unionOf(values: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (!Array.isArray(v)) continue;
    for (const item of v) if (!out.includes(item)) out.push(item);
  }
  return out;
}

function addById(base: unknown, layers: readonly unknown[], idField: string): unknown {
  const out = Array.isArray(base) ? [...base as unknown[]] : [];
  const idOf = (x: unknown) => isRecord(x) ? x[idField] : undefined;
  const taken = new Set(out.map(idOf).filter(id => id !== undefined));
  for (const layer of layers) {
    if (!Array.isArray(layer)) continue;
    for (const entry of layer as unknown[]) {
      const id = idOf(entry);
      if (typeof id !== 'string' || taken.has(id)) continue;
      taken.add(id);
      out.push(entry);
    }
  }
  return out;
}

function addKeys(base: unknown, layers: readonly unknown[]): unknown {
  const out: Record<string, unknown> = isRecord(base) ? { ...base } : {};
  for (const layer of layers) {
    if (!isRecord(layer)) continue;
    for (const [k, v] of Object.entries(layer)) if (!(k in out)) out[k] = v;
  }
  return out;
}

/** `mcpHost.inputs` entries as the onboarding flows create and merge them (same shape as VS Code's `mcp.json` inputs). */

export interface InputDefinition {
  readonly id: string;
  readonly type: 'promptString' | 'pickString';
  readonly description?: string;
  readonly password?: boolean;
  readonly default?: string;
  readonly options?: readonly string[];
}

/** A value for the embedder's secret store, kept under an input id; never written to settings. */
export interface SecretValue {
  readonly id: string;
  readonly value: string;
}

const VARIABLE = /\$\{input:([^}]+)\}/g;

/** The `${input:id}` ids used anywhere in a JSON-like value. */
export function referencedInputs(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') for (const m of value.matchAll(VARIABLE)) into.add(m[1]);
  else if (Array.isArray(value)) value.forEach(v => referencedInputs(v, into));
  else if (value && typeof value === 'object') Object.values(value).forEach(v => referencedInputs(v, into));
  return into;
}

/** Replaces `${input:from}` with `${input:to}` in every string of a JSON-like value. */
export function renameInput<T>(value: T, from: string, to: string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.split(`\${input:${from}}`).join(`\${input:${to}}`);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** Reads an `inputs` array leniently: entries without a string id are dropped. */
export function readInputList(raw: unknown): { id: string; type?: unknown; [key: string]: unknown }[] {
  return Array.isArray(raw) ? raw.filter((x): x is { id: string } => !!x && typeof x === 'object' && typeof (x as { id?: unknown }).id === 'string') : [];
}

/** Whether two input definitions ask the same thing (so an existing one can be reused). */
export function sameInput(a: object, b: object): boolean {
  const norm = (x: Partial<Record<keyof InputDefinition, unknown>>) => JSON.stringify({
    type: x.type, description: x.description ?? '', password: x.password === true, default: x.default ?? '', options: x.options ?? [],
  });
  return norm(a) === norm(b);
}

/**
 * `current` plus `additions` (an addition replaces an entry with the same id), as a new list for
 * `mcpHost.inputs`. Unknown entries of `current` are kept as they are.
 */
export function mergeInputs(current: unknown, additions: readonly InputDefinition[]): unknown[] {
  const list: unknown[] = Array.isArray(current) ? [...current] : [];
  for (const add of additions) {
    const at = list.findIndex(x => !!x && typeof x === 'object' && (x as { id?: unknown }).id === add.id);
    const clean = Object.fromEntries(Object.entries(add).filter(([, v]) => v !== undefined));
    if (at >= 0) list[at] = clean;
    else list.push(clean);
  }
  return list;
}

/** `current` plus `additions` (replacing same-named servers), as a new object for `mcpHost.servers`. */
export function mergeServers(current: unknown, additions: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const base = current && typeof current === 'object' && !Array.isArray(current) ? current as Record<string, unknown> : {};
  return { ...base, ...additions };
}

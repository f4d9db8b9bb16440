/**
 * Install requests that come from outside the user's own hands: an install link
 * (`vscode://mcp-host.mcp-host/install?name=…&config=…` or `?registry=<server name>`) or another
 * extension calling `mcpHost.installServer`. Both are attacker input: the declaration may only use
 * the fields a server needs to run (`type`, `command`, `args`, `url`, `headers`, `env`), and only the
 * `${input:…}` variables it defines itself (`${env:…}`, `${userHome}`, `${workspaceFolder}` would read
 * the user's machine into a stranger's command line or headers). Secret-looking literals are fine
 * here: the consent shows them and the user decides.
 */
import { parseServers } from '../config/parse';
import { isValidServerName } from '../onboarding/addServer';
import type { InputDefinition } from '../onboarding/inputs';
import { inputIdFor, uniqueId } from '../onboarding/secrets';
import { foreignVariableError, foreignVariables, inputValues } from './ownVariables';

export type InstallRequest =
  | { readonly kind: 'declaration'; readonly name: string; readonly declaration: Record<string, unknown>; readonly inputs: readonly InputDefinition[] }
  | { readonly kind: 'registry'; readonly registryName: string; readonly version?: string };

const FIELDS = new Set(['type', 'command', 'args', 'url', 'headers', 'env']);

export type ParsedInstallRequest = { readonly request: InstallRequest; readonly error?: undefined } | { readonly request?: undefined; readonly error: string };

/** The query of an install link. */
export function parseInstallLink(query: string): ParsedInstallRequest {
  const q = new URLSearchParams(query);
  const registryName = q.get('registry');
  if (registryName) return readInstallRequest({ registryName, version: q.get('version') ?? undefined });
  const config = q.get('config');
  if (!config) return { error: 'The link has neither "config" (a server declaration) nor "registry" (a registry server name).' };
  let declaration: unknown;
  try { declaration = JSON.parse(config); } catch { return { error: 'The link\'s "config" is not JSON.' }; }
  let inputs: unknown = [];
  const rawInputs = q.get('inputs');
  if (rawInputs) { try { inputs = JSON.parse(rawInputs); } catch { return { error: 'The link\'s "inputs" is not JSON.' }; } }
  return readInstallRequest({ name: q.get('name') ?? '', declaration, inputs });
}

/** The argument of `mcpHost.installServer`: `{ name, declaration, inputs? }` or `{ registryName, version? }`. */
export function readInstallRequest(arg: unknown): ParsedInstallRequest {
  const a = (arg && typeof arg === 'object' ? arg : {}) as Record<string, unknown>;
  if (typeof a.registryName === 'string' && a.registryName) {
    if (a.version !== undefined && typeof a.version !== 'string') return { error: '"version" must be a string.' };
    return { request: { kind: 'registry', registryName: a.registryName, ...(a.version ? { version: a.version } : {}) } };
  }
  const name = typeof a.name === 'string' ? a.name.trim() : '';
  if (!isValidServerName(name)) return { error: `"${name}" is not a valid server name (letters, digits, "_", "-", "."; at most 64).` };
  const d = a.declaration;
  if (!d || typeof d !== 'object' || Array.isArray(d)) return { error: 'The declaration must be a JSON object.' };
  const unknown = Object.keys(d).filter(k => !FIELDS.has(k));
  if (unknown.length) return { error: `The declaration may not set ${unknown.map(k => `"${k}"`).join(', ')} when it comes from a link or another extension.` };
  const inputs: InputDefinition[] = [];
  for (const i of Array.isArray(a.inputs) ? a.inputs : []) {
    const def = i as Partial<InputDefinition>;
    if (!def || typeof def.id !== 'string' || (def.type !== 'promptString' && def.type !== 'pickString')) return { error: 'Every input needs an "id" and a "type" of promptString or pickString.' };
    inputs.push({ id: def.id, type: def.type, ...(typeof def.description === 'string' ? { description: def.description } : {}), ...(def.password === true ? { password: true } : {}),
      ...(Array.isArray(def.options) ? { options: def.options.map(String) } : {}), ...(typeof def.default === 'string' ? { default: def.default } : {}) });
  }
  if (new Set(inputs.map(i => i.id)).size !== inputs.length) return { error: 'Two inputs have the same "id".' };
  const foreign = foreignVariableError([...foreignVariables(d, new Set(inputs.map(i => i.id))), ...foreignVariables(inputValues(inputs), new Set())], 'a link or another extension');
  if (foreign) return { error: `The declaration's ${foreign}` };
  const check = parseServers({ [name]: d });
  const errors = check.problems.filter(p => p.severity === 'error');
  if (errors.length) return { error: errors.map(p => p.message).join(' ') };
  return { request: { kind: 'declaration', name, declaration: d as Record<string, unknown>, inputs } };
}

/**
 * Gives the request's inputs ids no declared input has (`<server>.<id>`), renaming every reference in
 * one pass (renaming one id after another would let a later rename catch an earlier one's result), and
 * checks the result again: after renaming, only the request's own new ids may be referenced.
 */
export function ownInputs(name: string, declaration: Record<string, unknown>, inputs: readonly InputDefinition[], takenInputIds: Iterable<string>): { declaration: Record<string, unknown>; inputs: InputDefinition[]; error?: string } {
  const taken = new Set([...takenInputIds, ...inputs.map(i => i.id)]);
  const renamed = new Map(inputs.map(i => [i.id, uniqueId(inputIdFor(name, i.id), taken)]));
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(/\$\{input:([^}]*)\}/g, (whole, id: string) => renamed.has(id) ? `\${input:${renamed.get(id)}}` : whole);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const d = walk(declaration) as Record<string, unknown>;
  const out = inputs.map(i => ({ ...i, id: renamed.get(i.id)! }));
  const error = foreignVariableError([...foreignVariables(d, new Set(renamed.values())), ...foreignVariables(inputValues(out), new Set())], 'a link or another extension');
  return { declaration: d, inputs: out, ...(error ? { error: `The declaration's ${error}` } : {}) };
}

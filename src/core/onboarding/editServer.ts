/**
 * The pure half of "Edit Server…": a declaration as the form shows it (every field, secrets as
 * `${input:id}` references that are never read back as values), and the declaration an edit makes of it,
 * checked by the same parser as Add Server. A secret the user leaves alone keeps its reference; a new
 * value for it goes to the secret store under the same id; a new secret gets an id of its own.
 */
import { parseServers } from '../config/parse';
import type { Entry } from './addServer';
import type { InputDefinition, SecretValue } from './inputs';
import { inputIdFor, splitCredential, uniqueId } from './secrets';

/** An `env` variable or header in the form: a secret held by reference carries its id and what the setting holds. */
export interface EditEntry extends Entry {
  /** The `${input:id}` it references in the declaration (the value is then '' until the user types a new one). */
  readonly inputId?: string;
  /** The setting's text for a kept reference, e.g. `Bearer ${input:id}`. */
  readonly raw?: string;
}

/** The fields the form edits beside `env`/`headers`; everything else of the declaration is kept as it is. */
export const EDITABLE_FIELDS = ['command', 'args', 'url', 'cwd', 'envFile', 'timeout', 'startTimeout', 'roots', 'sandbox', 'dev', 'disabled', 'autostart'] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

export interface EditForm {
  readonly kind: 'stdio' | 'http';
  /** Field → new value; `undefined` removes the field. Fields not listed are unchanged. */
  readonly changes: Partial<Record<EditableField, unknown>>;
  /** The whole list for `env` (stdio) or `headers` (http), when edited. */
  readonly entries?: readonly EditEntry[];
}

const INPUT_REF = /\$\{input:([^}]+)\}/;

/** The form's entries for a declaration's `env` or `headers`: a value holding `${input:id}` is a secret by reference. */
export function entriesOf(record: unknown): EditEntry[] {
  if (!record || typeof record !== 'object' || Array.isArray(record)) return [];
  // `null` (a variable removed from the server's environment) is no value to edit: editServer keeps it.
  return Object.entries(record as Record<string, unknown>).filter(([, v]) => typeof v === 'string').map(([name, v]) => {
    const value = String(v);
    const ref = INPUT_REF.exec(value);
    return ref ? { name, value: '', secret: true, inputId: ref[1], raw: value } : { name, value, secret: false };
  });
}

export interface EditedServer {
  readonly declaration: Record<string, unknown>;
  /** Input definitions to add (new secrets only). */
  readonly inputs: readonly InputDefinition[];
  /** Values for the secret store: new secrets and new values of kept references. */
  readonly secrets: readonly SecretValue[];
  readonly errors: readonly string[];
  readonly warnings: readonly string[];
}

/** The declaration `form` makes of `original` (server `name`); `takenInputIds`: ids already declared in any scope. */
export function editServer(name: string, original: Readonly<Record<string, unknown>>, form: EditForm, takenInputIds: Iterable<string> = []): EditedServer {
  const taken = new Set(takenInputIds);
  const inputs: InputDefinition[] = [];
  const secrets: SecretValue[] = [];
  // A copy through JSON: the settings value is plain JSON, and nothing of the original object is shared.
  const declaration = JSON.parse(JSON.stringify(original)) as Record<string, unknown>;
  for (const [field, value] of Object.entries(form.changes) as [EditableField, unknown][]) {
    if (!(EDITABLE_FIELDS as readonly string[]).includes(field)) continue;
    if (value === undefined) delete declaration[field];
    else declaration[field] = JSON.parse(JSON.stringify(value)) as unknown;
  }
  if (form.entries) {
    const what = form.kind === 'http' ? 'headers' : 'env';
    const removed = Object.entries((original[what] ?? {}) as Record<string, unknown>).filter(([, v]) => v === null);
    const out: Record<string, string | null> = Object.fromEntries(removed.map(([k]) => [k, null]));
    for (const e of form.entries) {
      if (!e.secret) { out[e.name] = e.value; continue; }
      if (e.inputId && !e.value) { out[e.name] = e.raw ?? `\${input:${e.inputId}}`; continue; }
      const { prefix, secret } = what === 'headers' ? splitCredential(e.value) : { prefix: '', secret: e.value };
      let id = e.inputId;
      if (!id) {
        id = uniqueId(inputIdFor(name, e.name), taken);
        taken.add(id);
        inputs.push({ id, type: 'promptString', description: `${e.name} for MCP server "${name}"`, password: true });
      }
      if (secret) secrets.push({ id, value: secret });
      out[e.name] = `${prefix}\${input:${id}}`;
    }
    if (Object.keys(out).length) declaration[what] = out;
    else delete declaration[what];
  }
  const check = parseServers({ [name]: declaration });
  return {
    declaration, inputs, secrets,
    errors: check.problems.filter(p => p.severity === 'error').map(p => p.message),
    warnings: check.problems.filter(p => p.severity === 'warning').map(p => p.message),
  };
}

/**
 * Checks answers against the planned fields: typed text while the user types, single values, and the
 * whole response before it is sent (a response that does not fit the requested schema is never sent).
 */
import {
  checkMultiConstraints, checkNumberConstraints, checkTextConstraints,
  type FieldValue, type FormField, type FormValues, type NumberField, type TextField,
} from './schema';

/** Result of reading what the user typed: a value, "skipped" (empty optional field), or an error. */
export type TextInput =
  | { readonly ok: true; readonly value: FieldValue | undefined }
  | { readonly ok: false; readonly error: string };

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Reads typed text for a text or number field. Empty input skips an optional field (`value: undefined`)
 * and is an error for a required one. Numbers accept plain decimal notation only (no hex, no "Infinity").
 */
export function parseTextInput(field: TextField | NumberField, text: string): TextInput {
  if (text === '' || (field.kind === 'number' && text.trim() === '')) {
    return field.required ? { ok: false, error: `${field.label} is required.` } : { ok: true, value: undefined };
  }
  if (field.kind === 'text') {
    const error = checkTextConstraints(field, text);
    return error ? { ok: false, error } : { ok: true, value: text };
  }
  const trimmed = text.trim();
  if (!NUMBER.test(trimmed)) return { ok: false, error: field.integer ? 'Enter a whole number, like 42.' : 'Enter a number, like 3.14.' };
  const value = Number(trimmed);
  const error = checkNumberConstraints(field, value);
  return error ? { ok: false, error } : { ok: true, value };
}

/** Problem with one answer (`undefined` = not answered), or undefined when it fits the field. */
export function checkFieldValue(field: FormField, value: unknown): string | undefined {
  if (value === undefined) return field.required ? `${field.label} is required.` : undefined;
  switch (field.kind) {
    case 'text':
      return typeof value === 'string' ? checkTextConstraints(field, value) : 'Expected text.';
    case 'number':
      return typeof value === 'number' ? checkNumberConstraints(field, value) : `Expected ${field.integer ? 'an integer' : 'a number'}.`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Expected yes or no (a boolean).';
    case 'select':
      if (typeof value !== 'string') return 'Expected one of the choices.';
      return field.choices.some(c => c.value === value) ? undefined : `${JSON.stringify(value)} is not one of the choices.`;
    case 'multiSelect':
      return Array.isArray(value) ? checkMultiConstraints(field, value) : 'Expected a list of choices.';
  }
}

export interface ContentProblem {
  /** Property name (absent for problems with the response as a whole). */
  readonly field?: string;
  readonly message: string;
}

/**
 * Validates a whole response against the planned fields: required answers present, every value of the
 * right type and within its constraints, no keys the schema did not ask for.
 */
export function validateContent(fields: readonly FormField[], content: unknown): ContentProblem[] {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return [{ message: 'The response is not an object.' }];
  const values = content as Record<string, unknown>;
  const problems: ContentProblem[] = [];
  for (const f of fields) {
    const message = checkFieldValue(f, Object.hasOwn(values, f.name) ? values[f.name] : undefined);
    if (message) problems.push({ field: f.name, message: `${f.label}: ${message}` });
  }
  for (const key of Object.keys(values)) {
    if (!fields.some(f => f.name === key)) problems.push({ field: key, message: `"${key}" was not requested.` });
  }
  return problems;
}

/** The answers a form starts with: every schema default, so accepting unchanged sends the defaults. */
export function initialValues(fields: readonly FormField[]): FormValues {
  const values: FormValues = {};
  for (const f of fields) if (f.default !== undefined) values[f.name] = Array.isArray(f.default) ? [...f.default] : f.default;
  return values;
}

/** The `content` of an accepted response: answered fields only, in schema order, arrays copied. */
export function toContent(fields: readonly FormField[], values: FormValues): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v !== undefined) out[f.name] = Array.isArray(v) ? [...v as readonly string[]] : v as string | number | boolean;
  }
  return out;
}

/** Short human-readable form of an answer (choice labels, Yes/No, masked secrets). */
export function describeValue(field: FormField, value: FieldValue | undefined, words: { yes: string; no: string; skipped: string } = { yes: 'Yes', no: 'No', skipped: '(skipped)' }): string {
  if (value === undefined) return words.skipped;
  if (field.sensitive && field.kind === 'text') return '•'.repeat(Math.min(8, Math.max(1, (value as string).length)));
  switch (field.kind) {
    case 'boolean': return value ? words.yes : words.no;
    case 'select': return field.choices.find(c => c.value === value)?.label ?? String(value);
    case 'multiSelect': return (value as readonly string[]).map(v => field.choices.find(c => c.value === v)?.label ?? v).join(', ') || '(none)';
    default: return String(value);
  }
}

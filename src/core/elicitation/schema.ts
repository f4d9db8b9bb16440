/**
 * Turns the `requestedSchema` of a form-mode `elicitation/create` into a list of fields a UI can ask
 * one by one. Only what the spec allows (a flat object of primitive properties) is accepted; anything
 * else yields `{ ok: false, reason }` so the embedder can decline with that reason instead of failing.
 */
import { isRecord } from '../isRecord';
import { plainText, unlinked } from '../text/plainText';

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';
export const STRING_FORMATS: readonly StringFormat[] = ['email', 'uri', 'date', 'date-time'];

/** One option of a single- or multi-select field: the value sent to the server and what the user reads. */
export interface Choice {
  readonly value: string;
  readonly label: string;
}

interface FieldBase {
  /** Property name in the schema and key in the response content. */
  readonly name: string;
  /** `title`, else the property name. */
  readonly label: string;
  readonly description?: string;
  readonly required: boolean;
  /** Name, title or description suggest a secret (password, token, API key …): the UI warns. */
  readonly sensitive: boolean;
}

export interface TextField extends FieldBase {
  readonly kind: 'text';
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: StringFormat;
  readonly default?: string;
}

export interface NumberField extends FieldBase {
  readonly kind: 'number';
  /** `type: "integer"`. */
  readonly integer: boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: number;
}

export interface BooleanField extends FieldBase {
  readonly kind: 'boolean';
  readonly default?: boolean;
}

/** `enum` (untitled), `enum` + legacy `enumNames`, or `oneOf` of `{ const, title }` (titled). */
export interface SelectField extends FieldBase {
  readonly kind: 'select';
  readonly choices: readonly Choice[];
  readonly default?: string;
}

/** `type: "array"` whose `items` has `enum` (untitled) or `anyOf` of `{ const, title }` (titled). */
export interface MultiSelectField extends FieldBase {
  readonly kind: 'multiSelect';
  readonly choices: readonly Choice[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: readonly string[];
}

export type FormField = TextField | NumberField | BooleanField | SelectField | MultiSelectField;
export type FieldValue = string | number | boolean | readonly string[];
/** Answers by property name; a missing key means "not answered / skipped". */
export type FormValues = Record<string, FieldValue>;

export type FormPlan =
  | { readonly ok: true; readonly fields: readonly FormField[]; /** Ignored defaults and similar oddities, for the log. */ readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

const SECRET_WORDS = /pass(?:word|wd|phrase|code)|secret(?![a-z])|token(?![a-z])|api[\s_-]?key|access[\s_-]?key|private[\s_-]?key|credential|\bpin\b|\bcvv\b|credit[\s_-]?card|card[\s_-]?number/i;
/** Descriptions often mention secrets to say "don't enter one" ("no phone number, pin …"); only the strong words count there. */
const SECRET_WORDS_IN_TEXT = /\bpass(?:words?|wd|phrase)\b|\bsecrets?\b|\b(?:api|access|private)[\s_-]?keys?\b|\btokens?\b|\bcredentials?\b/i;

/** True when a field's name or title looks like a credential, or its description asks for one. */
export function looksSensitive(name: string, title?: string, description?: string): boolean {
  return SECRET_WORDS.test(splitCamel(name)) || SECRET_WORDS.test(name) || (title !== undefined && SECRET_WORDS.test(title))
    || (description !== undefined && SECRET_WORDS_IN_TEXT.test(description));
}

function splitCamel(s: string): string { return s.replace(/([a-z0-9])([A-Z])/g, '$1 $2'); }

class Unsupported extends Error {}

/** Reads a `requestedSchema` (validated or raw JSON) into fields, or says why it cannot be asked. */
export function planForm(requestedSchema: unknown): FormPlan {
  try {
    const notes: string[] = [];
    if (!isRecord(requestedSchema)) throw new Unsupported('the requested schema is not an object');
    if (requestedSchema.type !== undefined && requestedSchema.type !== 'object') throw new Unsupported(`the requested schema has type "${String(requestedSchema.type)}"; only "object" is allowed`);
    const properties = requestedSchema.properties ?? {};
    if (!isRecord(properties)) throw new Unsupported('"properties" is not an object');
    const required = requestedSchema.required ?? [];
    if (!Array.isArray(required) || !required.every(r => typeof r === 'string')) throw new Unsupported('"required" is not a list of property names');
    for (const r of required) if (!Object.hasOwn(properties, r)) throw new Unsupported(`required property "${r}" is not defined in "properties"`);
    const fields = Object.entries(properties).map(([name, prop]) => planField(name, prop, required.includes(name), notes));
    return { ok: true, fields, notes };
  } catch (e) {
    // The reason quotes the server's property names and values, and is shown in notifications: one clean
    // line that can write no link.
    if (e instanceof Unsupported) return { ok: false, reason: unlinked(plainText(e.message, { singleLine: true, maxLength: 300 })) };
    throw e;
  }
}

function planField(name: string, prop: unknown, required: boolean, notes: string[]): FormField {
  if (!isRecord(prop)) throw new Unsupported(`property "${name}" is not a schema object`);
  const title = optionalString(prop, 'title', name);
  const description = optionalString(prop, 'description', name);
  const base = { name, label: title?.trim() || name, description, required, sensitive: looksSensitive(name, title, description) };
  const type = prop.type;
  const withDefault = <F extends FormField>(field: F, check: (d: unknown) => boolean): F => {
    if (prop.default === undefined) return field;
    if (check(prop.default)) return { ...field, default: prop.default };
    notes.push(`The default of "${name}" (${JSON.stringify(prop.default)}) does not fit its schema and was ignored.`);
    return field;
  };
  switch (type) {
    case 'string': {
      if (prop.enum !== undefined || prop.oneOf !== undefined) {
        const choices = prop.oneOf !== undefined ? titledChoices(name, prop.oneOf, 'oneOf') : untitledChoices(name, prop.enum, prop.enumNames);
        return withDefault<SelectField>({ ...base, kind: 'select', choices }, d => typeof d === 'string' && choices.some(c => c.value === d));
      }
      const minLength = optionalCount(prop, 'minLength', name);
      const maxLength = optionalCount(prop, 'maxLength', name);
      if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) throw new Unsupported(`property "${name}" has minLength ${minLength} > maxLength ${maxLength}`);
      let format: StringFormat | undefined;
      if (prop.format !== undefined) {
        if (!STRING_FORMATS.includes(prop.format as StringFormat)) throw new Unsupported(`property "${name}" has format "${String(prop.format)}"; supported: ${STRING_FORMATS.join(', ')}`);
        format = prop.format as StringFormat;
      }
      const field: TextField = { ...base, kind: 'text', minLength, maxLength, format };
      return withDefault(field, d => typeof d === 'string' && checkTextConstraints(field, d) === undefined);
    }
    case 'number':
    case 'integer': {
      const minimum = optionalNumber(prop, 'minimum', name);
      const maximum = optionalNumber(prop, 'maximum', name);
      if (minimum !== undefined && maximum !== undefined && minimum > maximum) throw new Unsupported(`property "${name}" has minimum ${minimum} > maximum ${maximum}`);
      const field: NumberField = { ...base, kind: 'number', integer: type === 'integer', minimum, maximum };
      return withDefault(field, d => typeof d === 'number' && checkNumberConstraints(field, d) === undefined);
    }
    case 'boolean':
      return withDefault<BooleanField>({ ...base, kind: 'boolean' }, d => typeof d === 'boolean');
    case 'array': {
      const items = prop.items;
      if (!isRecord(items)) throw new Unsupported(`property "${name}" is an array without an "items" schema`);
      let choices: readonly Choice[];
      if (items.anyOf !== undefined) choices = titledChoices(name, items.anyOf, 'items.anyOf');
      else if (items.enum !== undefined) {
        if (items.type !== undefined && items.type !== 'string') throw new Unsupported(`property "${name}" is an array of ${String(items.type)}; only string choices are supported`);
        choices = untitledChoices(name, items.enum, undefined);
      } else throw new Unsupported(`property "${name}" is an array whose items are not a list of choices (enum or anyOf)`);
      const minItems = optionalCount(prop, 'minItems', name);
      const maxItems = optionalCount(prop, 'maxItems', name);
      if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) throw new Unsupported(`property "${name}" has minItems ${minItems} > maxItems ${maxItems}`);
      if (minItems !== undefined && minItems > choices.length) throw new Unsupported(`property "${name}" needs ${minItems} choices but offers ${choices.length}`);
      const field: MultiSelectField = { ...base, kind: 'multiSelect', choices, minItems, maxItems };
      return withDefault(field, d => Array.isArray(d) && checkMultiConstraints(field, d) === undefined);
    }
    case 'object':
      throw new Unsupported(`property "${name}" is a nested object; elicitation forms allow only flat primitive fields`);
    default:
      throw new Unsupported(`property "${name}" has ${type === undefined ? 'no type' : `unsupported type ${JSON.stringify(type)}`}`);
  }
}

function untitledChoices(name: string, values: unknown, names: unknown): Choice[] {
  if (!Array.isArray(values) || !values.every(v => typeof v === 'string')) throw new Unsupported(`property "${name}" has an "enum" that is not a list of strings`);
  if (values.length === 0) throw new Unsupported(`property "${name}" offers no choices`);
  if (new Set(values).size !== values.length) throw new Unsupported(`property "${name}" lists a choice twice`);
  if (names === undefined) return values.map(v => ({ value: v, label: v }));
  if (!Array.isArray(names) || names.length !== values.length || !names.every(n => typeof n === 'string')) throw new Unsupported(`property "${name}" has "enumNames" that do not match its "enum"`);
  return values.map((v, i) => ({ value: v, label: names[i] as string }));
}

function titledChoices(name: string, options: unknown, where: string): Choice[] {
  if (!Array.isArray(options) || options.length === 0) throw new Unsupported(`property "${name}" has an empty or invalid "${where}"`);
  const choices = options.map(o => {
    if (!isRecord(o) || typeof o.const !== 'string') throw new Unsupported(`property "${name}" has a "${where}" entry without a string "const"`);
    return { value: o.const, label: typeof o.title === 'string' && o.title ? o.title : o.const };
  });
  if (new Set(choices.map(c => c.value)).size !== choices.length) throw new Unsupported(`property "${name}" lists a choice twice`);
  return choices;
}

function optionalString(o: Record<string, unknown>, key: string, name: string): string | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new Unsupported(`property "${name}" has a non-string "${key}"`);
  return v;
}

function optionalNumber(o: Record<string, unknown>, key: string, name: string): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Unsupported(`property "${name}" has a non-numeric "${key}"`);
  return v;
}

function optionalCount(o: Record<string, unknown>, key: string, name: string): number | undefined {
  const v = optionalNumber(o, key, name);
  if (v !== undefined && (!Number.isInteger(v) || v < 0)) throw new Unsupported(`property "${name}" has "${key}" ${v}; it must be a whole number ≥ 0`);
  return v;
}

// ---- constraint checks shared with validate.ts (here so defaults can be checked while planning) ----

/** Length in characters (Unicode code points), as JSON Schema counts `minLength`/`maxLength`. */
export function charLength(s: string): number { return [...s].length; }

export function checkTextConstraints(field: TextField, value: string): string | undefined {
  const n = charLength(value);
  if (field.minLength !== undefined && n < field.minLength) return `Enter at least ${field.minLength} character${field.minLength === 1 ? '' : 's'} (now ${n}).`;
  if (field.maxLength !== undefined && n > field.maxLength) return `Enter at most ${field.maxLength} character${field.maxLength === 1 ? '' : 's'} (now ${n}).`;
  if (field.format) return checkFormat(field.format, value);
  return undefined;
}

export function checkNumberConstraints(field: NumberField, value: number): string | undefined {
  if (!Number.isFinite(value)) return 'Enter a finite number.';
  if (field.integer && !Number.isInteger(value)) return 'Enter a whole number (an integer).';
  if (field.minimum !== undefined && value < field.minimum) return `Enter a number ≥ ${field.minimum}.`;
  if (field.maximum !== undefined && value > field.maximum) return `Enter a number ≤ ${field.maximum}.`;
  return undefined;
}

export function checkMultiConstraints(field: MultiSelectField, value: readonly unknown[]): string | undefined {
  if (!value.every(v => typeof v === 'string')) return 'Every selected value must be text.';
  const unknown = value.filter(v => !field.choices.some(c => c.value === v));
  if (unknown.length) return `Not one of the choices: ${unknown.map(v => JSON.stringify(v)).join(', ')}.`;
  if (new Set(value).size !== value.length) return 'A choice is selected twice.';
  if (field.minItems !== undefined && value.length < field.minItems) return `Select at least ${field.minItems} (now ${value.length}).`;
  if (field.maxItems !== undefined && value.length > field.maxItems) return `Select at most ${field.maxItems} (now ${value.length}).`;
  return undefined;
}

const EMAIL = /^[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?)*$/u;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Checks the four string formats the spec allows; returns a message the user can act on, or undefined. */
export function checkFormat(format: StringFormat, value: string): string | undefined {
  switch (format) {
    case 'email': {
      if (!EMAIL.test(value) || value.split('@')[0].startsWith('.') || value.split('@')[0].endsWith('.') || value.includes('..')) return 'Enter an email address like name@example.com.';
      return undefined;
    }
    case 'uri': {
      if (/\s/.test(value) || !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value)) return 'Enter an absolute URI with a scheme, like https://example.com/page.';
      try { new URL(value); } catch { return 'Enter an absolute URI with a scheme, like https://example.com/page.'; }
      return undefined;
    }
    case 'date':
      return isValidDate(value) ? undefined : 'Enter a date as YYYY-MM-DD, like 2025-01-31.';
    case 'date-time': {
      const m = DATE_TIME.exec(value);
      const ok = m && isValidDate(m[1]) && Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) <= 60
        && (m[5] === undefined || (Number(m[6]) < 24 && Number(m[7]) < 60));
      return ok ? undefined : 'Enter a date and time with a time zone, like 2025-01-31T13:30:00Z or 2025-01-31T13:30:00+01:00.';
    }
  }
}

function isValidDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  return d <= days;
}

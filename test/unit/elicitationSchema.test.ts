/** Form elicitation: requested schema → fields (every type the spec allows) and the schemas we decline. */
import * as assert from 'node:assert/strict';
import { planForm, looksSensitive, type FormField } from '../../src/core';
import { everythingSchema } from './elicitationSchemas';

function fields(schema: unknown): readonly FormField[] {
  const plan = planForm(schema);
  assert.ok(plan.ok, plan.ok ? '' : plan.reason);
  return plan.fields;
}

function reason(schema: unknown): string {
  const plan = planForm(schema);
  assert.ok(!plan.ok, 'expected the schema to be refused');
  return plan.reason;
}

describe('elicitation: schema → fields', () => {
  it('plans one field per property of the server-everything form, in order, with kinds, constraints and defaults', () => {
    const f = fields(everythingSchema);
    assert.deepEqual(f.map(x => [x.name, x.kind, x.required]), [
      ['name', 'text', true], ['check', 'boolean', false], ['firstLine', 'text', false], ['email', 'text', false],
      ['homepage', 'text', false], ['birthdate', 'text', false], ['integer', 'number', false], ['number', 'number', false],
      ['untitledSingleSelectEnum', 'select', false], ['untitledMultipleSelectEnum', 'multiSelect', false],
      ['titledSingleSelectEnum', 'select', false], ['titledMultipleSelectEnum', 'multiSelect', false], ['legacyTitledEnum', 'select', false],
    ]);
    const by = Object.fromEntries(f.map(x => [x.name, x]));
    assert.equal(by.name.label, 'String');
    assert.equal(by.name.description, 'Your full, legal name');
    assert.deepEqual([by.email.kind === 'text' && by.email.format, by.homepage.kind === 'text' && by.homepage.format, by.birthdate.kind === 'text' && by.birthdate.format], ['email', 'uri', 'date']);
    assert.deepEqual(by.integer, { ...by.integer, kind: 'number', integer: true, minimum: 1, maximum: 100, default: 42 });
    assert.deepEqual(by.number, { ...by.number, kind: 'number', integer: false, minimum: 0, maximum: 1000, default: 3.14 });
    assert.equal(by.firstLine.default, 'It was a dark and stormy night.');
  });

  it('reads untitled enum, titled oneOf and legacy enumNames as choices with labels', () => {
    const by = Object.fromEntries(fields(everythingSchema).map(x => [x.name, x]));
    const choices = (n: string) => (by[n] as Extract<FormField, { choices: unknown }>).choices;
    assert.deepEqual(choices('untitledSingleSelectEnum').slice(0, 2), [{ value: 'Monica', label: 'Monica' }, { value: 'Rachel', label: 'Rachel' }]);
    assert.deepEqual(choices('titledSingleSelectEnum'), [{ value: 'hero-1', label: 'Superman' }, { value: 'hero-2', label: 'Green Lantern' }, { value: 'hero-3', label: 'Wonder Woman' }]);
    assert.deepEqual(choices('legacyTitledEnum').map(c => c.label), ['Cats', 'Dogs', 'Birds', 'Fish', 'Reptiles']);
    assert.deepEqual(choices('titledMultipleSelectEnum').map(c => c.value), ['fish-1', 'fish-2', 'fish-3']);
    const multi = by.untitledMultipleSelectEnum;
    assert.ok(multi.kind === 'multiSelect');
    assert.deepEqual([multi.minItems, multi.maxItems, multi.default], [1, 3, ['Guitar']]);
  });

  it('accepts an empty form and a schema without "type" (treated as object)', () => {
    assert.deepEqual(fields({ type: 'object', properties: {} }), []);
    assert.equal(fields({ properties: { a: { type: 'boolean' } } }).length, 1);
  });

  it('uses the property name as the label when there is no title', () => {
    assert.equal(fields({ type: 'object', properties: { zip: { type: 'string' } } })[0].label, 'zip');
  });

  it('ignores a default that does not fit its field and notes why', () => {
    const plan = planForm({ type: 'object', properties: { n: { type: 'integer', minimum: 1, default: 0 }, c: { type: 'string', enum: ['a'], default: 'b' }, e: { type: 'string', format: 'email', default: 'nope' } } });
    assert.ok(plan.ok);
    assert.deepEqual(plan.fields.map(f => f.default), [undefined, undefined, undefined]);
    assert.equal(plan.notes.length, 3);
    assert.match(plan.notes[0], /default of "n"/);
  });

  it('declines nested objects, arrays of non-choices, unknown types and formats, with a reason naming the property', () => {
    assert.match(reason({ type: 'object', properties: { address: { type: 'object', properties: { street: { type: 'string' } } } } }), /"address" is a nested object/);
    assert.match(reason({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } }), /"tags" is an array whose items are not a list of choices/);
    assert.match(reason({ type: 'object', properties: { nums: { type: 'array', items: { type: 'number', enum: [1, 2] } } } }), /"nums"/);
    assert.match(reason({ type: 'object', properties: { x: { type: 'null' } } }), /"x" has unsupported type "null"/);
    assert.match(reason({ type: 'object', properties: { x: { description: 'no type' } } }), /"x" has no type/);
    assert.match(reason({ type: 'object', properties: { x: { type: 'string', format: 'ipv4' } } }), /format "ipv4"/);
    assert.match(reason({ type: 'array' }), /only "object"/);
    assert.match(reason('not a schema'), /not an object/);
    assert.match(reason({ type: 'object', properties: [] }), /"properties" is not an object/);
  });

  it('declines contradictory or broken constraints and choice lists', () => {
    assert.match(reason({ type: 'object', properties: { s: { type: 'string', minLength: 5, maxLength: 2 } } }), /minLength 5 > maxLength 2/);
    assert.match(reason({ type: 'object', properties: { n: { type: 'number', minimum: 5, maximum: 2 } } }), /minimum 5 > maximum 2/);
    assert.match(reason({ type: 'object', properties: { s: { type: 'string', minLength: -1 } } }), /whole number ≥ 0/);
    assert.match(reason({ type: 'object', properties: { e: { type: 'string', enum: [] } } }), /offers no choices/);
    assert.match(reason({ type: 'object', properties: { e: { type: 'string', enum: ['a', 'a'] } } }), /twice/);
    assert.match(reason({ type: 'object', properties: { e: { type: 'string', enum: ['a', 'b'], enumNames: ['A'] } } }), /enumNames/);
    assert.match(reason({ type: 'object', properties: { e: { type: 'string', oneOf: [{ title: 'x' }] } } }), /without a string "const"/);
    assert.match(reason({ type: 'object', properties: { m: { type: 'array', minItems: 3, items: { enum: ['a', 'b'] } } } }), /needs 3 choices but offers 2/);
    assert.match(reason({ type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }), /required property "b" is not defined/);
    assert.match(reason({ type: 'object', properties: {}, required: 'a' }), /"required" is not a list/);
  });

  it('flags fields that look like credentials by name, title or description', () => {
    const f = fields({
      type: 'object',
      properties: {
        password: { type: 'string' }, apiKey: { type: 'string' }, github_token: { type: 'string' }, clientSecret: { type: 'string' },
        other: { type: 'string', title: 'API key' }, desc: { type: 'string', description: 'Paste your access token here' },
        name: { type: 'string' }, tokenizer: { type: 'string', enum: ['bpe'] }, integer: { type: 'integer', description: 'do not give us your phone number, pin, or other sensitive info' },
      },
    });
    assert.deepEqual(Object.fromEntries(f.map(x => [x.name, x.sensitive])), {
      password: true, apiKey: true, github_token: true, clientSecret: true, other: true, desc: true, name: false, tokenizer: false, integer: false,
    });
    assert.equal(looksSensitive('PIN'), true);
    assert.equal(looksSensitive('passphrase'), true);
    assert.equal(looksSensitive('email', 'Email', 'Where we send the receipt'), false);
  });
});

/** Form elicitation: typed input and whole responses checked against every field type, including rejected input. */
import * as assert from 'node:assert/strict';
import { checkFormat, describeValue, initialValues, parseTextInput, planForm, toContent, validateContent, type FormField } from '../../src/core';
import { everythingSchema } from './elicitationSchemas';

function plan(schema: unknown): readonly FormField[] {
  const p = planForm(schema);
  if (!p.ok) throw new Error(p.reason);
  return p.fields;
}
const everything = plan(everythingSchema);
const field = (name: string) => everything.find(f => f.name === name)! as Extract<FormField, { kind: 'text' | 'number' }>;
const one = (prop: object, required = false) => plan({ type: 'object', properties: { f: prop }, required: required ? ['f'] : [] })[0] as Extract<FormField, { kind: 'text' | 'number' }>;
const ok = (f: Extract<FormField, { kind: 'text' | 'number' }>, text: string) => {
  const r = parseTextInput(f, text);
  assert.ok(r.ok, `${JSON.stringify(text)} should be accepted: ${r.ok ? '' : r.error}`);
  return r.value;
};
const bad = (f: Extract<FormField, { kind: 'text' | 'number' }>, text: string, re: RegExp) => {
  const r = parseTextInput(f, text);
  assert.ok(!r.ok, `${JSON.stringify(text)} should be rejected`);
  assert.match(r.error, re);
};

describe('elicitation: validation', () => {
  describe('typed text', () => {
    it('string: required, minLength/maxLength in characters, empty optional = skipped', () => {
      bad(field('name'), '', /String is required/);
      assert.equal(ok(field('name'), 'Ada Lovelace'), 'Ada Lovelace');
      const f = one({ type: 'string', minLength: 2, maxLength: 4 });
      bad(f, 'a', /at least 2 characters \(now 1\)/);
      bad(f, 'abcde', /at most 4 characters \(now 5\)/);
      assert.equal(ok(f, '😀😀'), '😀😀', 'two emoji are two characters, not four UTF-16 units');
      assert.equal(ok(f, ''), undefined);
    });

    it('email format', () => {
      const f = field('email');
      for (const v of ['ada@example.com', 'first.last+tag@sub.example.org', 'user@localhost', 'jürgen@bücher.de']) ok(f, v);
      for (const v of ['ada', 'ada@', '@example.com', 'a b@example.com', 'ada@exa mple.com', 'ada@@example.com', '.ada@example.com', 'ad..a@example.com', 'ada@-example.com']) bad(f, v, /email address/);
    });

    it('uri format', () => {
      const f = field('homepage');
      for (const v of ['https://example.com', 'http://localhost:8080/a?b=c#d', 'mailto:ada@example.com', 'urn:isbn:0451450523']) ok(f, v);
      for (const v of ['example.com', '/relative/path', 'https://exa mple.com', '://nothing', 'http://']) bad(f, v, /absolute URI/);
    });

    it('date format (real calendar dates only)', () => {
      const f = field('birthdate');
      for (const v of ['1815-12-10', '2024-02-29', '2000-02-29']) ok(f, v);
      for (const v of ['2023-02-29', '1900-02-29', '2024-13-01', '2024-00-10', '2024-04-31', '24-01-01', '2024/01/01', '2024-1-1', '2024-01-01T00:00:00Z']) bad(f, v, /YYYY-MM-DD/);
    });

    it('date-time format (RFC 3339 with a time zone)', () => {
      const f = one({ type: 'string', format: 'date-time' });
      for (const v of ['2025-01-31T13:30:00Z', '2025-01-31t13:30:00.123+01:00', '2025-01-31 23:59:60-05:30']) ok(f, v);
      for (const v of ['2025-01-31T13:30:00', '2025-01-31', '2025-01-31T24:00:00Z', '2025-01-31T13:60:00Z', '2025-02-30T10:00:00Z', '2025-01-31T13:30Z', '2025-01-31T13:30:00+1:00']) bad(f, v, /time zone/);
    });

    it('integer: whole numbers within minimum/maximum; decimals, words and hex rejected', () => {
      const f = field('integer');
      assert.equal(ok(f, '42'), 42);
      assert.equal(ok(f, ' 7 '), 7);
      assert.equal(ok(f, '1e2'), 100);
      bad(f, '4.5', /whole number/);
      bad(f, '0', /≥ 1/);
      bad(f, '101', /≤ 100/);
      bad(f, 'forty', /whole number, like 42/);
      bad(f, '0x10', /whole number/);
      assert.equal(ok(f, ''), undefined, 'optional: empty skips');
    });

    it('number: decimals within minimum/maximum; Infinity and junk rejected', () => {
      const f = field('number');
      assert.equal(ok(f, '3.14'), 3.14);
      assert.equal(ok(f, '.5'), 0.5);
      assert.equal(ok(f, '-0'), -0);
      bad(f, '-1', /≥ 0/);
      bad(f, '1000.5', /≤ 1000/);
      bad(f, 'Infinity', /Enter a number/);
      bad(f, '1,5', /Enter a number/);
      bad(f, '1e999', /finite/);
      bad(one({ type: 'number' }, true), '  ', /is required/);
    });
  });

  describe('whole response', () => {
    it('accepts the defaults plus a name for the server-everything form, and content keeps schema order', () => {
      const values = { ...initialValues(everything), name: 'Ada' };
      assert.deepEqual(validateContent(everything, toContent(everything, values)), []);
      assert.deepEqual(Object.keys(toContent(everything, values)), ['name', 'firstLine', 'integer', 'number', 'untitledSingleSelectEnum', 'untitledMultipleSelectEnum', 'titledSingleSelectEnum', 'titledMultipleSelectEnum', 'legacyTitledEnum']);
    });

    it('initial values are exactly the schema defaults', () => {
      assert.deepEqual(initialValues(everything), {
        firstLine: 'It was a dark and stormy night.', integer: 42, number: 3.14, untitledSingleSelectEnum: 'Monica',
        untitledMultipleSelectEnum: ['Guitar'], titledSingleSelectEnum: 'hero-1', titledMultipleSelectEnum: ['fish-1'], legacyTitledEnum: 'pet-1',
      });
    });

    it('rejects a missing required field, wrong types, out-of-range values, unknown choices and unrequested keys', () => {
      const problems = validateContent(everything, {
        check: 'yes', email: 'nope', homepage: 'example.com', birthdate: '2023-02-29', integer: 3.5, number: '3',
        untitledSingleSelectEnum: 'Gunther', untitledMultipleSelectEnum: [], titledSingleSelectEnum: 'Superman',
        titledMultipleSelectEnum: ['fish-1', 'fish-1'], legacyTitledEnum: 7, extra: 1,
      });
      assert.deepEqual(problems.map(p => p.field), ['name', 'check', 'email', 'homepage', 'birthdate', 'integer', 'number', 'untitledSingleSelectEnum', 'untitledMultipleSelectEnum', 'titledSingleSelectEnum', 'titledMultipleSelectEnum', 'legacyTitledEnum', 'extra']);
      const msg = Object.fromEntries(problems.map(p => [p.field, p.message]));
      assert.match(msg.name, /required/);
      assert.match(msg.check, /boolean/);
      assert.match(msg.integer, /whole number/);
      assert.match(msg.number, /Expected a number/);
      assert.match(msg.untitledSingleSelectEnum, /"Gunther" is not one of the choices/);
      assert.match(msg.untitledMultipleSelectEnum, /at least 1/);
      assert.match(msg.titledSingleSelectEnum, /not one of the choices/, 'the title is not the value');
      assert.match(msg.titledMultipleSelectEnum, /twice/);
      assert.match(msg.extra, /was not requested/);
    });

    it('multi-select: maxItems, unknown values and non-arrays rejected', () => {
      const f = everything.find(x => x.name === 'untitledMultipleSelectEnum')!;
      assert.match(validateContent([f], { untitledMultipleSelectEnum: ['Guitar', 'Piano', 'Violin', 'Drums'] })[0].message, /at most 3/);
      assert.match(validateContent([f], { untitledMultipleSelectEnum: ['Kazoo'] })[0].message, /"Kazoo"/);
      assert.match(validateContent([f], { untitledMultipleSelectEnum: 'Guitar' })[0].message, /list of choices/);
      assert.deepEqual(validateContent([f], { untitledMultipleSelectEnum: ['Bass', 'Guitar'] }), []);
      assert.deepEqual(validateContent([f], {}), [], 'optional: may be left out');
    });

    it('rejects a response that is not an object', () => {
      assert.match(validateContent(everything, null)[0].message, /not an object/);
      assert.match(validateContent(everything, ['a'])[0].message, /not an object/);
    });
  });

  it('describes answers for the review step (choice labels, Yes/No, masked secrets, skipped)', () => {
    const by = (n: string) => everything.find(f => f.name === n)!;
    assert.equal(describeValue(by('titledSingleSelectEnum'), 'hero-2'), 'Green Lantern');
    assert.equal(describeValue(by('legacyTitledEnum'), 'pet-2'), 'Dogs');
    assert.equal(describeValue(by('titledMultipleSelectEnum'), ['fish-1', 'fish-3']), 'Tuna, Trout');
    assert.equal(describeValue(by('check'), false), 'No');
    assert.equal(describeValue(by('email'), undefined), '(skipped)');
    assert.equal(describeValue(plan({ type: 'object', properties: { password: { type: 'string' } } })[0], 'hunter2'), '•••••••');
  });

  it('checkFormat is usable on its own', () => {
    assert.equal(checkFormat('date', '2025-12-31'), undefined);
    assert.match(checkFormat('email', 'x') ?? '', /email/);
  });
});

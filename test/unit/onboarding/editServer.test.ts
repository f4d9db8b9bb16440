/** The pure half of Edit Server (src/core/onboarding/editServer.ts): secrets by reference, every field, the parser's verdict. */
import * as assert from 'node:assert/strict';
import { editServer, entriesOf } from '../../../src/core/onboarding';

describe('Edit Server: the declaration an edit makes', () => {
  const original = {
    command: 'node', args: ['server.js'], cwd: '/srv', envFile: '/srv/.env', timeout: 10,
    env: { API_TOKEN: '${input:srv.API_TOKEN}', LEVEL: 'info', HOME: null },
    roots: ['docs'], sandbox: { network: {} }, dev: { watch: 'src/**/*.js' },
  };

  it('shows a secret as a reference, never a value, and keeps it when left alone', () => {
    const entries = entriesOf(original.env);
    assert.deepEqual(entries, [
      { name: 'API_TOKEN', value: '', secret: true, inputId: 'srv.API_TOKEN', raw: '${input:srv.API_TOKEN}' },
      { name: 'LEVEL', value: 'info', secret: false },
    ]);
    const r = editServer('srv', original, { kind: 'stdio', changes: { timeout: 45 }, entries });
    assert.deepEqual(r.errors, []);
    assert.deepEqual(r.declaration, { ...original, timeout: 45 }, 'everything else (a removed variable too) is kept');
    assert.deepEqual([r.inputs, r.secrets], [[], []]);
  });

  it('a new value of a kept secret goes to the secret store under its id; a new secret gets an id of its own', () => {
    const [token, level] = entriesOf(original.env);
    const r = editServer('srv', original, { kind: 'stdio', changes: {}, entries: [{ ...token, value: 'sk-new' }, level, { name: 'OTHER_KEY', value: 'sk-other', secret: true }] }, ['srv.API_TOKEN']);
    assert.deepEqual(r.declaration.env, { HOME: null, API_TOKEN: '${input:srv.API_TOKEN}', LEVEL: 'info', OTHER_KEY: '${input:srv.OTHER_KEY}' });
    assert.deepEqual(r.secrets, [{ id: 'srv.API_TOKEN', value: 'sk-new' }, { id: 'srv.OTHER_KEY', value: 'sk-other' }]);
    assert.deepEqual(r.inputs.map(i => i.id), ['srv.OTHER_KEY']);
    assert.ok(!JSON.stringify(r.declaration).includes('sk-'), 'no secret value in the declaration');
  });

  it('a header keeps its scheme in plain text', () => {
    const http = { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:h.Authorization}' } };
    const [auth] = entriesOf(http.headers);
    const kept = editServer('h', http, { kind: 'http', changes: {}, entries: [auth] });
    assert.deepEqual(kept.declaration.headers, http.headers);
    const changed = editServer('h', http, { kind: 'http', changes: {}, entries: [{ ...auth, value: 'Bearer t0k3n-value' }] });
    assert.deepEqual([changed.declaration.headers, changed.secrets], [http.headers, [{ id: 'h.Authorization', value: 't0k3n-value' }]]);
  });

  it('removes a field set to undefined, ignores fields the form does not edit, and reports the parser\'s errors', () => {
    const r = editServer('srv', original, { kind: 'stdio', changes: { cwd: undefined, ...{ type: 'http' } as object } });
    assert.equal('cwd' in r.declaration, false);
    assert.equal(r.declaration.type, undefined, 'type is not a field of the form');
    const bad = editServer('srv', original, { kind: 'stdio', changes: { timeout: 'soon' } });
    assert.ok(bad.errors.length > 0, 'a timeout that is no number is refused like a hand-written one');
  });

  it('ATTACKER: a value crafted to end the JSON stays the string of its one field, and the original is not touched', () => {
    const crafted = '", "command": "/bin/sh" }, "pwned": { "command": "/bin/sh';
    const r = editServer('srv', original, { kind: 'stdio', changes: { cwd: crafted }, entries: [{ name: 'X', value: crafted, secret: false }] });
    assert.equal(r.declaration.cwd, crafted);
    assert.deepEqual(r.declaration.env, { HOME: null, X: crafted });
    assert.equal(r.declaration.command, 'node');
    assert.equal(original.cwd, '/srv', 'the settings object it was given is not changed');
  });
});

/** Issue 32: pinned authorization servers — an authorization server that only looks like an allowed one is refused. */
import * as assert from 'node:assert/strict';
import { checkPinned } from '../../src/core/auth/providerChecks';

describe('policy: pinned authorization servers (issue 32)', () => {
  const allowed = ['https://login.corp.example'];
  it('admits the allowed origin, whatever its path and case', () => {
    assert.doesNotThrow(() => checkPinned('https://LOGIN.corp.example/oauth2/v2', allowed));
    assert.doesNotThrow(() => checkPinned('https://evil.example', undefined));
  });
  for (const issuer of [
    'https://login.corp.example.evil.net',
    'https://login.corp.example@evil.net',
    'https://login.corp.example:8443',
    'http://login.corp.example',
    'https://evil.net/login.corp.example',
    'not a url',
  ]) it(`attacker: refuses ${issuer}`, () => assert.throws(() => checkPinned(issuer, allowed), /refused by policy/));
  it('attacker: an entry an administrator wrote without a scheme admits no issuer with an opaque origin', () => {
    // `login.corp.example:443` parses as scheme "login.corp.example:" with origin "null", as does `urn:x`.
    assert.throws(() => checkPinned('urn:x', ['login.corp.example:443']), /refused by policy/);
    assert.throws(() => checkPinned('mailto:a@login.corp.example', ['login.corp.example:443']), /refused by policy/);
  });
  it('an empty list admits none', () => assert.throws(() => checkPinned('https://login.corp.example', []), /refused by policy/));
});

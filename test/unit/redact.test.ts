/** The one redaction function: secrets in every form they take in logs and exports. */
import * as assert from 'node:assert/strict';
import { redact, redactValue, type Logger } from '../../src/core';
import { createTestHost, fixtureServer, node, waitForState } from './helpers';

describe('redaction', () => {
  // A password with a quote, a backslash, a slash and non-ASCII: JSON escapes all of them.
  const secret = 'pa"ss\\wörd/✓-42';

  it('catches a secret escaped in JSON, twice escaped, \\u-escaped and percent-encoded', () => {
    const once = JSON.stringify({ args: { password: secret } });
    const twice = JSON.stringify({ args: once }, null, 2);
    const python = '{"password": "pa\\"ss\\\\w\\u00f6rd/\\u2713-42"}'; // json.dumps default (ensure_ascii)
    const pythonUpper = python.replace('\\u00f6', '\\u00F6').replace('\\u2713', '\\u2713');
    const exported = JSON.stringify([{ result: python }], null, 2);
    const php = JSON.stringify(secret).replace(/\//g, '\\/');
    const url = `https://h.example/mcp?key=${encodeURIComponent(secret)}`;
    for (const text of [once, twice, python, pythonUpper, exported, php, url]) {
      const out = redact(text, [secret]);
      assert.ok(out.includes('[REDACTED]'), `redacted in ${text}`);
      for (const piece of ['pa"ss', 'pa\\"ss', 'w\\u00f6rd', 'wörd', 'rd/✓', '%E2%9C%93']) assert.ok(!out.includes(piece), `${piece} left in ${out}`);
    }
  });

  it('redacts every string and key inside a value and keeps its shape (tool activity handed to other extensions)', () => {
    const value = { token: secret, n: 3, ok: true, none: null, list: [`x ${secret} y`, 7, { deep: [secret] }], [secret]: 'key' };
    const out = redactValue(value, [secret]);
    assert.deepEqual(out, { token: '[REDACTED]', n: 3, ok: true, none: null, list: ['x [REDACTED] y', 7, { deep: ['[REDACTED]'] }], '[REDACTED]': 'key' });
    assert.ok(!JSON.stringify(out).includes('pa\\"ss'));
    assert.deepEqual(value.list[2], { deep: [secret] }, 'the given value is not changed');
    // Past the depth bound nothing is walked or shown.
    assert.deepEqual(redactValue([[[[[secret]]]]], [secret], 3), [[['[nested too deep]']]]);
  });

  it('keeps the scheme of an Authorization value and masks the rest', () => {
    assert.equal(redact('"authorization":"Bearer abc.def"'), '"authorization":"Bearer [REDACTED]"');
    assert.equal(redact('Authorization: Basic dXNlcjpwYXNz; next'), 'Authorization: Basic [REDACTED]; next');
    assert.equal(redact('plain words stay'), 'plain words stay');
    assert.equal(redact('headers.Authorization: ${input:tok} was not provided'), 'headers.Authorization: ${input:tok} was not provided', 'a variable is no value');
  });

  it('redacts resolved input values in the logged command line of a stdio server', async () => {
    const token = `tok-${Math.random().toString(36).slice(2)}`;
    const { host, loggers } = createTestHost({
      variables: { workspaceFolders: [], trusted: true, userHome: '/', env: {}, resolveInput: async () => token },
    });
    try {
      await host.apply({ cli: { ...node(fixtureServer('noisy')), args: [fixtureServer('noisy'), '--token', '${input:cliToken}', `--inline=${'${input:cliToken}'}`], env: { FIXTURE_STDERR_LINES: '0' } } });
      const conn = host.require('cli');
      await waitForState(conn, 'running');
      const log = (loggers.get('cli') as Logger & { text(): string }).text();
      assert.match(log, /Starting \(stdio: .*--token \[REDACTED\] --inline=\[REDACTED\]/);
      assert.ok(!log.includes(token), 'the token is not in the log');
    } finally {
      await host.shutdown();
    }
  });
});

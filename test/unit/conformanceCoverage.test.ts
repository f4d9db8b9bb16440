/**
 * The conformance runner (test/conformance/run.mjs) must not report green when it checked nothing:
 * an empty run, or a required scenario the suite no longer lists or that never reported, is a failure.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '../../..');
type Problem = { title: string; error: string };
type Coverage = (run: { required: string[]; listed: string[]; ran: string[]; grep?: string; claimsNone?: boolean }) => Problem[];

describe('conformance runner coverage', () => {
  let coverageProblems: Coverage;
  const requiredOf = (set: string) => (JSON.parse(fs.readFileSync(path.join(repo, `test/conformance/required-${set}.json`), 'utf8')) as { scenarios: string[] }).scenarios;
  const required = requiredOf('2025-11-25');
  before(async () => { ({ coverageProblems } = await import(path.join(repo, 'test/conformance/coverage.mjs')) as { coverageProblems: Coverage }); });

  it('requires the 18 client scenarios of 2025-11-25 and the 32 of 2026-07-28 the suite requires', () => {
    assert.equal(required.length, 18);
    assert.equal(new Set(required).size, required.length);
    const modern = requiredOf('2026-07-28');
    assert.equal(modern.length, 32);
    assert.equal(new Set(modern).size, modern.length);
  });

  it('a run of every required scenario passes the coverage check', () => {
    assert.deepEqual(coverageProblems({ required, listed: required, ran: required }), []);
  });

  it('a run of zero scenarios fails (a suite that lists nothing, or a grep that selects nothing)', () => {
    assert.deepEqual(coverageProblems({ required: [], listed: [], ran: [] }).map(p => p.title), ['conformance (no scenario ran)']);
    const byGrep = coverageProblems({ required, listed: required, ran: [], grep: 'no-such-scenario' });
    assert.deepEqual(byGrep.map(p => p.title), ['conformance (no scenario ran)']);
    assert.match(byGrep[0].error, /no client scenario matches --grep no-such-scenario/);
  });

  it('the extension set may claim no scenario (an empty run is then expected), but never skip one it claims', () => {
    const listed = ['auth/client-credentials-basic', 'auth/dpop'];
    assert.deepEqual(coverageProblems({ required: [], listed, ran: [], claimsNone: true }), []);
    assert.deepEqual(coverageProblems({ required: ['auth/dpop'], listed, ran: [], claimsNone: true }).map(p => p.title),
      ['conformance (no scenario ran)', 'conformance auth/dpop']);
  });

  it('a required scenario the suite stopped listing, or that reported nothing, is a failure', () => {
    const listed = required.filter(s => s !== 'sse-retry');
    const ran = listed.filter(s => s !== 'auth/pre-registration');
    const problems = coverageProblems({ required, listed, ran });
    assert.deepEqual(problems.map(p => p.title), ['conformance sse-retry', 'conformance auth/pre-registration']);
    assert.match(problems[0].error, /does not list it/);
    assert.match(problems[1].error, /reported no result/);
  });

  it('with --grep only the required scenarios it selects are expected', () => {
    assert.deepEqual(coverageProblems({ required, listed: required, ran: ['auth/metadata-default'], grep: 'auth/metadata-default' }), []);
    assert.deepEqual(coverageProblems({ required, listed: required, ran: ['auth/metadata-var1'], grep: 'auth/metadata' }).map(p => p.title),
      ['conformance auth/metadata-default', 'conformance auth/metadata-var2', 'conformance auth/metadata-var3']);
  });
});

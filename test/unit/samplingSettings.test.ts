import * as assert from 'node:assert/strict';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, parseSamplingSettings, RateLimiter } from '../../src/core/sampling';

describe('sampling settings', () => {
  it('defaults to ask, the default rate limit and redaction on', () => {
    const s = parseSamplingSettings({});
    assert.deepEqual(s.forServer('any'), { policy: 'ask', allowedModels: undefined, defaultModel: undefined, rateLimit: DEFAULT_RATE_LIMIT_PER_MINUTE });
    assert.equal(s.redactSecrets, true);
    assert.deepEqual(s.problems, []);
  });

  it('merges the "*" defaults with per-server entries, field by field', () => {
    const s = parseSamplingSettings({
      sampling: { '*': { policy: 'deny', defaultModel: 'gpt-4o', rateLimit: 3 }, trusted: { policy: 'allow', allowedModels: ['a', ' b '] }, short: 'allow' },
      rateLimit: 20, redactSecrets: false,
    });
    assert.deepEqual(s.forServer('trusted'), { policy: 'allow', allowedModels: ['a', 'b'], defaultModel: 'gpt-4o', rateLimit: 3 });
    assert.deepEqual(s.forServer('other'), { policy: 'deny', allowedModels: undefined, defaultModel: 'gpt-4o', rateLimit: 3 });
    assert.equal(s.forServer('short').policy, 'allow');
    assert.equal(s.redactSecrets, false);
    assert.equal(parseSamplingSettings({ rateLimit: 0 }).forServer('x').rateLimit, 0);
  });

  it('reports malformed values and falls back to safe defaults', () => {
    const s = parseSamplingSettings({ sampling: { x: { policy: 'sometimes', allowedModels: 'gpt', rateLimit: -1 }, y: 5 }, rateLimit: 'many' });
    assert.equal(s.forServer('x').policy, 'ask');
    assert.equal(s.forServer('x').rateLimit, DEFAULT_RATE_LIMIT_PER_MINUTE);
    assert.equal(s.problems.length, 5);
    assert.match(s.problems.join('\n'), /policy must be "ask", "allow" or "deny"/);
    assert.match(parseSamplingSettings({ sampling: [] }).problems[0], /must be an object/);
  });
});

describe('sampling rate limiter', () => {
  it('allows `limit` requests per sliding minute per key', () => {
    let now = 0;
    const rl = new RateLimiter(60_000, () => now);
    assert.ok(rl.take('a', 2).ok);
    now = 10_000;
    assert.ok(rl.take('a', 2).ok);
    assert.ok(rl.take('b', 2).ok, 'keys are independent');
    const denied = rl.take('a', 2);
    assert.deepEqual(denied, { ok: false, retryAfterMs: 50_000 });
    now = 60_000;
    assert.ok(rl.take('a', 2).ok, 'the first request left the window');
    assert.equal(rl.take('a', 2).ok, false);
    assert.ok(rl.take('a', 0).ok, '0 = unlimited');
  });
});

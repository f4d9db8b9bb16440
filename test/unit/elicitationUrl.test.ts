/**
 * URL-mode elicitation in the core: URL review (domain split, look-alike warnings), -32042 detection
 * and retry, completion tracking — against server-everything and the eliciting fixture over stdio.
 */
import * as assert from 'node:assert/strict';
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import {
  ElicitationTracker, Emitter, isMixedScript, retryAfterUrlElicitation, reviewUrl, ServerError, urlElicitationsOf,
  type ElicitationCompletion, type McpHost, type ServerRef, type UrlReview,
} from '../../src/core';
import { createTestHost, everythingBin, fixtureServer, node, text, waitFor } from './helpers';

function review(url: string): UrlReview {
  const r = reviewUrl(url);
  assert.ok(r.ok, r.ok ? '' : r.reason);
  return r.review;
}
const kinds = (url: string) => review(url).warnings.map(w => w.kind);

describe('elicitation: URL review', () => {
  it('splits the URL around its host so the domain can be highlighted', () => {
    const r = review('https://accounts.example.com/oauth/authorize?client_id=abc#x');
    assert.deepEqual(r.parts, { before: 'https://', host: 'accounts.example.com', after: '/oauth/authorize?client_id=abc#x' });
    assert.equal(r.parts.before + r.parts.host + r.parts.after, r.href);
    assert.deepEqual(r.warnings, []);
    const withPort = review('http://127.0.0.1:8080/cb?x=1');
    assert.deepEqual(withPort.parts, { before: 'http://', host: '127.0.0.1', after: ':8080/cb?x=1' });
  });

  it('warns about punycode and shows the look-alike Unicode form', () => {
    const r = review('https://xn--pypal-4ve.com/signin'); // "pаypal.com" with a Cyrillic а
    assert.deepEqual(r.warnings.map(w => w.kind), ['mixedScripts', 'punycode']);
    assert.equal(r.host, 'xn--pypal-4ve.com');
    assert.equal(r.unicodeHost, 'p\u0430ypal.com');
    assert.match(r.warnings[0].message, /Latin \+ Cyrillic/);
    // A Unicode URL is converted to punycode by URL parsing, and still warned about.
    assert.deepEqual(kinds('https://аpple.com/'), ['mixedScripts', 'punycode']);
    // Whole-script Cyrillic look-alike: not mixed, but internationalized.
    assert.deepEqual(kinds('https://аррӏе.com/'), ['punycode']);
  });

  it('knows which script mixes are normal', () => {
    assert.equal(isMixedScript('example'), false);
    assert.equal(isMixedScript('пример'), false);
    assert.equal(isMixedScript('日本語とカタカナ'), false);
    assert.equal(isMixedScript('abc日本'), false);
    assert.equal(isMixedScript('gοogle'), true, 'Greek omicron');
    assert.equal(isMixedScript('exаmple'), true, 'Cyrillic a');
  });

  it('warns about raw IP addresses, but not about localhost', () => {
    assert.deepEqual(kinds('http://localhost:3000/callback'), []);
    assert.deepEqual(kinds('http://127.0.0.1:3000/callback'), []);
    assert.deepEqual(kinds('https://203.0.113.7/pay'), ['ipAddress']);
    assert.deepEqual(kinds('https://[2001:db8::1]/pay'), ['ipAddress']);
  });

  it('refuses what the safe-URL rule refuses: other schemes, plain http to another machine, user names before @', () => {
    for (const [bad, code] of [
      ['javascript:alert(1)', 'scheme'], ['file:///etc/passwd', 'scheme'], ['data:text/html,hi', 'scheme'], ['vscode://settings', 'scheme'],
      ['not a url', 'controlCharacters'], ['http://example.com/', 'insecureHttp'], ['https://google.com@evil.example/', 'credentials'],
    ] as const) {
      const r = reviewUrl(bad);
      assert.ok(!r.ok, bad);
      assert.equal(r.code, code, bad);
    }
  });
});

describe('elicitation: -32042 and completion', function () {
  this.timeout(30_000);
  let host: McpHost;
  const asked: { server: ServerRef; params: ElicitRequest['params'] }[] = [];
  let answer: (params: ElicitRequest['params']) => ElicitResult = () => ({ action: 'accept' });

  before(async () => {
    ({ host } = createTestHost({ elicitation: async (server, params) => { asked.push({ server, params }); return answer(params); } }));
    await host.apply({ everything: node(everythingBin), fixture: node(fixtureServer('eliciting')) });
    await waitFor(() => host.get('everything')?.tool('trigger-url-elicitation') && host.get('fixture')?.tool('needs-url'), 'elicitation tools');
  });
  after(() => host.shutdown());
  beforeEach(() => { asked.length = 0; answer = () => ({ action: 'accept' }); });

  it('declares form and URL elicitation (server-everything registers its elicitation tools)', () => {
    const names = host.get('everything')!.catalog.get('tools').map(t => t.name);
    assert.ok(names.includes('trigger-elicitation-request'));
    assert.ok(names.includes('trigger-url-elicitation'));
  });

  it('routes a URL-mode elicitation/create to the handler with the server named', async () => {
    const r = await host.require('everything').callTool('trigger-url-elicitation', { url: 'https://example.com/consent', elicitationId: 'e-1' });
    assert.equal(asked.length, 1);
    assert.equal(asked[0].server.name, 'everything');
    assert.deepEqual(asked[0].params, { mode: 'url', url: 'https://example.com/consent', message: 'Please open the link to complete this action.', elicitationId: 'e-1' });
    assert.match(text(r), /User completed the URL elicitation flow/);
  });

  it('finds the URL elicitations of a -32042 tool error (server-everything errorPath) through the ServerError cause', async () => {
    const err = await host.require('everything').callTool('trigger-url-elicitation', { url: 'https://example.com/a', elicitationId: 'x', errorPath: true }).then(() => undefined, e => e);
    assert.ok(err instanceof ServerError);
    assert.equal(err.code, -32042);
    const list = urlElicitationsOf(err);
    assert.equal(list?.length, 1);
    assert.equal(list![0].mode, 'url');
    assert.equal(list![0].url, 'https://modelcontextprotocol.io');
    assert.equal(typeof list![0].elicitationId, 'string');
    // The retry clears server-everything's one-shot marker; do it so later tests start clean.
    await host.require('everything').callTool('trigger-url-elicitation', { url: 'https://example.com/a', elicitationId: 'x', errorPath: true });
  });

  it('urlElicitationsOf: undefined for other errors, [] for a -32042 without usable entries', () => {
    assert.equal(urlElicitationsOf(new Error('x')), undefined);
    assert.equal(urlElicitationsOf(new ServerError('s', 'failed', -32602)), undefined);
    assert.deepEqual(urlElicitationsOf({ code: -32042, data: { elicitations: [{ mode: 'url', url: 'not a url', elicitationId: '1', message: 'm' }] } }), []);
    assert.deepEqual(urlElicitationsOf({ code: -32042 }), []);
  });

  it('retryAfterUrlElicitation presents the URLs, then retries the original call (server-everything errorPath)', async () => {
    const seen: string[] = [];
    const ev = host.require('everything');
    const r = await retryAfterUrlElicitation(
      () => ev.callTool('trigger-url-elicitation', { url: 'https://example.com/b', elicitationId: 'retry-1', errorPath: true }),
      async (elicitations, ctx) => { seen.push(`${ctx.attempt}:${elicitations.map(e => e.url).join(',')}`); return 'retry'; },
    );
    assert.deepEqual(seen, ['1:https://modelcontextprotocol.io']);
    assert.match(text(r), /User completed the URL elicitation flow/);
    assert.equal(asked.at(-1)?.params.mode, 'url', 'the retried call went down the request path');
  });

  it('retryAfterUrlElicitation rethrows when the resolver stops, and gives up after maxAttempts', async () => {
    const ev = host.require('everything');
    const call = () => ev.callTool('trigger-url-elicitation', { url: 'https://example.com/c', elicitationId: 'stop-1', errorPath: true });
    await assert.rejects(retryAfterUrlElicitation(call, async () => 'stop'), (e: unknown) => (e as ServerError).code === -32042);
    await ev.callTool('trigger-url-elicitation', { url: 'https://example.com/c', elicitationId: 'stop-1', errorPath: true }); // clears the marker
    let calls = 0;
    const always = async () => { calls++; throw new ServerError('s', 'needs url', -32042, { cause: { code: -32042, data: { elicitations: [{ mode: 'url', url: 'https://example.com', elicitationId: 'i', message: 'm' }] } } }); };
    await assert.rejects(retryAfterUrlElicitation(always, async () => 'retry', { maxAttempts: 2 }), /needs url/);
    assert.equal(calls, 2);
    await assert.rejects(retryAfterUrlElicitation(async () => { throw new Error('other'); }, async () => 'retry'), /other/);
  });

  it('fires host.onDidCompleteElicitation for notifications/elicitation/complete, and the tracker finishes only tracked ids', async () => {
    const ignored: ElicitationCompletion[] = [];
    const tracker = new ElicitationTracker(host.onDidCompleteElicitation, c => ignored.push(c));
    try {
      const fx = host.require('fixture');
      const tracked = tracker.track('fixture', 'id-1');
      assert.equal(tracker.isTracked('fixture', 'id-1'), true);
      await fx.callTool('complete', { elicitationId: 'unknown-id' });
      await fx.callTool('complete', { elicitationId: 'id-1' });
      await tracked.done;
      assert.equal(tracked.isDone, true);
      assert.equal(tracker.isTracked('fixture', 'id-1'), false);
      await fx.callTool('complete', { elicitationId: 'id-1' }); // already finished → ignored
      await waitFor(() => ignored.length === 2, 'two ignored notifications');
      assert.deepEqual(ignored, [{ server: 'fixture', elicitationId: 'unknown-id' }, { server: 'fixture', elicitationId: 'id-1' }]);
    } finally {
      tracker.dispose();
    }
  });

  it('an accepted URL elicitation is completed by the server later (fixture ask-url completeAfterMs)', async () => {
    const tracker = new ElicitationTracker(host.onDidCompleteElicitation);
    let tracked: ReturnType<ElicitationTracker['track']> | undefined;
    answer = params => { if (params.mode === 'url') tracked = tracker.track('fixture', params.elicitationId); return { action: 'accept' }; };
    try {
      const r = JSON.parse(text(await host.require('fixture').callTool('ask-url', { url: 'https://example.com/x', elicitationId: 'late', completeAfterMs: 50 })));
      assert.deepEqual(r, { action: 'accept', elicitationId: 'late' });
      await tracked!.done;
    } finally {
      tracker.dispose();
    }
  });

  it('-32042 from the fixture: retry succeeds once the completion notification arrived', async () => {
    const tracker = new ElicitationTracker(host.onDidCompleteElicitation);
    const fx = host.require('fixture');
    try {
      const r = await retryAfterUrlElicitation(() => fx.callTool('needs-url', { completeAfterMs: 100 }), async elicitations => {
        assert.equal(elicitations[0].url, 'https://example.com/authorize');
        await tracker.track('fixture', elicitations[0].elicitationId).done;
        return 'retry';
      });
      assert.equal(text(r), 'authorized');
    } finally {
      tracker.dispose();
    }
  });

  it('tracker: several waiters finish together; a disposed waiter stops waiting', async () => {
    const emitter = new Emitter<ElicitationCompletion>();
    const tracker = new ElicitationTracker(emitter.event);
    const a = tracker.track('s', '1');
    const b = tracker.track('s', '1');
    const c = tracker.track('s', '2');
    c.dispose();
    assert.equal(tracker.isTracked('s', '2'), false);
    emitter.fire({ server: 'other', elicitationId: '1' });
    assert.equal(a.isDone, false, 'same id from another server does not count');
    emitter.fire({ server: 's', elicitationId: '1' });
    await Promise.all([a.done, b.done]);
    tracker.dispose();
  });
});

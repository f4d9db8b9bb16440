/** Streamable HTTP specifics: session expiry, DELETE on close, legacy SSE fallback, header secrets. */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { LogLevel } from '../../src/core';
import { createTestHost, startHttpFixture, text } from './helpers';

interface SessionInfo { sessionId: string; transport: string; sessionsInitialized: number; deleteRequests: number }

describe('http transport', function () {
  this.timeout(30_000);
  const children: ChildProcess[] = [];
  after(() => { for (const c of children) c.kill(); });
  const start = async (...a: Parameters<typeof startHttpFixture>) => { const s = await startHttpFixture(...a); children.push(s.child); return s; };

  it('re-initializes when the server answers 404 for an expired session, and retries the request', async () => {
    const { url } = await start('expiring');
    const { host, loggers } = createTestHost();
    try {
      await host.apply({ e: { url } });
      const s = host.require('e');
      const info1 = JSON.parse(text(await s.callTool('session-info', {}))) as SessionInfo;
      await s.callTool('expire-session', {});
      assert.equal(text(await s.callTool('echo', { text: 'still here' })), 'still here');
      const info2 = JSON.parse(text(await s.callTool('session-info', {}))) as SessionInfo;
      assert.notEqual(info2.sessionId, info1.sessionId);
      assert.equal(info2.sessionsInitialized, info1.sessionsInitialized + 1);
      assert.equal(s.state, 'running');
      assert.match(loggers.get('e')!.text(), /HTTP session expired \(404\); re-initializing/);
    } finally { await host.shutdown(); }
  });

  it('sends DELETE for its session when stopped', async () => {
    const { url } = await start('expiring');
    const { host } = createTestHost();
    try {
      await host.apply({ e: { url } });
      const before = JSON.parse(text(await host.require('e').callTool('session-info', {}))) as SessionInfo;
      await host.require('e').restart();
      const after = JSON.parse(text(await host.require('e').callTool('session-info', {}))) as SessionInfo;
      assert.equal(after.deleteRequests, before.deleteRequests + 1);
    } finally { await host.shutdown(); }
  });

  it('falls back to legacy HTTP+SSE when Streamable HTTP is refused, and type "sse" forces legacy', async () => {
    const legacy = await start('expiring', ['--legacy-only']);
    const both = await start('expiring', ['--sse']);
    const { host, loggers } = createTestHost();
    try {
      await host.apply({
        fallback: { type: 'http', url: legacy.url },
        forced: { type: 'sse', url: both.url.replace(/\/mcp$/, '/sse') },
        modern: { type: 'http', url: both.url },
      });
      assert.equal(host.require('fallback').transportKind, 'sse');
      assert.equal(host.require('forced').transportKind, 'sse');
      assert.equal(host.require('modern').transportKind, 'http');
      assert.equal(text(await host.require('fallback').callTool('echo', { text: 'legacy' })), 'legacy');
      assert.equal(text(await host.require('forced').callTool('echo', { text: 'sse' })), 'sse');
      assert.match(loggers.get('fallback')!.text(), /Streamable HTTP was refused \(HTTP 405\); trying the legacy HTTP\+SSE transport/);
    } finally { await host.shutdown(); }
  });

  it('sends header secrets from inputs but never writes them to any log, even at trace level', async () => {
    const { url } = await start('expiring');
    const secret = 'sk-test-' + Math.random().toString(36).slice(2);
    const { host, loggers } = createTestHost({
      variables: { workspaceFolders: [], trusted: true, userHome: '/', env: {}, resolveInput: async ({ id }) => id === 'apiKey' ? secret : undefined },
    }, {}, LogLevel.Trace);
    try {
      await host.apply({ e: { url, headers: { Authorization: 'Bearer ${input:apiKey}', 'X-Api-Key': '${input:apiKey}' } } });
      const s = host.require('e');
      assert.equal(s.state, 'running', s.message);
      await s.callTool('echo', { text: `my key is ${secret}` });
      const log = loggers.get('e')!.text();
      assert.ok(log.includes('→'), 'protocol trace is logged at trace level');
      assert.ok(!log.includes(secret), 'the secret never reaches the log');
      assert.match(log, /my key is \[REDACTED\]/, 'one redaction function, one marker');
    } finally { await host.shutdown(); }
  });

  it('reports a refused connection in words', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ gone: { url: 'http://127.0.0.1:9/mcp' } });
      assert.equal(host.require('gone').state, 'error');
      assert.match(host.require('gone').message!, /Could not (connect|start)/);
    } finally { await host.shutdown(); }
  });
});

/** HTTP servers that go away, or cannot be reached: clear causes, in-flight calls fail at once, reconnects without the user. */
import * as assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { createTestHost, fixtureServer, repoRoot, startHttpFixture, text, waitFor, waitForState } from './helpers';

describe('http: servers that go away', function () {
  this.timeout(30_000);
  const children: ChildProcess[] = [];
  after(() => { for (const c of children) c.kill('SIGKILL'); });
  const start = async (...a: Parameters<typeof startHttpFixture>) => { const s = await startHttpFixture(...a); children.push(s.child); return s; };
  const kill = async (child: ChildProcess) => { const exited = once(child, 'exit'); child.kill('SIGKILL'); await exited; };
  // Room for a few reconnect attempts while the test brings the server back.
  const restart = { maxRestarts: 20, windowMs: 60_000, baseDelayMs: 100, maxDelayMs: 300 };

  it('fails a call in flight at once when the server dies mid-stream, says why, and reconnects when it is back', async () => {
    const first = await start('crashing');
    const { host } = createTestHost({}, { restart });
    try {
      await host.apply({ c: { url: first.url, timeout: 20 } });
      const s = host.require('c');
      assert.equal(text(await s.callTool('echo', { text: 'up' })), 'up');
      const t0 = Date.now();
      // The server accepts the call, then its process dies with the response stream open.
      await assert.rejects(s.callTool('crash-later', { ms: 100 }), (e: Error) => {
        assert.match(e.message, /^c: tools\/call failed: the connection to the server was lost \((connection refused: nothing is listening at http:\/\/127\.0\.0\.1:\d+\/mcp|the server dropped the connection \(\w+\))\) before the server answered$/);
        return true;
      });
      assert.ok(Date.now() - t0 < 15_000, 'did not wait for the 20 s timeout');
      await waitFor(() => s.state === 'starting' && /reconnecting in/.test(s.message ?? '') && s.message, 'the reconnecting state');
      // The same address serves again (a restarted server, so a new session).
      const port = new URL(first.url).port;
      const again = await startHttpFixtureOnPort('crashing', port);
      children.push(again);
      await waitForState(s, 'running');
      assert.equal(text(await s.callTool('echo', { text: 'back' })), 'back');
    } finally { await host.shutdown(); }
  });

  it('notices a server that went away between calls: the call says "connection refused", the server reconnects', async () => {
    const first = await start('expiring');
    const { host } = createTestHost({}, { restart });
    try {
      await host.apply({ e: { url: first.url, timeout: 2 } });
      const s = host.require('e');
      assert.equal(text(await s.callTool('echo', { text: 'up' })), 'up');
      await kill(first.child);
      await assert.rejects(s.callTool('echo', { text: 'gone?' }), /connection refused: nothing is listening at http:\/\/127\.0\.0\.1:\d+\/mcp|the server dropped the connection/);
      await waitFor(() => s.state === 'starting' && /reconnecting in/.test(s.message ?? ''), 'the reconnecting state');
      children.push(await startHttpFixtureOnPort('expiring', new URL(first.url).port));
      await waitForState(s, 'running');
      assert.equal(text(await s.callTool('echo', { text: 'back' })), 'back');
    } finally { await host.shutdown(); }
  });
});

describe('http: why a connection failed', function () {
  this.timeout(30_000);

  it('names an unknown host (DNS) instead of "fetch failed"', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ d: { url: 'http://no-such-host.invalid/mcp' } });
      const s = host.require('d');
      assert.equal(s.state, 'error');
      assert.match(s.message!, /^Could not connect: the host name "no-such-host\.invalid" could not be resolved \(DNS: (ENOTFOUND|EAI_AGAIN)\)\.$/);
    } finally { await host.shutdown(); }
  });

  it('names a certificate the host does not trust (TLS) instead of "fetch failed"', async () => {
    // A self-signed certificate that only tests trust: the host must refuse it, and say so.
    const tls = { cert: readFileSync(path.join(repoRoot, 'test/fixtures/tls/loopback.crt')), key: readFileSync(path.join(repoRoot, 'test/fixtures/tls/loopback.key')) };
    const server = https.createServer(tls, (_req, res) => { res.writeHead(500).end(); });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { host } = createTestHost();
    try {
      await host.apply({ t: { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` } });
      const s = host.require('t');
      assert.equal(s.state, 'error');
      assert.match(s.message!, /^Could not connect: the TLS certificate was refused \((DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE): .+\)\.$/);
      assert.doesNotMatch(s.message!, /fetch failed/);
    } finally {
      await host.shutdown();
      server.close();
    }
  });
});

/** Starts a fixture server over Streamable HTTP on a given port (the one a test's server had before). */
async function startHttpFixtureOnPort(name: string, port: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fixtureServer(name), '--http', port], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d; if (/LISTENING/.test(out)) resolve(); });
    child.once('exit', c => reject(new Error(`${name} exited with ${c} before listening`)));
  });
  return child;
}

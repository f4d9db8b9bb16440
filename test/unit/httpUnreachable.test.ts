/**
 * Issue 30 item 10: an HTTP or SSE server that cannot be reached says why in words a user can act on —
 * the host and port, and what failed (blocked port, refused, DNS) — in the row (state message), the
 * server's log and the CLI, never `fetch failed` or a raw `TypeError`. The URLs are what a user mistypes:
 * ports fetch refuses to connect to (1, 6000), a port nothing listens on, a host name that does not exist.
 */
import * as assert from 'node:assert/strict';
import * as net from 'node:net';
import { createTestHost } from './helpers';
import { runCli, workspace } from './cliRun';

/** A port on 127.0.0.1 that nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>(resolve => server.close(() => resolve()));
  return port;
}

const RAW = /fetch failed|TypeError|SSE error/;

describe('http and sse: why a server could not be reached, in words (issue 30 item 10)', function () {
  this.timeout(60_000);
  let closed = 0;
  before(async () => { closed = await closedPort(); });

  const cases = () => [
    { name: 'http-port1', decl: { type: 'http', url: 'http://127.0.0.1:1/mcp' }, want: /^Could not connect: port 1 of 127\.0\.0\.1 is blocked: fetch never connects to it .*; serve the server on another port\.$/ },
    { name: 'http-port6000', decl: { type: 'http', url: 'http://127.0.0.1:6000/mcp' }, want: /^Could not connect: port 6000 of 127\.0\.0\.1 is blocked: / },
    { name: 'sse-port6000', decl: { type: 'sse', url: 'http://127.0.0.1:6000/sse' }, want: /^Could not connect: port 6000 of 127\.0\.0\.1 is blocked: / },
    { name: 'http-closed', decl: { type: 'http', url: `http://127.0.0.1:${closed}/mcp` }, want: new RegExp(`^Could not connect: connection refused: nothing is listening at http://127\\.0\\.0\\.1:${closed}/mcp\\.$`) },
    { name: 'sse-closed', decl: { type: 'sse', url: `http://127.0.0.1:${closed}/sse` }, want: new RegExp(`^Could not connect: connection refused: nothing is listening at http://127\\.0\\.0\\.1:${closed}/sse\\.$`) },
    { name: 'sse-dns', decl: { type: 'sse', url: 'http://no-such-host.invalid/sse' }, want: /^Could not connect: the host name "no-such-host\.invalid" could not be resolved \(DNS: (ENOTFOUND|EAI_AGAIN)\)\.$/ },
  ];

  it('the state message and the server\'s log name the host, the port and what failed', async () => {
    const { host, loggers } = createTestHost();
    try {
      await host.apply(Object.fromEntries(cases().map(c => [c.name, c.decl])));
      for (const c of cases()) {
        const s = host.require(c.name);
        assert.equal(s.state, 'error', c.name);
        assert.match(s.message ?? '', c.want, c.name);
        assert.doesNotMatch(s.message ?? '', RAW, c.name);
        const log = loggers.get(c.name)!.text();
        assert.ok(log.includes(s.message!), `${c.name}: the log has the message:\n${log}`);
        assert.doesNotMatch(log, RAW, c.name);
      }
    } finally { await host.shutdown(); }
  });

  it('the CLI says the same, in text and --json', async () => {
    const dir = workspace('mcp.json', { servers: Object.fromEntries(cases().map(c => [c.name, c.decl])) });
    const text = await runCli(['--yes', 'check'], dir);
    assert.equal(text.code, 1, text.stderr);
    for (const c of cases()) {
      const line = (text.stdout + text.stderr).split('\n').find(l => l.startsWith(`FAIL  ${c.name}:`));
      assert.ok(line, `${c.name} in:\n${text.stdout}${text.stderr}`);
      assert.match(line.replace(/^FAIL {2}[\w-]+: error — /, ''), c.want, line);
    }
    assert.doesNotMatch(text.stdout + text.stderr, RAW);
    const json = await runCli(['--yes', '--json', 'check'], dir);
    const report = JSON.parse(json.stdout) as { servers: { name: string; state: string; error?: string }[] };
    for (const c of cases()) assert.match(report.servers.find(s => s.name === c.name)?.error ?? '', c.want, c.name);
  });
});

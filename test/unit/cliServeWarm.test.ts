/**
 * The CLI's warm path (`mcp-host call` through a running `serve`, src/cli/serveCall.ts) tried as an attacker
 * would, from the third outside attack (issue 31): it redacts what a cold call redacts, a Ctrl-C or a timeout
 * cancels the call inside serve, a closed terminal takes serve's record along, and a fake serve behind a stale
 * record of ours (its pid reused, its port taken) cannot make the CLI hang, crash or print its escapes.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli, cliConfigHome, runCli, serveProcess, workspace } from './cliRun';
import { fixtureServer } from './helpers';

const SECRET = 'correcthorsebatterystaple';

describe('cli serve: the warm call tried as an attacker would', function () {
  this.timeout(120_000);
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-warm-runtime-'));
  fs.chmodSync(runtime, 0o700);
  const env = { XDG_RUNTIME_DIR: runtime, MCP_HOST_INPUT_NOISY__KEY: SECRET };
  const dir = workspace('mcp.json', {
    inputs: [{ id: 'key', type: 'promptString', password: true }],
    servers: {
      noisy: { command: process.execPath, args: [fixtureServer('noisy')], env: { ATK_KEY: '${input:key}' } },
      hanger: { command: process.execPath, args: [fixtureServer('hanging')] },
    },
  });
  const config = path.join(dir, '.vscode', 'mcp.json');
  const args = ['-c', config, '-w', dir];
  const serve = serveProcess();
  const startServe = () => serve.start(args, dir, { XDG_CONFIG_HOME: cliConfigHome, ...env });
  const records = () => (fs.existsSync(path.join(runtime, 'mcp-host')) ? fs.readdirSync(path.join(runtime, 'mcp-host')) : []);
  afterEach(() => serve.stop());

  it('ATTACKER: a secret ${input:} value echoed by the server is redacted on the warm path as on the cold one', async () => {
    const cold = await runCli([...args, 'call', 'noisy', 'env'], dir, env);
    assert.equal(cold.code, 0, cold.stderr);
    await startServe();
    const warm = await runCli([...args, 'call', 'noisy', 'env'], dir, env);
    assert.equal(warm.code, 0, warm.stderr);
    assert.equal(records().length, 1);
    assert.ok(!cold.stdout.includes(SECRET), 'cold redacts');
    assert.ok(!warm.stdout.includes(SECRET), `warm leaks the input value: ${warm.stdout.slice(warm.stdout.indexOf('ATK_KEY') - 2, warm.stdout.indexOf('ATK_KEY') + 50)}`);
  });

  it('a warm call that times out cancels the tool on the serve side', async () => {
    await startServe();
    const r = await runCli([...args, '--timeout', '2', 'call', 'hanger', 'hang'], dir, env);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, /timed out after 2000 ms/);
    await new Promise(res => setTimeout(res, 1000));
    const c = await runCli([...args, 'call', 'hanger', 'cancelled-count'], dir, env);
    const counts = JSON.parse(c.stdout) as { hangStarted: number; hangCancelled: number; abortedByClose: number };
    assert.equal(counts.hangStarted, 1);
    assert.ok(counts.hangCancelled + counts.abortedByClose >= 1, 'the hang still runs in serve after the call gave up');
  });

  it('ATTACKER: Ctrl-C on a warm call cancels it on the serve side and exits 130', async () => {
    await startServe();
    const child = spawn(process.execPath, [cli, ...args, 'call', 'hanger', 'hang'], { cwd: dir, env: { ...process.env, XDG_CONFIG_HOME: cliConfigHome, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', d => { err += d; });
    await new Promise(res => setTimeout(res, 2500));
    const exited = new Promise<[number | null, string | null]>(res => child.once('exit', (c, s) => res([c, s])));
    child.kill('SIGINT');
    const [code] = await exited;
    assert.equal(code, 130, err);
    await new Promise(res => setTimeout(res, 1000));
    const c = await runCli([...args, 'call', 'hanger', 'cancelled-count'], dir, env);
    const counts = JSON.parse(c.stdout) as { hangStarted: number; hangCancelled: number; abortedByClose: number };
    assert.ok(counts.hangCancelled + counts.abortedByClose >= 1, 'the hang still runs in serve after Ctrl-C');
  });

  it('ATTACKER: serve ended by SIGHUP (its terminal closed) removes its record', async () => {
    const child = spawn(process.execPath, [cli, ...args, 'serve'], { cwd: dir, env: { ...process.env, XDG_CONFIG_HOME: cliConfigHome, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', d => { out += d; });
    for (let i = 0; i < 300 && !/Ctrl-C stops/.test(out); i++) await new Promise(res => setTimeout(res, 100));
    assert.equal(records().length, 1);
    const pid = child.pid!;
    process.kill(pid, 'SIGHUP');
    await new Promise(res => setTimeout(res, 1500));
    assert.throws(() => process.kill(pid, 0), 'serve ended on SIGHUP');
    const left = records().length;
    for (const f of records()) fs.rmSync(path.join(runtime, 'mcp-host', f));
    assert.equal(left, 0, 'a stale record stays: it names a pid that another process of the user may get, and a port anyone may take');
  });

  describe('a fake serve behind a record of ours (a stale record whose pid was reused, the port taken)', () => {
    let file = '';
    let handler: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_q, s) => { s.writeHead(500); s.end(); };
    const seen: string[] = [];
    const fake = createServer((req, res) => {
      let body = '';
      req.on('data', d => { body += d; });
      req.on('end', () => { seen.push(`${req.method} ${body}`); handler(req, res, body); });
    });
    let url = '';
    before(async () => {
      await startServe();
      file = path.join(runtime, 'mcp-host', records()[0]);
      await serve.stop();
      await new Promise<void>(res => fake.listen(0, '127.0.0.1', res));
      url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/${'A'.repeat(43)}/`;
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, token: 'tok', url }), { mode: 0o600 });
    });
    after(() => { fake.close(); fs.rmSync(file, { force: true }); });
    beforeEach(() => { seen.length = 0; });

    /** initialize OK, then `onCall` for the tools/call; DELETE answered. */
    const mcp = (onCall: (res: ServerResponse) => void, onDelete?: (res: ServerResponse) => void) => {
      handler = (req, res, body) => {
        if (req.method === 'DELETE') { if (onDelete) onDelete(res); else { res.writeHead(200); res.end(); } return; }
        const m = JSON.parse(body) as { id?: number; method: string };
        if (m.method === 'initialize') { res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' }); res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } } })); return; }
        if (m.method === 'notifications/initialized') { res.writeHead(202); res.end(); return; }
        onCall(res);
      };
    };
    const call = (extra: string[] = [], tool = 'echo', a = '{"text":"hi"}') => { const t0 = Date.now(); return runCli([...args, ...extra, 'call', 'noisy', tool, a], dir, env).then(r => ({ ...r, ms: Date.now() - t0 })); };
    const ESC = /[\u001b\u009b\u0007]/;

    it('ATTACKER: an endless SSE stream of notifications ends at --timeout', async () => {
      mcp(res => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const t = setInterval(() => res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x'.repeat(1000) } })}\n\n`), 1);
        res.on('close', () => clearInterval(t));
      });
      const r = await call(['--timeout', '2']);
      assert.ok(r.ms < 8000, `took ${r.ms} ms`);
    });

    it('ATTACKER: a JSON-RPC error message with terminal escapes reaches stderr cleaned', async () => {
      mcp(res => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ jsonrpc: '2.0', id: 2, error: { code: -1, message: '\u001b]0;pwned\u0007\u001b[2Jfake\nmcp-host: ok' } })); });
      const r = await call();
      assert.ok(!ESC.test(r.stderr));
    });

    it('ATTACKER: an invalid JSON body with escapes: the parse error does not carry them to stderr', async () => {
      mcp(res => { res.writeHead(200, { 'content-type': 'text/event-stream' }); res.end('data: \u001b]0;pwned\u0007\u001b[31mRED{\n\n'); });
      const r = await call();
      assert.ok(!ESC.test(r.stderr));
    });

    it('ATTACKER: content blocks missing fields do not crash the printer with a TypeError', async () => {
      mcp(res => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'image' }, { type: 'text', text: { toString: 1 } }] } })); });
      const r = await call();
      assert.doesNotMatch(r.stderr, /Cannot read|is not a function|TypeError/);
    });

    it('ATTACKER: a DELETE that never answers costs at most ~2 s', async () => {
      mcp(res => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'ok' }] } })); }, () => { /* never */ });
      const r = await call();
      assert.ok(r.ms < 6000);
    });

    it('ATTACKER: a JSON body of non-ASCII text split across chunks is printed intact', async () => {
      const text = 'é€😀'.repeat(30_000);
      mcp(res => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text }] } }));
        // Split in the middle of a multi-byte character, as TCP may.
        res.write(body.subarray(0, 100_001));
        setTimeout(() => res.end(body.subarray(100_001)), 50);
      });
      const r = await call();
      const at = r.stdout.indexOf('\ufffd');
      assert.ok(at < 0, `U+FFFD at ${at} of ${r.stdout.length}: ${JSON.stringify(r.stdout.slice(Math.max(0, at - 20), at + 20))} ${r.stderr.slice(0, 300)}`);
    });

    it('ATTACKER: a server->client request that shares id 2 is not taken for the answer', async () => {
      mcp(res => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n\n`);
        res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'real answer' }] } })}\n\n`);
      });
      const r = await call();
      assert.match(r.stdout, /real answer/);
    });

    it('ATTACKER: a 302 to elsewhere is not followed, and the arguments go nowhere else', async () => {
      handler = (_q, res) => { res.writeHead(302, { location: 'http://127.0.0.2:1/' }); res.end(); };
      await call([], 'echo', '{"text":"s3cr3t-arg"}');
      assert.ok(!seen.some(s => s.includes('s3cr3t-arg')));
    });

  });
});

/** `mcp-host serve`: the gateway without VS Code; `mcp-host call` reuses it; its record file cannot be planted. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { cliConfigHome, runCli, serveProcess, workspace } from './cliRun';
import { connect } from './gatewayClient';
import { fixtureServer, waitFor } from './helpers';

describe('cli serve', function () {
  this.timeout(90_000);
  const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-runtime-'));
  fs.chmodSync(runtime, 0o700);
  const env = { XDG_RUNTIME_DIR: runtime };
  const dir = workspace('mcp.json', { servers: { echo: { command: process.execPath, args: [fixtureServer('crashing')] } } });
  const config = path.join(dir, '.vscode', 'mcp.json');
  const args = ['-c', config, '-w', dir];
  const serve = serveProcess();

  const startServe = (...extra: string[]) => serve.start(args, dir, { XDG_CONFIG_HOME: cliConfigHome, ...env }, extra);
  const stopServe = () => serve.stop();
  const records = () => (fs.existsSync(path.join(runtime, 'mcp-host')) ? fs.readdirSync(path.join(runtime, 'mcp-host')) : []);
  afterEach(stopServe);

  it('serves the declarations to a terminal agent with a token, and keeps to --allow', async () => {
    await startServe('--allow', 'echo/echo');
    const token = /Token for a terminal agent \(keep it secret\): (\S+)/.exec(serve.output)?.[1];
    const url = /^ {2}echo: (http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(serve.output)?.[1];
    assert.ok(token && url, serve.output);
    const c = await connect({ url, headers: { Authorization: `Bearer ${token}` } });
    try {
      const r = await c.callTool({ name: 'echo', arguments: { text: 'from an agent' } });
      assert.match(JSON.stringify(r.content), /from an agent/);
      const refused = await c.callTool({ name: 'pid', arguments: {} });
      assert.ok(refused.isError, 'a tool not allowed is refused when no one can be asked');
      await waitFor(() => /refused: terminal agent wanted to run echo\/pid/.test(serve.output), 'the refusal told on the terminal');
    } finally { await c.close(); }
  });

  it('lets `mcp-host call` reuse the running servers, and a call starts them again once serve is gone', async () => {
    await startServe();
    const [file] = records();
    assert.ok(file, 'serve left its record');
    assert.equal(fs.statSync(path.join(runtime, 'mcp-host', file)).mode & 0o777, 0o600);
    const first = await runCli([...args, 'call', 'echo', 'pid'], dir, env);
    const second = await runCli([...args, 'call', 'echo', 'pid'], dir, env);
    assert.equal(first.code, 0, first.stderr);
    const pid = (r: { stdout: string }) => (JSON.parse(r.stdout) as { pid: number }).pid;
    assert.equal(pid(first), pid(second), 'both calls reached the one server process of serve');
    await stopServe();
    assert.deepEqual(records(), [], 'serve removed its record');
    const cold = await runCli([...args, 'call', 'echo', 'pid'], dir, env);
    assert.equal(cold.code, 0, cold.stderr);
    assert.notEqual(pid(cold), pid(first));
  });

  // The warm path speaks to the gateway by hand (src/cli/serveCall.ts): its errors read as a cold call's.
  it('a call through serve that fails says why (an unknown tool); --json prints the result whole', async () => {
    await startServe();
    const unknown = await runCli([...args, 'call', 'echo', 'no-such-tool'], dir, env);
    assert.equal(unknown.code, 1, unknown.stdout);
    assert.match(unknown.stderr, /no-such-tool/);
    const json = await runCli([...args, '--json', 'call', 'echo', 'echo', '{"text":"warm json"}'], dir, env);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual((JSON.parse(json.stdout) as { content: unknown[] }).content, [{ type: 'text', text: 'warm json' }]);
    assert.equal(records().length, 1, 'still served: these went through serve');
  });

  it('ignores a planted record: readable by others, a link, or pointing off 127.0.0.1', async () => {
    // The attacker's endpoint records whatever reaches it (a call's arguments may be secrets).
    let reached = 0;
    const trap = createServer((_req, res) => { reached++; res.writeHead(500); res.end(); });
    // On every address: 127.0.0.2 stands for an address that is not the gateway's (Linux routes all of 127/8 here).
    await new Promise<void>(resolve => trap.listen(0, '0.0.0.0', resolve));
    const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/${'A'.repeat(43)}/`;
    try {
      await startServe();
      const [name] = records();
      const file = path.join(runtime, 'mcp-host', name);
      await stopServe();
      const plant = (record: unknown, mode: number) => { fs.rmSync(file, { force: true }); fs.writeFileSync(file, JSON.stringify(record), { mode }); fs.chmodSync(file, mode); };
      const live = { pid: process.pid, token: 'stolen', url: trapUrl };
      plant(live, 0o644);
      const r1 = await runCli([...args, 'call', 'echo', 'echo', '{"text":"secret-argument"}'], dir, env);
      assert.equal(r1.code, 0, r1.stderr);
      assert.match(r1.stdout, /secret-argument/, 'the call ran on a server of its own');
      const elsewhere = path.join(runtime, 'elsewhere.json');
      fs.writeFileSync(elsewhere, JSON.stringify(live), { mode: 0o600 });
      fs.rmSync(file, { force: true });
      fs.symlinkSync(elsewhere, file);
      assert.equal((await runCli([...args, 'call', 'echo', 'echo', '{"text":"x"}'], dir, env)).code, 0);
      plant({ ...live, url: trapUrl.replace('127.0.0.1', '127.0.0.2') }, 0o600);
      assert.equal((await runCli([...args, 'call', 'echo', 'echo', '{"text":"x"}'], dir, env)).code, 0);
      assert.equal(reached, 0, 'nothing reached the planted endpoint');
      // The same record, written as serve writes it (ours, 0600), is followed: the checks above are what refused.
      plant(live, 0o600);
      await runCli([...args, 'call', 'echo', 'echo', '{"text":"x"}'], dir, env);
      assert.ok(reached > 0, 'a well-formed record of ours is used');
      fs.rmSync(file, { force: true });
    } finally { trap.close(); }
  });
});

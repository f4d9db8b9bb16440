/**
 * The record `mcp-host serve` leaves for `mcp-host call` is a key to the running servers (issue 31
 * item 3). Attacker tests: a record or folder another user owns or can read, a linked folder, a folder
 * planted before serve, a token replayed after serve exits; and the token's scope: it runs no more than
 * a fresh `mcp-host call` of the user would run unasked.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, serveProcess, workspace } from './cliRun';
import { connect } from './gatewayClient';
import { fixtureServer, waitFor } from './helpers';

const NOBODY = 65534;

describe('cli serve record (attacker tests)', function () {
  this.timeout(120_000);
  const decl = { servers: { echo: { command: process.execPath, args: [fixtureServer('crashing')] } } };
  const serve = serveProcess();
  let runtime = '';
  let configHome = '';
  let env: Record<string, string> = {};

  beforeEach(() => {
    runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-runtime-'));
    fs.chmodSync(runtime, 0o700);
    configHome = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-config-'));
    env = { XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: configHome };
  });
  const startServe = (args: readonly string[], cwd: string) => serve.start(args, cwd, env);
  const stopServe = () => serve.stop();
  afterEach(stopServe);
  const folder = () => path.join(runtime, 'mcp-host');
  const recordFile = () => { const [f] = fs.existsSync(folder()) ? fs.readdirSync(folder()) : []; return f === undefined ? undefined : path.join(folder(), f); };
  const pidOf = (r: { code: number | null; stdout: string; stderr: string }) => { assert.equal(r.code, 0, r.stderr); return (JSON.parse(r.stdout) as { pid: number }).pid; };

  it('uses no record in a folder or file that is not the user\'s alone (wider mode, another owner, a link), and keeps none in a folder planted before serve', async () => {
    const dir = workspace('mcp.json', decl);
    const args = ['-c', path.join(dir, '.vscode', 'mcp.json'), '-w', dir];
    const call = () => runCli([...args, 'call', 'echo', 'pid'], dir, env);
    await startServe(args, dir);
    const file = recordFile();
    assert.ok(file, 'serve kept its record');
    const served = pidOf(await call());
    assert.equal(pidOf(await call()), served, 'the record is used as serve left it');
    const cold = async (why: string) => assert.notEqual(pidOf(await call()), served, `${why}: the call started a server of its own`);

    fs.chmodSync(folder(), 0o755);
    await cold('a folder others can list');
    fs.chmodSync(folder(), 0o700);
    fs.chmodSync(file, 0o640);
    await cold('a record others can read');
    fs.chmodSync(file, 0o600);
    if (process.getuid?.() === 0) {
      // Only root can give a file to another user; as root the CLI's own uid (0) is the one checked.
      fs.chownSync(file, NOBODY, NOBODY);
      await cold('a record of another owner');
      fs.chownSync(file, 0, 0);
      fs.chownSync(folder(), NOBODY, NOBODY);
      await cold('a folder of another owner');
      fs.chownSync(folder(), 0, 0);
    }
    const real = path.join(runtime, 'real');
    fs.renameSync(folder(), real);
    fs.symlinkSync(real, folder());
    await cold('a linked folder');
    fs.rmSync(folder());
    fs.renameSync(real, folder());
    assert.equal(pidOf(await call()), served, 'restored as serve left it, the record is used again: the checks above are what refused');
    await stopServe();
    assert.equal(recordFile(), undefined, 'serve removed its record');

    // Another user made the folder first (open to all): serve keeps no record in it.
    fs.rmSync(folder(), { recursive: true, force: true });
    fs.mkdirSync(folder(), { mode: 0o777 });
    fs.chmodSync(folder(), 0o777);
    if (process.getuid?.() === 0) fs.chownSync(folder(), NOBODY, NOBODY);
    await startServe(args, dir);
    assert.match(serve.output, /no record kept/);
    assert.equal(recordFile(), undefined, 'nothing written where another user can read it');
  });

  it('a token replayed after serve exits is refused, also by a new serve on the same port', async () => {
    const dir = workspace('mcp.json', decl);
    const probe = createServer();
    await new Promise<void>(r => probe.listen(0, '127.0.0.1', r));
    const port = String((probe.address() as AddressInfo).port);
    await new Promise(r => probe.close(r));
    const args = ['-c', path.join(dir, '.vscode', 'mcp.json'), '-w', dir, '--port', port];
    await startServe(args, dir);
    const stolen = JSON.parse(fs.readFileSync(recordFile()!, 'utf8')) as { url: string; token: string };
    const endpoint = { url: `${stolen.url}echo`, headers: { Authorization: `Bearer ${stolen.token}` } };
    const c = await connect(endpoint);
    assert.match(JSON.stringify((await c.callTool({ name: 'echo', arguments: { text: 'while serve runs' } })).content), /while serve runs/);
    await c.close();
    await stopServe();
    await assert.rejects(connect(endpoint), 'nothing answers once serve is gone');
    await startServe(args, dir);
    assert.ok(serve.output.includes(`127.0.0.1:${port}`), serve.output);
    await assert.rejects(connect(endpoint), /401|Unauthorized/, 'the new serve on the same port does not know the old token');
  });

  it('its token runs only what a fresh call would run unasked: no server started on --yes, none whose trust was revoked', async () => {
    const dir = workspace('mcp.json', decl);
    const args = ['-w', dir];
    // The workspace's own file, not trusted: serve runs it this once, and keeps no key to it.
    await startServe([...args, '--yes'], dir);
    assert.match(serve.output, /none of these is trusted/);
    assert.equal(recordFile(), undefined, 'no record for servers run on --yes');
    const asked = await runCli([...args, 'call', 'echo', 'pid'], dir, env);
    assert.notEqual(asked.code, 0, 'a call is refused as a fresh call would be (no terminal, no --yes)');
    assert.match(asked.stderr, /not trusted/);
    await stopServe();

    assert.equal((await runCli([...args, 'trust'], dir, env)).code, 0);
    await startServe(args, dir);
    const stolen = JSON.parse(fs.readFileSync(recordFile()!, 'utf8')) as { url: string; token: string };
    const served = pidOf(await runCli([...args, 'call', 'echo', 'pid'], dir, env));
    assert.equal(pidOf(await runCli([...args, 'call', 'echo', 'pid'], dir, env)), served, 'trusted: calls reuse serve');
    // The user revokes the folder's trust while serve runs.
    fs.writeFileSync(path.join(configHome, 'mcp-host', 'trusted-folders.json'), '{"folders":{}}\n');
    const c = await connect({ url: `${stolen.url}echo`, headers: { Authorization: `Bearer ${stolen.token}` } });
    try {
      const r = await c.callTool({ name: 'echo', arguments: { text: 'ran without consent' } });
      assert.ok(r.isError, 'refused through the record');
      assert.doesNotMatch(JSON.stringify(r.content), /ran without consent/);
    } finally { await c.close(); }
    await waitFor(() => /refused: mcp-host call wanted to run a tool of echo/.test(serve.output), 'serve says why');
    const again = await runCli([...args, 'call', 'echo', 'pid'], dir, env);
    assert.notEqual(again.code, 0, 'the CLI asks as a fresh call would');
    assert.match(again.stderr, /not trusted/);
  });
});

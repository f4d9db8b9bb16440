/**
 * The CLI when things go wrong (issue 30): a server that fails to start is reported with its own
 * words (its last stderr lines), never as a TypeError; a reader that stops early (`| head -1`) ends
 * the output without a stack trace; malformed arguments are refused before any server starts.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cli, cliConfigHome, runCli, workspace } from './cliRun';
import { everythingBin } from './helpers';

/** A server that explains itself on stderr and exits before answering, as misconfigured real servers do. */
const dies = { command: process.execPath, args: ['-e', 'console.error("starting up"); console.error("missing API_KEY: set it in env"); process.exit(3)'] };
const noStack = /TypeError|\n\s+at |is not a function/;

describe('mcp-host CLI when a server fails, a reader goes away or arguments are wrong', function () {
  this.timeout(60_000);

  it('call, read and prompt on a server that fails to start give its reason (text and --json), not a TypeError', async () => {
    const ws = workspace('mcp.json', { servers: { dies } });
    for (const args of [['call', 'dies', 'anything'], ['read', 'dies', 'demo://x'], ['prompt', 'dies', 'p']]) {
      const text = await runCli(['--yes', ...args], ws);
      assert.equal(text.code, 1, text.stderr);
      assert.doesNotMatch(text.stderr, noStack, text.stderr);
      assert.match(text.stderr, /server "dies" is not running \(error\): .*exited .*code 3.*Its last stderr lines: starting up \| missing API_KEY: set it in env/);
      assert.doesNotMatch(text.stderr, /check the log/i, 'a one-shot CLI has no log to check');

      const json = await runCli(['--yes', '--json', ...args], ws);
      assert.equal(json.code, 1, json.stderr);
      assert.doesNotMatch(json.stderr, noStack);
      const out = JSON.parse(json.stdout) as { ok: boolean; name: string; state: string; error: string; stderr: string[] };
      assert.equal(out.ok, false);
      assert.equal(out.name, 'dies');
      assert.equal(out.state, 'error');
      assert.match(out.error, /missing API_KEY/);
      assert.deepEqual(out.stderr, ['starting up', 'missing API_KEY: set it in env']);
    }
    const check = await runCli(['--yes', 'check', '--json'], ws);
    assert.match((JSON.parse(check.stdout) as { servers: { error: string }[] }).servers[0].error, /Its last stderr lines: starting up \| missing API_KEY/);
  });

  it('ends quietly when its reader is gone (mcp-host list | head -1)', async () => {
    const ws = workspace('mcp.json', { servers: { everything: { command: process.execPath, args: [everythingBin] } } });
    // The read end closed before the first line: every write of the CLI meets EPIPE.
    const child = spawn(process.execPath, [cli, '--yes', 'list'], { cwd: ws, env: { ...process.env, XDG_CONFIG_HOME: cliConfigHome }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d; });
    const code = await new Promise<number | null>(resolve => child.once('close', resolve));
    assert.doesNotMatch(stderr, /EPIPE|\n\s+at |Error:/, stderr);
    assert.equal(code, 0, stderr);

    const piped = spawn('sh', ['-c', `'${process.execPath}' '${cli}' --yes list | head -1`], { cwd: ws, env: { ...process.env, XDG_CONFIG_HOME: cliConfigHome }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    piped.stdout.on('data', (d: Buffer) => { out += d; });
    piped.stderr.on('data', (d: Buffer) => { err += d; });
    await new Promise(resolve => piped.once('close', resolve));
    assert.equal(out, 'everything (running)\n');
    assert.doesNotMatch(err, /EPIPE|\n\s+at /, err);
  });

  it('refuses malformed call and prompt arguments before any server starts', async () => {
    const ws = workspace('mcp.json', { servers: {} });
    const marker = path.join(ws, 'started');
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: {
      s: { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1)`] },
    } }));
    for (const args of [['call', 's', 'echo', '{"message": '], ['call', 's', 'echo', '[1, 2]'], ['prompt', 's', 'p', 'no-equals-sign']]) {
      const r = await runCli(['--yes', ...args], ws);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /must be a JSON object|are key=value/);
      assert.ok(!fs.existsSync(marker), `${args.join(' ')}: the server started before the arguments were checked`);
    }
  });
});

/**
 * Attacker: a cloned repository whose `.vscode/mcp.json` is in another host's format (`mcpServers`).
 * The CLI converts it as Import Servers does, moving "secret" literals (by name or credential shape)
 * out of the declaration into `${input:…}` values it hands to the server without asking. The trust
 * key hashed the converted declaration, so those literals were not in it: after the user trusted the
 * folder once, a `git pull` could change them, including the whole `-e` script of the command (an
 * argument that merely contains a PEM header has the shape of a private key), and it ran unasked.
 * Real CLI processes, real commands (a marker file proves what ran).
 */
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli, cliConfigHome, runCli } from './cliRun';

function repoWith(decl: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cloned-moved-'));
  fs.mkdirSync(path.join(dir, '.vscode'));
  write(dir, decl);
  return dir;
}
const write = (dir: string, decl: Record<string, unknown>) =>
  fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ mcpServers: { helper: decl } }));

/** A `node -e` script that writes `what` to `marker` and exits; the comment gives it a private key's shape. */
const script = (marker: string, what: string) =>
  `/* -----BEGIN PRIVATE KEY----- */ require('fs').writeFileSync(${JSON.stringify(marker)}, ${JSON.stringify(what)}); process.exit(0)`;

describe('mcp-host CLI trust: a literal the converter moves out of a declaration is part of what was trusted', function () {
  this.timeout(60_000);

  it('a changed -e script that has a private key\'s shape is asked about again, and does not run unasked', async () => {
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-moved-marker-')), 'ran.txt');
    const dir = repoWith({ command: process.execPath, args: ['-e', script(marker, 'reviewed')] });
    const trusted = await runCli(['trust'], dir);
    assert.equal(trusted.code, 0, trusted.stderr);

    const same = await runCli(['list'], dir);
    assert.ok(fs.existsSync(marker), `the trusted declaration did not run: ${same.stderr}`);
    assert.equal(fs.readFileSync(marker, 'utf8'), 'reviewed');
    fs.rmSync(marker);

    // The `git pull`: only the script changes.
    write(dir, { command: process.execPath, args: ['-e', script(marker, 'attacker')] });
    const pulled = await runCli(['list'], dir);
    assert.ok(!fs.existsSync(marker), `the changed script ran without asking (it wrote "${fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''}")`);
    assert.equal(pulled.code, 2, pulled.stderr);
    assert.match(pulled.stderr, /not run: this folder's servers are not trusted/);
  });

  it('a changed secret-named env value is asked about again', async () => {
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-moved-marker-')), 'ran.txt');
    const run = `require('fs').writeFileSync(${JSON.stringify(marker)}, process.env.UPLOAD_API_KEY); process.exit(0)`;
    const dir = repoWith({ command: process.execPath, args: ['-e', run], env: { UPLOAD_API_KEY: 'the-projects-own-key' } });
    assert.equal((await runCli(['trust'], dir)).code, 0);
    write(dir, { command: process.execPath, args: ['-e', run], env: { UPLOAD_API_KEY: 'the-attackers-account-key' } });
    const pulled = await runCli(['list'], dir);
    assert.ok(!fs.existsSync(marker), `ran unasked with UPLOAD_API_KEY=${fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''}`);
    assert.equal(pulled.code, 2, pulled.stderr);
  });

  it('the consent line shows the script that would run, not an ${input:…} the converter made of it', async () => {
    const marker = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-moved-marker-')), 'ran.txt');
    const dir = repoWith({ command: process.execPath, args: ['-e', script(marker, 'unseen')] });
    const r = await runCli(['list'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(!fs.existsSync(marker));
    assert.doesNotMatch(r.stderr, /runs .* -e "?\$\{input:/, `the user is asked to trust a script they cannot see:\n${r.stderr}`);
    assert.match(r.stderr, /writeFileSync/, 'the script is shown');
  });

  (process.platform === 'win32' ? it.skip : it)('attacker: an env file that is a FIFO does not hang the CLI before it asks (the repository is not yet trusted)', async function () {
    const dir = repoWith({ command: process.execPath, args: ['-v'] });
    fs.writeFileSync(path.join(dir, '.vscode', 'mcp.json'), JSON.stringify({ servers: { h: { command: process.execPath, args: ['-v'], envFile: '${workspaceFolder}/.env' } } }));
    execFileSync('mkfifo', [path.join(dir, '.env')]);
    // spawnSync's timeout ends a hung CLI, so a failing run leaves nothing behind.
    const r = spawnSync(process.execPath, [cli, 'list'], { cwd: dir, env: { ...process.env, XDG_CONFIG_HOME: cliConfigHome }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000, encoding: 'utf8' });
    assert.notEqual(r.signal, 'SIGTERM', 'mcp-host list hung on the env file (a FIFO nobody writes)');
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /not run: this folder's servers are not trusted/);
  });
});

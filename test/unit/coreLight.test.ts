/**
 * The core's SDK-free entry (src/core/light.ts, @mcp-host/core/light) and the CLI's warm path: a `call`
 * through a running `serve` loads no MCP SDK and no host (issue 31: the SDK's ≈ 200 ms of loading were most
 * of a warm call). Read in a fresh process, from what Node actually loaded, so a new import anywhere in
 * the chain that pulls the SDK back in fails here.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './helpers';

const out = path.join(repoRoot, 'out');

/** The files under node_modules and out/src that `node <args>` loaded (CommonJS), with its stdout. */
function loaded(args: string[]): { modules: string[]; stdout: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-light-'));
  try {
    const preload = path.join(dir, 'preload.js');
    const report = path.join(dir, 'loaded.json');
    fs.writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));`);
    const r = spawnSync(process.execPath, ['-r', preload, ...args], { encoding: 'utf8', env: { ...process.env, XDG_RUNTIME_DIR: dir } });
    assert.equal(r.status, 0, r.stderr);
    return { modules: (JSON.parse(fs.readFileSync(report, 'utf8')) as string[]).filter(m => m.includes(`${path.sep}node_modules${path.sep}`) || m.startsWith(path.join(out, 'src'))), stdout: r.stdout };
  } finally { fs.rmSync(dir, { recursive: true, force: true }); }
}

const sdk = (modules: string[]) => modules.filter(m => /node_modules[\\/](@modelcontextprotocol|zod)[\\/]/.test(m));

describe('the core\'s SDK-free entry and the CLI\'s warm path', function () {
  this.timeout(30_000);

  it('loading @mcp-host/core/light loads no MCP SDK and no host', () => {
    const { modules } = loaded(['-e', `require(${JSON.stringify(path.join(out, 'src/core/light.js'))})`]);
    assert.deepEqual(sdk(modules), []);
    assert.deepEqual(modules.filter(m => /[\\/]core[\\/](host|connection[\\/])/.test(m)), [], 'no host or connection module');
    assert.ok(modules.some(m => m.endsWith(path.join('core', 'tools', 'programIdentity.js'))), 'the probe sees what was loaded');
  });

  it('mcp-host --version and a call with no serve running load no SDK before they need it (a call without serve loads it to start the server)', () => {
    assert.deepEqual(sdk(loaded([path.join(out, 'src/cli/main.js'), '--version']).modules), []);
    const config = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-light-cfg-')), 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { fx: { command: process.execPath, args: [path.join(out, 'test/fixtures/servers/crashing.js')] } } }));
    try {
      const cold = loaded([path.join(out, 'src/cli/main.js'), '-c', config, '-w', path.dirname(config), 'call', 'fx', 'echo', '{"text":"hi"}']);
      assert.match(cold.stdout, /hi/);
      assert.ok(sdk(cold.modules).length > 0, 'the cold call runs a host: the probe would see the SDK');
    } finally { fs.rmSync(path.dirname(config), { recursive: true, force: true }); }
  });
});

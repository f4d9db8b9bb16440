/**
 * activate() must not wait on the MCP SDK (issue 16): the activation bundle (dist/extension.js) holds
 * the contributions and the API only, and the SDK with its schemas (zod) is in the host bundle
 * (dist/host.js) that it `require`s after activation. Builds the production bundles as the .vsix has
 * them and reads esbuild's metafile and the bundles themselves.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './helpers';

interface Metafile { outputs: Record<string, { inputs: Record<string, unknown>; entryPoint?: string }> }

// Loads a bundle with a `vscode` stand-in and prints every module file Node loaded for it.
const PROBE = `
const Module = require('node:module');
const stub = new Proxy(function () {}, { get: (t, k) => (k === 'then' || typeof k === 'symbol') ? undefined : stub, apply: () => stub, construct: () => ({}) });
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? stub : load.call(this, request, ...rest); };
require(process.argv[1]);
process.stdout.write(JSON.stringify(Object.keys(require.cache)));
`;

describe('activation bundle (dist/extension.js)', function () {
  this.timeout(120_000); // two production builds on a busy machine

  let dir: string;
  let meta: Metafile;
  const bundle = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  const inputsOf = (name: string) => Object.keys(Object.entries(meta.outputs).find(([f]) => path.basename(f) === name)?.[1].inputs ?? {});

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-bundles-'));
    const r = spawnSync(process.execPath, ['esbuild.mjs', '--production', `--outfile=${path.join(dir, 'extension.js')}`, `--metafile=${path.join(dir, 'meta.json')}`], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Metafile;
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('bundles no dependency and nothing of src/core: the SDK and zod are in host.js', () => {
    const inputs = inputsOf('extension.js');
    assert.ok(inputs.includes('src/extension.ts'), inputs.join(', '));
    assert.deepEqual(inputs.filter(f => f.includes('node_modules') || f.startsWith('src/core/')), [], 'pulled into the activation bundle');
    const host = inputsOf('host.js');
    for (const dep of ['node_modules/@modelcontextprotocol/', 'node_modules/zod/']) {
      assert.ok(host.some(f => f.includes(dep)), `${dep} is not in host.js either: update this test`);
    }
  });

  it('early.js (spawns servers before host.js loads) holds no dependency: no SDK, no zod, no ajv', () => {
    const inputs = inputsOf('early.js');
    assert.ok(inputs.includes('src/core/connection/earlyProcesses.ts') && inputs.includes('src/core/config/resolve.ts'), inputs.join(', '));
    assert.deepEqual(inputs.filter(f => f.includes('node_modules')), [], 'pulled into the early bundle');
    for (const marker of ['notifications/initialized', 'resources/templates/list']) assert.ok(!bundle('early.js').includes(marker), `${marker} in the early bundle`);
    const r = spawnSync(process.execPath, ['-e', PROBE, path.join(dir, 'early.js')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as string[]).map(f => path.basename(f)), ['early.js'], 'modules loaded with early.js');
    assert.match(bundle('extension.js'), /"early\.js"/, 'the activation bundle names the early bundle it loads');
  });

  it('host.js takes from zod only what is called: no locale but English (esbuild.mjs, zodNamespaceImport)', () => {
    // `import { z }` (ext-apps' app bridge) made esbuild keep all of zod's classic API and its ~60 locales (~345 KiB).
    const locales = inputsOf('host.js').filter(f => /node_modules\/zod\/v4\/locales\//.test(f)).map(f => path.basename(f));
    assert.deepEqual(locales.filter(f => f !== 'en.js' && f !== 'index.js'), [], 'zod locales in host.js');
    assert.ok(inputsOf('host.js').some(f => f.includes('node_modules/@modelcontextprotocol/ext-apps/')), 'ext-apps is not in host.js: update this test');
  });

  it('contains none of the SDK protocol schemas (by their method names), which host.js has', () => {
    for (const marker of ['notifications/initialized', 'resources/templates/list', '"2.0"']) {
      assert.ok(bundle('host.js').includes(marker), `${marker} not in host.js: update this test`);
      assert.ok(!bundle('extension.js').includes(marker), `${marker} in the activation bundle`);
    }
  });

  it('loads no other module when evaluated: the host bundle is required later, by path', () => {
    const r = spawnSync(process.execPath, ['-e', PROBE, path.join(dir, 'extension.js')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as string[]).map(f => path.basename(f)), ['extension.js']);
    assert.match(bundle('extension.js'), /"host\.js"/, 'the activation bundle names the host bundle it loads');
  });
});

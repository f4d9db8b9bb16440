/**
 * Test support is not product (issue 29): what only MCP Host's own tests need is in test/, and only the
 * test build (a development build, esbuild.mjs) bundles it. Builds both as `npm run build` and
 * `npm run package` do and compares esbuild's metafiles: a module that the test build ships and the
 * production build does not is test support, and must come from test/; the production build, which is
 * what the .vsix holds, has nothing from test/ and none of the hooks' names.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './helpers';

interface Metafile { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> }

const BUNDLES = ['extension.js', 'early.js', 'host.js'];
// Names the test hooks (test/hooks/testHooks.ts, quickInputProbe.ts) put into a bundle; installed.test.ts checks the installed .vsix for the same.
const HOOK_MARKERS = [/samplingLogEntries/, /\bonDidShow\b/, /\bquickInput\b/, /\bserversView\b/, /\bresourcesView\b/, /\binstallQuickInputProbe\b/];

/** Builds into a fresh folder; returns the inputs that put bytes into some bundle (and into which), and the bundles' text. */
function build(dir: string, production: boolean): { shipped: Set<string>; bundlesOf: Map<string, string[]>; text: string } {
  const args = ['esbuild.mjs', ...(production ? ['--production'] : []), `--outfile=${path.join(dir, 'extension.js')}`, `--metafile=${path.join(dir, 'meta.json')}`];
  const r = spawnSync(process.execPath, args, { cwd: repoRoot, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Metafile;
  const bundlesOf = new Map<string, string[]>();
  for (const [output, o] of Object.entries(meta.outputs)) {
    for (const [f, i] of Object.entries(o.inputs)) if (i.bytesInOutput > 0) bundlesOf.set(f, [...bundlesOf.get(f) ?? [], path.basename(output)]);
  }
  return { shipped: new Set(bundlesOf.keys()), bundlesOf, text: BUNDLES.map(f => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n') };
}

describe('test build and shipped build (test support only in test/)', function () {
  this.timeout(180_000); // two builds on a busy machine

  let dir: string;
  let test: ReturnType<typeof build>;
  let production: ReturnType<typeof build>;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-builds-'));
    fs.mkdirSync(path.join(dir, 'test'));
    fs.mkdirSync(path.join(dir, 'production'));
    test = build(path.join(dir, 'test'), false);
    production = build(path.join(dir, 'production'), true);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the test build has the hooks: its entries are test/hooks, which run the product\'s', () => {
    for (const f of ['test/hooks/extension.ts', 'test/hooks/host.ts', 'test/hooks/quickInputProbe.ts', 'test/hooks/testHooks.ts', 'src/extension.ts', 'src/host.ts']) {
      assert.ok(test.shipped.has(f), `${f} is not in the test build`);
    }
    assert.deepEqual(HOOK_MARKERS.filter(m => !m.test(test.text)).map(String), [], 'markers missing from the test build (update HOOK_MARKERS)');
  });

  it('each test hook module is in one bundle: two copies would be two states (a probe the hooks do not read)', () => {
    const twice = [...test.bundlesOf].filter(([f, bundles]) => f.startsWith('test/hooks/') && bundles.length > 1).map(([f, bundles]) => `${f}: ${bundles.join(', ')}`);
    assert.deepEqual(twice, []);
  });

  it('what only the test build ships comes from test/', () => {
    const onlyInTests = [...test.shipped].filter(f => !production.shipped.has(f) && !f.startsWith('test/'));
    assert.deepEqual(onlyInTests, [], 'modules outside test/ that the production build leaves out (test support in src/, or dead code)');
  });

  it('the production build (the .vsix\'s bundles) has nothing from test/ and no test hook', () => {
    assert.deepEqual([...production.shipped].filter(f => f.startsWith('test/')), [], 'from test/ in the production build');
    assert.deepEqual(HOOK_MARKERS.filter(m => m.test(production.text)).map(String), [], 'test-hook code in the production build');
  });
});

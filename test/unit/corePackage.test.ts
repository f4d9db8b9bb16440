/**
 * @mcp-host/core as someone outside this repository gets it: built (packages/core/build.mjs), packed
 * with `npm pack`, installed from the tarball into a fresh project with `npm install --offline` (the
 * package bundles its dependencies, so nothing is fetched), then the README's embedding example and
 * the `mcp-host` bin run there against server-everything.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { everythingBin, repoRoot } from './helpers';

const pkgDir = path.join(repoRoot, 'packages/core');

interface Run { code: number | null; stdout: string; stderr: string }

function run(cmd: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d; });
    child.stderr.on('data', (d: Buffer) => { stderr += d; });
    child.once('error', reject);
    child.once('close', code => resolve({ code, stdout, stderr }));
  });
}

async function ok(cmd: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const r = await run(cmd, args, cwd, env);
  assert.equal(r.code, 0, `${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** The README's embedding example: the first ```js block after the `<!-- example` marker. */
export function readmeExample(): string {
  const readme = fs.readFileSync(path.join(pkgDir, 'README.md'), 'utf8');
  const m = /<!-- example[^>]*-->\s*```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(m, 'packages/core/README.md has no example block');
  return m[1];
}

describe('@mcp-host/core package (packed, installed offline into a fresh project)', function () {
  this.timeout(300_000); // tsc for the declarations on a busy machine
  let tmp: string;
  let project: string;
  let files: string[];
  // No registry: an offline install that needed one fails instead of fetching.
  const offline = () => ({ npm_config_offline: 'true', npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' });

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-core-pkg-'));
    await ok(process.execPath, [path.join(pkgDir, 'build.mjs')], repoRoot);
    const packed = JSON.parse((await ok('npm', ['pack', '--json', '--pack-destination', tmp], pkgDir, offline())).stdout) as { filename: string; files: { path: string }[] }[];
    files = packed[0].files.map(f => f.path);
    project = path.join(tmp, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'embedder', version: '1.0.0', private: true, type: 'module' }));
    await ok('npm', ['install', path.join(tmp, packed[0].filename)], project, offline());
    // The example's server; the repository's copy stands in for `npm install @modelcontextprotocol/server-everything`.
    fs.mkdirSync(path.join(project, 'node_modules/@modelcontextprotocol'), { recursive: true });
    fs.symlinkSync(path.dirname(path.dirname(everythingBin)), path.join(project, 'node_modules/@modelcontextprotocol/server-everything'), 'dir');
  });

  after(() => { if (tmp) fs.rmSync(tmp, { recursive: true, force: true }); });

  it('has the extension\'s version and no runtime dependencies', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string; dependencies?: object; bin: Record<string, string> };
    const extension = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    assert.equal(pkg.version, extension.version);
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.bin['mcp-host'], 'dist/cli.js');
  });

  it('ships the library, the bin, declarations and the README, and nothing of VS Code', () => {
    for (const f of ['dist/index.js', 'dist/light.js', 'dist/cli.js', 'dist/types/index.d.ts', 'dist/types/light.d.ts', 'dist/types/host.d.ts', 'dist/types/ports.d.ts', 'README.md', 'package.json']) assert.ok(files.includes(f), `${f} missing: ${files.join(', ')}`);
    assert.deepEqual(files.filter(f => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json'), []);
    const lib = fs.readFileSync(path.join(project, 'node_modules/@mcp-host/core/dist/index.js'), 'utf8');
    assert.doesNotMatch(lib, /require\(["']vscode["']\)/);
  });

  it('runs the README example against server-everything', async () => {
    const example = readmeExample();
    assert.ok(example.split('\n').length <= 31, 'the example is at most 30 lines');
    fs.writeFileSync(path.join(project, 'example.mjs'), example);
    const r = await ok(process.execPath, ['example.mjs'], project);
    assert.match(r.stdout, /^everything\/echo: Echoes back the input string$/m);
    assert.match(r.stdout, /^Echo: hello$/m);
  });

  it('its declarations type-check a TypeScript embedder (the README example as .ts), and reject a misuse', async () => {
    // As the README says: the SDK (protocol types) and @types/node as dev dependencies of the embedder.
    for (const dep of ['@modelcontextprotocol/client', '@types/node']) {
      fs.mkdirSync(path.dirname(path.join(project, 'node_modules', dep)), { recursive: true });
      if (!fs.existsSync(path.join(project, 'node_modules', dep))) fs.symlinkSync(path.join(repoRoot, 'node_modules', dep), path.join(project, 'node_modules', dep), 'dir');
    }
    const compilerOptions = { target: 'ES2022', module: 'node16', moduleResolution: 'node16', strict: true, noEmit: true, types: ['node'], skipLibCheck: true };
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['example.mts'] }));
    fs.writeFileSync(path.join(project, 'example.mts'), readmeExample()
      // The two places where TypeScript wants more than JavaScript: the event's type, and narrowing a content block.
      .replace('new Emitter()', 'new Emitter<void>()')
      .replace('console.log(result.content[0].text);', "const first = result.content[0]; console.log(first.type === 'text' ? first.text : first.type);"));
    const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
    await ok(process.execPath, [tsc, '-p', 'tsconfig.json'], project);
    fs.writeFileSync(path.join(project, 'misuse.mts'), "import { McpHost } from '@mcp-host/core';\nnew McpHost({ ports: {} });\n");
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['misuse.mts'] }));
    const misuse = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], project);
    assert.notEqual(misuse.code, 0);
    assert.match(misuse.stdout, /Property 'variables' is missing/);
  });

  it('installs the mcp-host bin, which checks a declaration file', async () => {
    const config = path.join(project, 'mcp.json');
    fs.writeFileSync(config, JSON.stringify({ servers: { everything: { command: process.execPath, args: [everythingBin] } } }));
    const bin = path.join(project, 'node_modules/.bin/mcp-host');
    assert.equal((await ok(bin, ['--version'], project)).stdout.trim(), (JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version);
    const r = await ok(bin, ['check', '--json', '--config', config], project);
    const out = JSON.parse(r.stdout) as { ok: boolean; servers: { name: string; state: string }[] };
    assert.equal(out.ok, true);
    assert.deepEqual(out.servers.map(s => [s.name, s.state]), [['everything', 'running']]);
  });
});

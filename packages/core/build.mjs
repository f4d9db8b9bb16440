// Builds @mcp-host/core into packages/core/dist from the same source and entry module the extension
// bundles (src/core/index.ts): dist/index.js (the library), dist/light.js (its SDK-free part, src/core/light.ts), dist/cli.js (the mcp-host bin) and
// dist/types (declarations). The SDK and the core's other dependencies are bundled, so the package
// has no runtime dependencies: it installs offline, and an embedder's own SDK version cannot change
// the protocol code under the host. `node packages/core/build.mjs [--no-types]`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const dist = path.join(here, 'dist');

// Versioned with the extension: one number for both.
const extension = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8'));
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
if (pkg.version !== extension.version) {
  console.error(`packages/core/package.json has version ${pkg.version}, the extension ${extension.version}: keep them equal`);
  process.exit(1);
}

fs.rmSync(dist, { recursive: true, force: true });
const result = await esbuild.build({
  entryPoints: { index: path.join(repo, 'src/core/index.ts'), light: path.join(repo, 'src/core/light.ts'), cli: path.join(repo, 'src/cli/main.ts') },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outdir: dist,
  minify: false,
  sourcemap: false,
  legalComments: 'eof',
  define: { MCP_HOST_CORE_VERSION: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  metafile: true,
});
for (const [file, o] of Object.entries(result.metafile.outputs)) console.log(`${path.relative(repo, file)}: ${(o.bytes / 1024).toFixed(1)} KiB`);

if (!process.argv.includes('--no-types')) {
  const tsc = path.join(repo, 'node_modules/typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json')], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  console.log(`${path.relative(repo, path.join(dist, 'types'))}: declarations`);
}

// One esbuild context for the extension bundle. `--production` minifies and drops sourcemaps,
// `--watch` rebuilds on change. Types are checked separately by `tsc` (npm run typecheck).
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --outfile=<path>: bundle elsewhere (test/rig/package.mjs stages the .vsix without touching dist/).
const outfile = process.argv.find((a) => a.startsWith('--outfile='))?.slice('--outfile='.length) ?? 'dist/extension.js';

const ctx = await esbuild.context({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outfile,
  // First statement of the bundle: activate() reports the time from here (bundle evaluation included) as activationMs.
  banner: { js: 'var __mcpHostLoadStart = performance.now();' },
  external: ['vscode'],
  // Test hooks (src/vscode/testing) exist only in development bundles; the .vsix must not even contain them.
  define: { MCP_HOST_TEST_BUILD: production ? 'false' : 'true' },
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  metafile: true,
});

if (watch) {
  await ctx.watch();
} else {
  const result = await ctx.rebuild();
  await ctx.dispose();
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  console.log(`${outfile}: ${(bytes / 1024).toFixed(1)} KiB${production ? ' (production)' : ''}`);
}

// One esbuild context, three bundles: extension.js (the activation entry: contributions and the API, no
// MCP SDK, so activate() stays fast), early.js (spawns the local servers that need no question, no SDK
// either) and host.js (the core and everything that needs the SDK); extension.js `require`s the other
// two, in that order, after activation (src/vscode/lazy/contract.ts). `--production` minifies and
// drops sourcemaps (and builds without the test hooks, see below), `--watch` rebuilds on change. Types
// are checked separately by `tsc` (npm run typecheck).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// --outfile=<path>: bundle elsewhere (test/rig/package.mjs stages the .vsix without touching dist/);
// early.js and host.js go next to it.
const outfile = process.argv.find((a) => a.startsWith('--outfile='))?.slice('--outfile='.length) ?? 'dist/extension.js';
// --metafile=<path>: write esbuild's metafile (which input went into which bundle) there.
const metafileOut = process.argv.find((a) => a.startsWith('--metafile='))?.slice('--metafile='.length);

/**
 * ext-apps' app bridge writes `import { z } from "zod/v4"`: taking the namespace as a value makes esbuild keep
 * every export of zod's classic API, its ~60 locales included (~345 KiB minified), although the bridge only calls
 * `z.object`, `z.union`, … The same module's `import * as z` binds the same functions (zod/v4 re-exports
 * `z` as `* as z` of what it exports itself), and esbuild tree-shakes property reads on it. The build fails when
 * the import is no longer there, so an ext-apps update cannot silently bring the whole of zod back.
 */
const zodNamespaceImport = {
  name: 'zod-namespace-import',
  setup(build) {
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]ext-apps[\\/]dist[\\/]src[\\/]app-bridge\.js$/ }, async (args) => {
      const source = await fs.readFile(args.path, 'utf8');
      const pattern = /import\s*\{\s*z\s+as\s+([\w$]+)\s*\}\s*from\s*"zod\/v4"/g;
      const rewritten = source.replace(pattern, 'import * as $1 from "zod/v4"');
      if (rewritten === source) throw new Error(`${args.path}: no \`import { z as … } from "zod/v4"\` to rewrite; see esbuild.mjs (zodNamespaceImport)`);
      return { contents: rewritten, loader: 'js' };
    });
  },
};

// A development build is the test build: its activation entry and host bundle are test/hooks/extension.ts
// and host.ts, which run the product's own (src/extension.ts, src/host.ts) and add the hooks MCP Host's
// integration tests use. The production build (the .vsix) is made from src/ alone: nothing in src/ refers
// to test/ (test/unit/structure.test.ts), so no test hook can reach it.
const entries = production
  ? { extension: 'src/extension.ts', host: 'src/host.ts' }
  : { extension: 'test/hooks/extension.ts', host: 'test/hooks/host.ts' };

const ctx = await esbuild.context({
  entryPoints: { [path.basename(outfile, '.js')]: entries.extension, early: 'src/early.ts', host: entries.host },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  outdir: path.dirname(outfile),
  // First statement of each bundle: activate() reports the time from here (bundle evaluation included) as activationMs.
  banner: { js: 'var __mcpHostLoadStart = performance.now();' },
  external: ['vscode'],
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  metafile: true,
  plugins: [zodNamespaceImport],
});

if (watch) {
  await ctx.watch();
} else {
  const result = await ctx.rebuild();
  await ctx.dispose();
  if (metafileOut) await fs.writeFile(metafileOut, JSON.stringify(result.metafile));
  const sizes = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js'));
  console.log(sizes.map(([f, o]) => `${f}: ${(o.bytes / 1024).toFixed(1)} KiB`).join(', ') + (production ? ' (production)' : ''));
}

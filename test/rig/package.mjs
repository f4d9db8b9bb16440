// `npm run package`: production bundle + .vsix, offline.
//
//   node test/rig/package.mjs [--out <file.vsix>] [--dev]
//
// The .vsix is assembled in a staging folder: the files `.vscodeignore` lets through (as vsce itself
// lists them) are copied there and the bundle is built into <staging>/dist/extension.js
// and host.js beside it (`esbuild.mjs --production --outfile=…`). So packaging never rewrites the repo's dist/, which
// running integration tests load. `--dev` builds the unminified development bundle instead.
// As a module: packageExtension({ out, production, bundle, log }) → { file, bytes, files }; `npm start`
// passes bundle: 'dist/extension.js' (the build it just made), the `installed` test run and
// test/bench/extension.mjs package the production build.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `<name>-<version>.vsix` in the repo root (gitignored), as `vsce package` names it. */
export async function defaultVsixPath() {
  const manifest = JSON.parse(await fs.readFile(path.join(REPO_ROOT, 'package.json'), 'utf8'));
  return path.join(REPO_ROOT, `${manifest.name}-${manifest.version}.vsix`);
}

function run(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(cmd)} ${args.join(' ')} failed (${code}):\n${out}`))));
  });
}

/** vsce reports on the console; keep its lines for error messages and return them. */
async function quietly(fn) {
  const saved = { log: console.log, warn: console.warn, info: console.info, error: console.error };
  const lines = [];
  console.log = console.warn = console.info = console.error = (...a) => lines.push(a.join(' '));
  try {
    return { value: await fn(), lines };
  } catch (e) {
    e.message += lines.length ? `\n${lines.join('\n')}` : '';
    throw e;
  } finally {
    Object.assign(console, saved);
  }
}

/**
 * Builds the bundle and packages the extension.
 * @param {{ out?: string, production?: boolean, bundle?: string, omit?: string[], log?: (s: string) => void }} [options]
 *   bundle: package this already built file (e.g. dist/extension.js) instead of building one
 *   omit: files of the package left out (a benchmark's baseline, e.g. ['dist/early.js'])
 * @returns {Promise<{ file: string, bytes: number, files: string[] }>}
 */
export async function packageExtension(options = {}) {
  const log = options.log ?? (() => {});
  const production = options.production ?? true;
  const out = path.resolve(options.out ?? await defaultVsixPath());
  const vsce = await import('@vscode/vsce');
  const stage = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-package-'));
  try {
    // What .vscodeignore lets through, minus the bundle (built fresh below).
    const { value: listed } = await quietly(() => vsce.listFiles({ cwd: REPO_ROOT, packageManager: vsce.PackageManager.None }));
    const files = listed.map((f) => f.split(path.sep).join('/')).filter((f) => !f.startsWith('dist/'));
    for (const f of files) {
      await fs.mkdir(path.dirname(path.join(stage, f)), { recursive: true });
      await fs.copyFile(path.join(REPO_ROOT, f), path.join(stage, f));
    }
    await fs.copyFile(path.join(REPO_ROOT, '.vscodeignore'), path.join(stage, '.vscodeignore'));
    const bundle = path.join(stage, 'dist', 'extension.js');
    if (options.bundle) {
      // The activation entry and, beside it, the early and host bundles it loads (esbuild.mjs).
      await fs.mkdir(path.dirname(bundle), { recursive: true });
      await fs.copyFile(path.resolve(REPO_ROOT, options.bundle), bundle);
      for (const beside of ['early.js', 'host.js']) await fs.copyFile(path.join(path.dirname(path.resolve(REPO_ROOT, options.bundle)), beside), path.join(path.dirname(bundle), beside));
    } else {
      log((await run(process.execPath, ['esbuild.mjs', ...(production ? ['--production'] : []), `--outfile=${bundle}`], REPO_ROOT)).trim());
      await fs.rm(`${bundle}.map`, { force: true });
      for (const map of ['early.js.map', 'host.js.map']) await fs.rm(path.join(path.dirname(bundle), map), { force: true });
    }

    for (const f of options.omit ?? []) await fs.rm(path.join(stage, f));
    await fs.mkdir(path.dirname(out), { recursive: true });
    const tmpOut = `${out}.partial-${process.pid}`;
    await quietly(() => vsce.createVSIX({
      cwd: stage,
      packagePath: tmpOut,
      dependencies: false, // everything is in the bundle; also keeps vsce from running npm (offline)
    }));
    await fs.rename(tmpOut, out);
    const { value: packaged } = await quietly(() => vsce.listFiles({ cwd: stage, packageManager: vsce.PackageManager.None }));
    const { size } = await fs.stat(out);
    return { file: out, bytes: size, files: packaged.map((f) => f.split(path.sep).join('/')).sort() };
  } finally {
    await fs.rm(stage, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const outArg = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : undefined;
  try {
    const t = Date.now();
    const r = await packageExtension({ out: outArg, production: !argv.includes('--dev'), log: (s) => console.log(s) });
    console.log(`${path.relative(process.cwd(), r.file).startsWith('..') ? r.file : path.relative(process.cwd(), r.file)}: ${(r.bytes / 1024).toFixed(1)} KiB, ${r.files.length} files (${Date.now() - t} ms)`);
    for (const f of r.files) console.log(`  ${f}`);
  } catch (e) {
    console.error(`packaging failed: ${e.message}`);
    process.exit(1);
  }
}

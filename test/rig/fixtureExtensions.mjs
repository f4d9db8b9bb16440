// Packages test-fixture extensions (test/fixtures/lm-extension, …) as .vsix files so code-server can
// `--install-extension` them offline into a run's fresh extensions dir.
//
// Why not a second extensionDevelopmentPath: the web workbench turns the URL payload into a Map
// (`new Map(payload)` in its environment service), so repeated `extensionDevelopmentPath` entries
// collapse to the last one. MCP Host stays the development extension (tests run in its context);
// fixtures are installed like any user-installed extension.
//
// The .vsix is cached under <cache>/vsix/, keyed by a hash of the fixture's files, so it is rebuilt only
// when the fixture changes.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { cacheDir } from './install.mjs';

async function hashDir(dir) {
  const h = createHash('sha256');
  const entries = (await fs.readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath ?? e.path, e.name))
    .filter((f) => !f.endsWith('.vsix'))
    .sort();
  for (const f of entries) {
    h.update(path.relative(dir, f)).update('\0').update(await fs.readFile(f)).update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

/** Returns the path of an up-to-date .vsix for the extension folder `dir`. */
export async function packageFixture(dir) {
  const manifest = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8'));
  const out = path.join(cacheDir(), 'vsix');
  const file = path.join(out, `${manifest.publisher}.${manifest.name}-${manifest.version}-${await hashDir(dir)}.vsix`);
  if (existsSync(file)) return file;
  await fs.mkdir(out, { recursive: true });
  const { createVSIX } = await import('@vscode/vsce');
  const tmp = `${file}.partial-${process.pid}`;
  // vsce reports progress on the console; keep it for the error message only.
  const saved = { log: console.log, warn: console.warn, info: console.info, error: console.error };
  const lines = [];
  console.log = console.warn = console.info = console.error = (...a) => lines.push(a.join(' '));
  try {
    await createVSIX({
      cwd: dir,
      packagePath: tmp,
      dependencies: false, // fixtures are plain JS without node_modules
      allowMissingRepository: true,
      allowStarActivation: true,
      skipLicense: true,
    });
  } catch (e) {
    throw new Error(`packaging ${dir} failed: ${e.message}\n${lines.join('\n')}`);
  } finally {
    Object.assign(console, saved);
  }
  await fs.rename(tmp, file);
  return file;
}

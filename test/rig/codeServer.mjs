// Starts and stops a code-server (real VS Code server + web workbench) for one test run.
// Every run gets fresh user-data/extensions/HOME/XDG_* folders under one temp dir, a free loopback
// port and its own process group, so nothing leaks between runs or into the developer's VS Code.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { rigPaths } from './install.mjs';

/** Asks the kernel for a free loopback port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Process groups of servers still running. If the driver dies (Ctrl-C, SIGTERM from CI, uncaught
// error) they are SIGKILLed so no server or extension host outlives the run.
const liveGroups = new Set();
/** Temp folders to delete if the driver is interrupted while a server runs (callers add/remove). */
export const removeOnAbort = new Set();
function killAllSync() {
  for (const pid of liveGroups) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ }
  }
  liveGroups.clear();
}
function onSignal(signal) {
  killAllSync();
  for (const dir of removeOnAbort) {
    try { rmSync(dir, { recursive: true, force: true }); } catch { /* best effort */ }
  }
  process.exit(signal === 'SIGINT' ? 130 : 143);
}
// Drivers that stop the server themselves on Ctrl-C (npm start stops it gracefully) opt out of the
// signal handlers; the synchronous 'exit' handler still kills whatever is left.
let signalsHandled = false;
function track(pid, handleSignals = true) {
  if (liveGroups.size === 0) process.on('exit', killAllSync);
  if (handleSignals && !signalsHandled) {
    signalsHandled = true;
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  liveGroups.add(pid);
}
function untrack(pid) {
  liveGroups.delete(pid);
  if (liveGroups.size === 0) {
    process.off('exit', killAllSync);
    if (signalsHandled) {
      signalsHandled = false;
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  }
}

/**
 * @typedef {object} CodeServerOptions
 * @property {string} [folder]            workspace folder opened by default (absolute path)
 * @property {Record<string, unknown>} [settings]  user settings, written to <user-data>/User/settings.json
 * @property {Record<string, string>} [env]         extra environment for the server (the extension host inherits it)
 * @property {boolean} [workspaceTrust]   true: start WITHOUT --disable-workspace-trust (Workspace Trust tests)
 * @property {string[]} [installExtensions]  .vsix files to `--install-extension` into the fresh extensions dir before start
 * @property {string} [locale]            display language (`--locale`, e.g. 'zh-cn'); needs a language pack for it among installExtensions
 * @property {string[]} [extraArgs]       more code-server flags
 * @property {string} [tmpRoot]           parent of the run's temp dir (default os.tmpdir())
 * @property {number} [startTimeoutMs]    how long to wait for /healthz (default 60 s)
 * @property {number} [port]              listen on this loopback port (default: a free one); fails if it is taken
 * @property {boolean} [smokeTestDriver]  false: start without `--vscode-option enable-smoke-test-driver`
 *                                        (a workbench for a person; the test payload is then ignored)
 * @property {boolean} [handleSignals]    false: the caller stops the server on Ctrl-C/SIGTERM itself
 * @property {(line: string) => void} [log]
 */

/**
 * Starts code-server and resolves once GET /healthz answers.
 * @param {CodeServerOptions} [options]
 * @returns {Promise<{url: string, port: number, pid: number, dirs: object, logFile: string, output: () => Promise<string>, stop: () => Promise<void>,
 *   exited: Promise<{code: number | null, signal: string | null}>}>}
 */
export async function startCodeServer(options = {}) {
  const p = rigPaths();
  const log = options.log ?? (() => {});
  const root = await fs.mkdtemp(path.join(options.tmpRoot ?? os.tmpdir(), 'mcp-host-cs-'));
  const dirs = {
    root,
    userData: path.join(root, 'user-data'),
    extensions: path.join(root, 'extensions'),
    home: path.join(root, 'home'),
    xdgConfig: path.join(root, 'xdg-config'),
    xdgData: path.join(root, 'xdg-data'),
    xdgCache: path.join(root, 'xdg-cache'),
    xdgState: path.join(root, 'xdg-state'),
    xdgRuntime: path.join(root, 'xdg-runtime'),
  };
  for (const d of Object.values(dirs)) await fs.mkdir(d, { recursive: true, mode: 0o700 });
  await fs.mkdir(path.join(dirs.userData, 'User'), { recursive: true });
  await fs.writeFile(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify(options.settings ?? {}, null, 2));

  // Only what the server needs from our environment; HOME/XDG point into the run's temp dir so the
  // extension host never sees the developer's real config. Node 24 first on PATH: code-server spawns
  // `node` for some helpers.
  const env = {
    PATH: `${path.join(p.nodeDir, 'bin')}${path.delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`,
    LANG: process.env.LANG ?? 'C.UTF-8',
    TMPDIR: process.env.TMPDIR ?? os.tmpdir(),
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.xdgConfig,
    XDG_DATA_HOME: dirs.xdgData,
    XDG_CACHE_HOME: dirs.xdgCache,
    XDG_STATE_HOME: dirs.xdgState,
    XDG_RUNTIME_DIR: dirs.xdgRuntime,
    ...(process.env.CI ? { CI: process.env.CI } : {}),
    ...options.env,
  };
  const common = ['--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];

  for (const ext of options.installExtensions ?? []) {
    await runToEnd(p.node, [p.codeServerEntry, ...common, '--install-extension', ext], env, 120_000);
    log(`installed extension ${ext}`);
  }
  if (options.locale) await registerLanguagePacks(dirs);

  const port = options.port ?? await freePort();
  const args = [
    p.codeServerEntry,
    '--auth', 'none',
    '--bind-addr', `127.0.0.1:${port}`,
    ...common,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    ...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
    ...(options.locale ? ['--locale', options.locale] : []),
    // Without this the workbench silently ignores the test payload (extensionTestsPath).
    ...(options.smokeTestDriver === false ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    ...(options.extraArgs ?? []),
    ...(options.folder ? [options.folder] : []),
  ];
  const logFile = path.join(root, 'code-server.log');
  const logHandle = await fs.open(logFile, 'w');
  const child = spawn(p.node, args, { env, cwd: dirs.home, detached: true, stdio: ['ignore', logHandle.fd, logHandle.fd] });
  await logHandle.close();
  track(child.pid, options.handleSignals !== false);
  let exited = null;
  let onExited;
  const exitedPromise = new Promise((resolve) => { onExited = resolve; });
  child.on('exit', (code, signal) => { exited = { code, signal }; onExited(exited); });
  const output = () => readTail(logFile);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await killGroup(child.pid, () => exited !== null);
    untrack(child.pid);
  };

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  try {
    for (;;) {
      if (exited) throw new Error(`code-server exited early (${exited.signal ?? exited.code}):\n${await output()}`);
      if (Date.now() > deadline) throw new Error(`code-server did not answer ${url}/healthz in time:\n${await output()}`);
      try {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) break;
      } catch { /* not listening yet */ }
      await sleep(150);
    }
  } catch (e) {
    await stop();
    throw e;
  }
  log(`code-server pid ${child.pid} on ${url} (dirs ${root})`);
  return { url, port, pid: child.pid, dirs, logFile, output, stop, exited: exitedPromise };
}

/**
 * The workbench switches its display language only to a locale listed in <user-data>/languagepacks.json.
 * The running server writes that file when it installs a language pack, `--install-extension` (the CLI)
 * does not; so write it the way VS Code's LanguagePacksCache does, from the installed extensions'
 * `contributes.localizations`.
 */
async function registerLanguagePacks(dirs) {
  const packs = {};
  for (const folder of await fs.readdir(dirs.extensions)) {
    let manifest;
    try { manifest = JSON.parse(await fs.readFile(path.join(dirs.extensions, folder, 'package.json'), 'utf8')); } catch { continue; }
    for (const loc of manifest.contributes?.localizations ?? []) {
      const pack = packs[loc.languageId] ??= { hash: '', extensions: [], translations: {}, label: loc.localizedLanguageName ?? loc.languageName };
      pack.extensions.push({ extensionIdentifier: { id: `${manifest.publisher}.${manifest.name}`.toLowerCase() }, version: manifest.version });
      for (const t of loc.translations ?? []) pack.translations[t.id] = path.join(dirs.extensions, folder, t.path);
    }
  }
  for (const pack of Object.values(packs)) {
    const hash = createHash('md5');
    for (const e of pack.extensions) hash.update(e.extensionIdentifier.id).update(e.version);
    pack.hash = hash.digest('hex');
  }
  await fs.writeFile(path.join(dirs.userData, 'languagepacks.json'), JSON.stringify(packs));
}

async function readTail(file, max = 20_000) {
  try {
    const s = await fs.readFile(file, 'utf8');
    return s.length > max ? `…${s.slice(-max)}` : s;
  } catch {
    return '';
  }
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * SIGTERM the whole process group (server, extension host, agent host, …), wait up to graceMs,
 * then SIGKILL whatever is left of the group.
 */
export async function killGroup(pid, leaderGone = () => false, graceMs = 5000) {
  try { process.kill(-pid, 'SIGTERM'); } catch { return; }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && groupAlive(pid)) {
    await sleep(100);
    if (leaderGone() && !groupAlive(pid)) return;
  }
  try { process.kill(-pid, 'SIGKILL'); } catch { /* gone */ }
  for (let i = 0; i < 20 && groupAlive(pid); i++) await sleep(50);
}

function runToEnd(cmd, args, env, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const timer = setTimeout(() => { void killGroup(child.pid); }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`${path.basename(cmd)} ${args.slice(1).join(' ')} failed (${code}):\n${out}`));
    });
  });
}

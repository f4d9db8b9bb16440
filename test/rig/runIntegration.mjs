// Runs the integration tests (out/test/integration/**/*.test.js) inside a real VS Code:
// code-server (VS Code server + Node extension host) driven by headless Debian Chromium.
//
//   node test/rig/runIntegration.mjs [--run <name>] [--grep <pattern>] [--keep] [--headed]
//
// Runs every run of test/integration/runs.mjs (each its own server + browser), or just --run <name>.
// Builds nothing: run `npm run build && npm run build:tests` first (npm test does).
// As a module: `runIntegration(options)` for one run → { passed, failed, pending, failures, ... };
// `integrationRuns()` lists the runs.
//
// How the tests get into the extension host: the workbench URL carries a `payload` with
// extensionDevelopmentPath (the repo root) and extensionTestsPath; code-server only honours it with
// `--vscode-option enable-smoke-test-driver`. When the mocha entry's run() settles the workbench calls
// window.codeAutomationExit(code), which we expose from Playwright. Fixture extensions (the scripted
// language model) are packaged as .vsix and installed into the run's fresh extensions dir, because the
// payload cannot carry more than one extensionDevelopmentPath (see fixtureExtensions.mjs).
// Results travel through a JSON file named by MCP_HOST_TEST_RESULTS in the server's environment,
// which the extension host inherits.
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { removeOnAbort, startCodeServer } from './codeServer.mjs';
import { packageExtension } from './package.mjs';
import { packageFixture } from './fixtureExtensions.mjs';
import { checkChromium, CHROMIUM_PATH, ensureInstalled } from './install.mjs';
import { runUiSuite } from './runUi.mjs';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LM_FIXTURE_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'lm-extension');
/** The empty development extension of `installVsix` runs (the payload needs one; MCP Host must not be it). */
export const TEST_ENTRY_DIR = path.join(REPO_ROOT, 'test', 'fixtures', 'test-entry-extension');
export const ARTIFACTS_DIR = path.join(REPO_ROOT, '.test-artifacts');

/** Settings every run starts with; options.settings are merged on top. */
export const BASE_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'git.enabled': false,
  'window.restoreWindows': 'none',
  // Tests declare, remove and declare again the same servers and expect them to run: each run's own
  // settings choose on-demand starts where they test them (the 'reload' run).
  'mcpHost.autostart': 'always',
};

/**
 * @typedef {object} RunDefinition  one entry of test/integration/runs.mjs
 * @property {string} name
 * @property {string} [dir]  folder under test/integration holding the run's tests ('' = top level)
 * @property {string | null} [workspace]
 * @property {Record<string, unknown>} [settings]
 * @property {Record<string, string>} [env]
 * @property {boolean} [workspaceTrust]
 * @property {number} [timeoutMs]
 */

/**
 * @typedef {object} IntegrationOptions
 * @property {string} [dir]         run the tests under out/test/integration/<dir> (default all)
 * @property {string[]} [excludeDirs]  …except these folders (relative to out/test/integration)
 * @property {string | null} [workspace]  fixture folder (absolute or relative to the repo root) copied to a
 *                                  temp dir and opened (default test/fixtures/workspace); null = no folder
 * @property {Record<string, unknown>} [settings]  user settings merged over BASE_SETTINGS
 * @property {Record<string, string>} [env]        extra environment for code-server and so the extension host
 * @property {boolean} [workspaceTrust]  run with Workspace Trust enabled (default: disabled)
 * @property {string} [workspaceFile]  a .code-workspace file inside the copied workspace folder to open instead of the folder
 * @property {string} [locale]      display language (code-server --locale); list a language pack for it in fixtureExtensions
 * @property {string} [extensionDevelopmentPath]  default the repo root (MCP Host); test/fixtures/test-entry-extension with installVsix
 * @property {boolean | string} [installVsix]  package MCP Host (production .vsix, test/rig/package.mjs), or take this
 *                                  .vsix file, and install it like a user would (`--install-extension`) instead of
 *                                  loading MCP Host as the development extension
 * @property {string} [ui]          folder (relative to the repo root) of a UI suite (*.test.mjs, test/rig/runUi.mjs) run
 *                                  with Playwright against this run's workbench while its extension-host tests run
 * @property {string[]} [fixtureExtensions]  extension folders packaged + installed (default [test/fixtures/lm-extension])
 * @property {string} [extensionTestsPath]  default out/test/integration/index.js
 * @property {string} [grep]        only tests whose full title matches
 * @property {number} [timeoutMs]   whole run (default 900 s, env MCP_HOST_TEST_RUN_TIMEOUT_MS)
 * @property {string} [name]        artifact file prefix (default 'integration')
 * @property {boolean} [keep]       keep the temp dirs (workspace copy, server logs) for inspection
 * @property {boolean} [headed]     show the browser (needs a display)
 * @property {(s: string) => void} [log]
 */

/** @param {IntegrationOptions} [options] */
export async function runIntegration(options = {}) {
  const log = options.log ?? ((s) => console.log(`[integration] ${s}`));
  const name = options.name ?? 'integration';
  const timeoutMs = options.timeoutMs ?? Number(process.env.MCP_HOST_TEST_RUN_TIMEOUT_MS ?? 900_000);
  const t0 = Date.now();
  const timings = {};
  const mark = (k) => { timings[k] = Date.now() - t0; };

  const testsPath = options.extensionTestsPath ?? path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js');
  const devPath = options.extensionDevelopmentPath ?? (options.installVsix ? TEST_ENTRY_DIR : REPO_ROOT);
  for (const [file, hint] of [[testsPath, 'npm run build:tests'], [path.join(REPO_ROOT, 'dist', 'extension.js'), 'npm run build'], [path.join(REPO_ROOT, 'dist', 'early.js'), 'npm run build'], [path.join(REPO_ROOT, 'dist', 'host.js'), 'npm run build']]) {
    if (!existsSync(file)) throw new Error(`${path.relative(REPO_ROOT, file)} is missing; run \`${hint}\` first`);
  }
  await ensureInstalled({ log });
  checkChromium();
  const vsixes = [];
  for (const dir of options.fixtureExtensions ?? [LM_FIXTURE_DIR]) vsixes.push(await packageFixture(dir));
  mark('packaged');

  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-it-'));
  if (!options.keep) removeOnAbort.add(tmp);
  const resultsFile = path.join(tmp, 'results.json');
  const holdFile = path.join(tmp, 'ui-done');
  if (options.installVsix) {
    vsixes.push(typeof options.installVsix === 'string' ? options.installVsix
      : (await packageExtension({ out: path.join(tmp, 'mcp-host.vsix') })).file);
    mark('vsix');
  }
  let workspace;
  if (options.workspace !== null) {
    workspace = path.join(tmp, 'workspace');
    await fs.cp(path.resolve(REPO_ROOT, options.workspace ?? 'test/fixtures/workspace'), workspace, { recursive: true });
  }
  await fs.mkdir(ARTIFACTS_DIR, { recursive: true });
  const consoleLog = [];

  let server;
  let serverStarting;
  let browser;
  let timer;
  let exitCode;
  let runError;
  let uiRun;
  let uiResult;
  // Covers everything from starting the server to the end of the tests (not the one-time install).
  const timedOut = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(
      `integration run timed out after ${Math.round(timeoutMs / 1000)} s: the workbench never reported the end of the tests ` +
      '(a hung test or extension host; see the screenshot and logs in .test-artifacts/; ' +
      'raise MCP_HOST_TEST_RUN_TIMEOUT_MS if the machine is just slow)')), timeoutMs);
  });
  timedOut.catch(() => {});
  try {
    serverStarting = startCodeServer({
      folder: workspace,
      settings: { ...BASE_SETTINGS, ...options.settings },
      env: {
        MCP_HOST_TEST_RESULTS: resultsFile,
        MCP_HOST_TEST_DIR: options.dir ?? '',
        MCP_HOST_TEST_EXCLUDE_DIRS: JSON.stringify(options.excludeDirs ?? []),
        ...(options.grep ? { MCP_HOST_TEST_GREP: options.grep } : {}),
        ...(options.ui ? { MCP_HOST_TEST_HOLD_FILE: holdFile } : {}),
        ...(process.env.MCP_HOST_TEST_TIMEOUT_MS ? { MCP_HOST_TEST_TIMEOUT_MS: process.env.MCP_HOST_TEST_TIMEOUT_MS } : {}),
        ...options.env,
      },
      workspaceTrust: options.workspaceTrust,
      locale: options.locale,
      installExtensions: vsixes,
      tmpRoot: tmp,
      log,
    });
    server = await Promise.race([serverStarting, timedOut]);
    mark('serverReady');

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: !options.headed,
      // Playwright gives every launch a fresh temporary --user-data-dir.
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (m) => consoleLog.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => consoleLog.push(`[pageerror] ${e.stack ?? e.message}`));

    let onExit;
    const exited = new Promise((resolve) => { onExit = resolve; });
    await page.exposeFunction('codeAutomationExit', (code) => onExit(code));
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p.split(path.sep).join('/')}`;
    const payload = [
      ['extensionDevelopmentPath', remote(devPath)],
      ['extensionTestsPath', remote(testsPath)],
    ];
    // A run may open a .code-workspace file from its copied folder (multi-root: folders can then be
    // added in tests without "entering a new workspace", which the test workbench forbids).
    const opened = workspace && options.workspaceFile ? { workspace: path.join(workspace, options.workspaceFile) } : workspace ? { folder: workspace } : { ew: 'true' };
    const query = new URLSearchParams({ ...opened, payload: JSON.stringify(payload) });
    // The load event waits for the workbench's scripts: ~10 s idle, near Playwright's 30 s default on a loaded
    // 2-core machine (seen: 29 s, and one run lost to it). The whole-run guard (timedOut) bounds a real hang.
    await Promise.race([page.goto(`${server.url}/?${query}`, { timeout: 180_000 }), timedOut]);
    mark('pageLoaded');
    // The UI suite drives the page while the extension-host tests run; the extension host waits for
    // the hold file before it reports the end (the workbench stops it then).
    uiRun = options.ui && runUiSuite({
      page, dir: path.resolve(REPO_ROOT, options.ui), name, artifactsDir: ARTIFACTS_DIR, serverUrl: server.url, grep: options.grep,
    }).finally(() => { mark('uiDone'); return fs.writeFile(holdFile, '').catch(() => {}); });
    try {
      exitCode = await Promise.race([exited, timedOut]);
      mark('testsDone');
      if (uiRun) uiResult = await Promise.race([uiRun, timedOut]);
    } finally {
      await page.screenshot({ path: path.join(ARTIFACTS_DIR, `${name}-workbench.png`) }).catch((e) => log(`screenshot failed: ${e.message}`));
    }
  } catch (e) {
    runError = e;
  } finally {
    clearTimeout(timer);
    await browser?.close().catch(() => {});
    // A server still starting when the run timed out is stopped once its own start timeout settles it.
    server ??= await serverStarting?.catch(() => undefined);
    await server?.stop().catch(() => {});
    mark('stopped');
    await fs.writeFile(path.join(ARTIFACTS_DIR, `${name}-browser-console.log`), consoleLog.join('\n')).catch(() => {});
    if (server) await fs.copyFile(server.logFile, path.join(ARTIFACTS_DIR, `${name}-code-server.log`)).catch(() => {});
  }

  /** @type {import('../integration/index').TestResultFile | undefined} */
  let results;
  try {
    results = JSON.parse(await fs.readFile(resultsFile, 'utf8'));
  } catch { /* never written */ }
  removeOnAbort.delete(tmp);
  if (options.keep) log(`kept ${tmp}`);
  else await fs.rm(tmp, { recursive: true, force: true }).catch(() => {});

  const ui = uiResult ?? { passed: 0, failed: 0, pending: 0, tests: [], failures: [] };
  const uiTitle = (t) => ({ ...t, title: `[ui] ${t.title}` });
  const out = {
    passed: (results?.passed ?? 0) + ui.passed,
    failed: (results?.failed ?? 0) + ui.failed,
    pending: (results?.pending ?? 0) + ui.pending,
    tests: [...(results?.tests ?? []), ...ui.tests.map(uiTitle)],
    failures: [...(results?.failures ?? []), ...ui.failures.map(uiTitle)],
    exitCode,
    error: runError ?? (ui.error && new Error(`the UI suite (${options.ui}) could not run: ${ui.error.message}`)),
    timings,
  };
  if (!runError && !results) {
    out.error = new Error(`the tests never wrote ${resultsFile} (exit code ${exitCode}); did the extension host start? ` +
      `See .test-artifacts/${name}-browser-console.log`);
  } else if (!runError && results && !results.finished) {
    out.error = new Error('the test run did not finish');
  } else if (!runError && exitCode !== 0 && out.failed === 0) {
    out.error = new Error(`the extension host reported exit code ${exitCode} without failing tests; see .test-artifacts/${name}-browser-console.log`);
  }
  return out;
}

/** Prints per-test lines and failures; returns the summary line. */
export function report(result, print = console.log) {
  for (const t of result.tests) {
    const mark = t.state === 'passed' ? '✓' : t.state === 'failed' ? '✗' : '-';
    print(`  ${mark} ${t.title}${t.durationMs !== undefined ? ` (${t.durationMs} ms)` : ''}`);
  }
  result.failures.forEach((f, i) => {
    print(`\n  ${i + 1}) ${f.title}\n${f.error.split('\n').map((l) => `     ${l}`).join('\n')}`);
    if ((f.expected !== undefined || f.actual !== undefined) && !f.error.includes('\n')) {
      print(`     expected: ${JSON.stringify(f.expected)}\n     actual:   ${JSON.stringify(f.actual)}`);
    }
    const frames = (f.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l) && !l.includes('node_modules')).slice(0, 4);
    if (frames.length) print(frames.map((l) => `     ${l.trim()}`).join('\n'));
  });
  if (result.error) print(`\n  integration run error: ${result.error.message}`);
  return `${result.passed} passed, ${result.failed} failed`;
}

/** The runs of test/integration/runs.mjs as runIntegration options (each excluding the others' folders). */
export async function integrationRuns() {
  const { runs } = await import(pathToFileURL(path.join(REPO_ROOT, 'test', 'integration', 'runs.mjs')).href);
  const norm = (d) => path.normalize(d || '.');
  return runs.map((r) => {
    const dir = r.dir ?? '';
    // Folders of other runs inside this run's folder belong to them.
    const excludeDirs = runs.map((o) => o.dir ?? '')
      .filter((d) => d && norm(d) !== norm(dir) && (dir === '' || norm(d).startsWith(norm(dir) + path.sep)));
    return { ...r, dir, excludeDirs };
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const arg = (n) => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : undefined);
  const only = arg('--run');
  const runs = (await integrationRuns()).filter((r) => !only || r.name === only);
  if (!runs.length) {
    console.error(`no run named ${only} in test/integration/runs.mjs`);
    process.exit(1);
  }
  let passed = 0;
  let failed = 0;
  for (const run of runs) {
    console.log(`\n--- run: ${run.name} ---`);
    const result = await runIntegration({
      ...run,
      grep: arg('--grep') ?? process.env.MCP_HOST_TEST_GREP,
      keep: argv.includes('--keep'),
      headed: argv.includes('--headed'),
    }).catch((e) => ({ passed: 0, failed: 0, tests: [], failures: [], error: e, timings: {} }));
    report(result);
    console.log(`  timings (ms since start): ${JSON.stringify(result.timings)}`);
    passed += result.passed;
    failed += result.failed + (result.error ? 1 : 0);
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

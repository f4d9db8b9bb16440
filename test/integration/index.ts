// Mocha entry that VS Code's extension host loads as `extensionTestsPath` (web run through
// test/rig/runIntegration.mjs, desktop run through test/rig/runDesktop.mjs). The host calls `run()`;
// a rejection makes the workbench report a non-zero exit code.
//
// The extension host's console only reaches the browser console, so results go to the JSON file named
// by MCP_HOST_TEST_RESULTS (rewritten after every test, so a hung run still shows how far it got).
// Environment knobs: MCP_HOST_TEST_GREP (mocha --grep), MCP_HOST_TEST_TIMEOUT_MS (per test, default 20000),
// MCP_HOST_TEST_DIR / MCP_HOST_TEST_EXCLUDE_DIRS (which files; set by the driver from runs.mjs),
// MCP_HOST_TEST_HOLD_FILE (runs with a UI suite: settle only once the driver has created this file, because
// the workbench stops the extension host when run() settles and the UI tests still need it).
// A window reload (the 'reload' run's UI suite reloads the page) starts a new extension host, which loads
// this entry again: the results of the earlier load are kept and this load's are added to them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface TestResultFile {
  finished: boolean;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  tests: { title: string; state: 'passed' | 'failed' | 'pending'; durationMs?: number }[];
  failures: { title: string; error: string; stack?: string; expected?: unknown; actual?: unknown }[];
  /** Set when the entry itself failed (no test file could be loaded, …). */
  fatal?: string;
  /** How many extension hosts ran this entry in this run (more than 1 after a window reload). */
  loads?: number;
}

/** The results an earlier extension host of this run wrote before the window was reloaded (undefined on the first load). */
function earlierLoad(file: string | undefined): TestResultFile | undefined {
  if (!file || !fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, 'utf8')) as TestResultFile;
}

/**
 * The run's test files: *.test.js under MCP_HOST_TEST_DIR (relative to this folder, default all of it),
 * minus the folders in MCP_HOST_TEST_EXCLUDE_DIRS (JSON array; those belong to other runs, see runs.mjs).
 * tsc never deletes outputs, so a compiled test whose .ts source is gone is skipped.
 */
function findTestFiles(root: string): string[] {
  const sourceRoot = path.resolve(root, '..', '..', '..', 'test', 'integration');
  const dir = process.env.MCP_HOST_TEST_DIR ?? '';
  const exclude = (JSON.parse(process.env.MCP_HOST_TEST_EXCLUDE_DIRS ?? '[]') as string[])
    .filter((d) => d)
    .map((d) => path.normalize(d) + path.sep);
  const base = path.join(root, dir);
  return (fs.readdirSync(base, { recursive: true }) as string[])
    .map((f) => path.normalize(path.join(dir, f)))
    .filter((f) => f.endsWith('.test.js') && !exclude.some((x) => f.startsWith(x)))
    .filter((f) => fs.existsSync(path.join(sourceRoot, f.replace(/\.js$/, '.ts'))))
    .map((f) => path.join(root, f))
    .sort();
}

function errorText(err: unknown): { error: string; stack?: string; expected?: unknown; actual?: unknown } {
  if (err instanceof Error) {
    const e = err as Error & { expected?: unknown; actual?: unknown; showDiff?: boolean };
    const diff = e.showDiff !== false && ('expected' in e || 'actual' in e) ? { expected: safe(e.expected), actual: safe(e.actual) } : {};
    return { error: `${e.name}: ${e.message}`, stack: e.stack, ...diff };
  }
  return { error: String(err) };
}

function safe(v: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(v) ?? 'null');
  } catch {
    return String(v);
  }
}

/** Resolves when the driver's UI suite is done (the hold file exists), at the latest after timeoutMs. */
async function holdForUi(timeoutMs = 180_000): Promise<void> {
  const file = process.env.MCP_HOST_TEST_HOLD_FILE;
  const deadline = Date.now() + timeoutMs;
  while (file && !fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

export function run(): Promise<void> {
  return runMocha().then(
    async () => { await holdForUi(); },
    async (e: unknown) => { await holdForUi(); throw e; },
  );
}

function runMocha(): Promise<void> {
  const resultsFile = process.env.MCP_HOST_TEST_RESULTS;
  const started = Date.now();
  const earlier = earlierLoad(resultsFile);
  const results: TestResultFile = {
    finished: false, passed: earlier?.passed ?? 0, failed: earlier?.failed ?? 0, pending: earlier?.pending ?? 0, durationMs: 0,
    tests: earlier?.tests ?? [], failures: earlier?.failures ?? [], loads: (earlier?.loads ?? 1) + (earlier ? 1 : 0),
  };
  const write = () => {
    results.durationMs = (earlier?.durationMs ?? 0) + Date.now() - started;
    if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  };

  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    // 'spec' output lands in the browser console (saved by the web driver) or the terminal (desktop).
    reporter: 'spec',
    timeout: Number(process.env.MCP_HOST_TEST_TIMEOUT_MS ?? 20_000),
  });
  if (process.env.MCP_HOST_TEST_GREP) mocha.grep(process.env.MCP_HOST_TEST_GREP);

  try {
    // Load the files with this module's own `require` (as mocha's loadFiles does) rather than mocha's
    // ESM-first loader: `require('vscode')` inside the tests is resolved by the extension host's
    // CommonJS interceptor.
    for (const file of findTestFiles(__dirname)) {
      mocha.suite.emit('pre-require', globalThis, file, mocha);
      mocha.suite.emit('require', require(file), file, mocha);
      mocha.suite.emit('post-require', globalThis, file, mocha);
    }
  } catch (e) {
    results.fatal = `loading tests failed: ${errorText(e).stack ?? errorText(e).error}`;
    results.failed++;
    results.failures.push({ title: '(loading test files)', ...errorText(e) });
    results.finished = true;
    write();
    return Promise.reject(e);
  }
  write();

  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      results.finished = true;
      write();
      if (failures > 0) reject(new Error(`${failures} test(s) failed`));
      else resolve();
    });
    runner.on('pass', (test) => {
      results.passed++;
      results.tests.push({ title: test.fullTitle(), state: 'passed', durationMs: test.duration });
      write();
    });
    // Also fires for failing hooks ("before all" hook …), which count as failures.
    runner.on('fail', (test, err) => {
      results.failed++;
      results.tests.push({ title: test.fullTitle(), state: 'failed', durationMs: test.duration });
      results.failures.push({ title: test.fullTitle(), ...errorText(err) });
      write();
    });
    runner.on('pending', (test) => {
      results.pending++;
      results.tests.push({ title: test.fullTitle(), state: 'pending' });
      write();
    });
  });
}

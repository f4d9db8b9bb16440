// The UI suite: mocha (bdd) in the driver process over test/ui/**/*.test.mjs, driving the real workbench
// page of an integration run through Playwright (clicks, keyboard, screenshots), while that run's
// extension-host tests execute. runIntegration.mjs calls runUiSuite() for runs with a `ui` folder once
// the page has loaded, and holds the extension host open until it returns (MCP_HOST_TEST_HOLD_FILE,
// see test/integration/index.ts): the workbench stops the extension host as soon as its tests end.
//
// Tests reach the page through test/ui/workbench.mjs (`workbench.page`, helpers).
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

let loads = 0;

/**
 * @param {{ page: import('playwright-core').Page, dir: string, name: string, artifactsDir: string,
 *           serverUrl: string, grep?: string, timeoutMs?: number }} options
 * @returns {Promise<{ passed: number, failed: number, pending: number,
 *   tests: { title: string, state: string, durationMs?: number }[],
 *   failures: { title: string, error: string, stack?: string }[], error?: Error }>}
 */
export async function runUiSuite(options) {
  const out = { passed: 0, failed: 0, pending: 0, tests: [], failures: [] };
  try {
    const { default: Mocha } = await import('mocha');
    const { workbench } = await import(pathToFileURL(path.join(options.dir, 'workbench.mjs')).href);
    Object.assign(workbench, { page: options.page, artifactsDir: options.artifactsDir, runName: options.name, serverUrl: options.serverUrl });

    const files = (await fs.readdir(options.dir, { recursive: true }))
      .filter((f) => f.endsWith('.test.mjs'))
      .map((f) => path.join(options.dir, f))
      .sort();
    if (!files.length) throw new Error(`no *.test.mjs files in ${options.dir}`);

    // A reporter that prints nothing: the driver prints the results like the other suites.
    class Silent { constructor(runner) { this.runner = runner; } }
    const mocha = new Mocha({ ui: 'bdd', reporter: Silent, timeout: options.timeoutMs ?? 30_000 });
    if (options.grep) mocha.grep(options.grep);
    // Load the files ourselves (as mocha's loadFilesAsync does) with a query per load: ES modules are
    // cached per URL, so a second UI run in the same process would otherwise register no tests.
    loads++;
    for (const file of files) {
      mocha.suite.emit('pre-require', globalThis, file, mocha);
      mocha.suite.emit('require', await import(`${pathToFileURL(file).href}?load=${loads}`), file, mocha);
      mocha.suite.emit('post-require', globalThis, file, mocha);
    }

    await new Promise((resolve) => {
      const runner = mocha.run(() => resolve());
      runner.on('pass', (t) => { out.passed++; out.tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }); });
      runner.on('fail', (t, err) => {
        out.failed++;
        out.tests.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration });
        out.failures.push({ title: t.fullTitle(), error: `${err?.name ?? 'Error'}: ${err?.message ?? String(err)}`, stack: err?.stack });
      });
      runner.on('pending', (t) => { out.pending++; out.tests.push({ title: t.fullTitle(), state: 'pending' }); });
    });
    mocha.dispose();
  } catch (e) {
    out.error = e instanceof Error ? e : new Error(String(e));
  }
  return out;
}

// Runs the unit tests (out/test/unit/**/*.test.js) in plain Node with programmatic mocha, printing the
// spec reporter and writing counts to the JSON file given by --results (read by test/run-all.mjs).
// Options from test/unit/.mocharc.json that apply: timeout, slow, ui, retries, require.
//   node test/rig/runUnit.mjs [--results file.json] [--grep pattern] [--dir unit]
// --dir: another folder of test/ whose tests run the same way (test/hostkill: they start their own code-server).
// Build first (npm run build:tests). Exits when done, like mocha --exit: fixture servers that a
// failing test leaves behind must not keep the run alive.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2);
const arg = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const TEST_DIR = arg('--dir') ?? 'unit';
const UNIT_DIR = path.join(REPO_ROOT, 'out', 'test', TEST_DIR);
const resultsFile = arg('--results');

const rcFile = path.join(REPO_ROOT, 'test', 'unit', '.mocharc.json');
const rc = existsSync(rcFile) ? JSON.parse(readFileSync(rcFile, 'utf8')) : {};

const results = { finished: false, passed: 0, failed: 0, pending: 0, durationMs: 0, tests: [], failures: [] };
const started = Date.now();
const write = () => {
  results.durationMs = Date.now() - started;
  if (resultsFile) writeFileSync(resultsFile, JSON.stringify(results, null, 2));
};

function errorInfo(err) {
  return err instanceof Error ? { error: `${err.name}: ${err.message}`, stack: err.stack } : { error: String(err) };
}

// tsc never deletes outputs: a compiled test whose .ts source was deleted or renamed is skipped.
const SOURCE_DIR = path.join(REPO_ROOT, 'test', TEST_DIR);
const files = existsSync(UNIT_DIR)
  ? readdirSync(UNIT_DIR, { recursive: true })
    .filter((f) => f.endsWith('.test.js') && existsSync(path.join(SOURCE_DIR, f.replace(/\.js$/, '.ts'))))
    .map((f) => path.join(UNIT_DIR, f)).sort()
  : [];

const mocha = new Mocha({
  ui: rc.ui ?? 'bdd',
  reporter: 'spec',
  timeout: rc.timeout ?? 30_000,
  slow: rc.slow,
  retries: rc.retries,
  color: process.stdout.isTTY,
});
const grep = arg('--grep') ?? process.env.MCP_HOST_TEST_GREP;
if (grep) mocha.grep(grep);
files.forEach((f) => mocha.addFile(f));

try {
  const req = createRequire(path.join(REPO_ROOT, 'package.json'));
  for (const r of [rc.require ?? []].flat()) req(r);
  await mocha.loadFilesAsync();
} catch (e) {
  results.failed = 1;
  results.failures.push({ title: '(loading unit test files)', ...errorInfo(e) });
  results.finished = true;
  write();
  console.error(e);
  process.exit(1);
}

const runner = mocha.run((failures) => {
  results.finished = true;
  write();
  process.exit(failures > 0 ? 1 : 0);
});
runner.on('pass', (t) => { results.passed++; results.tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }); });
runner.on('fail', (t, err) => {
  results.failed++;
  results.tests.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration });
  results.failures.push({ title: t.fullTitle(), ...errorInfo(err) });
  write();
});
runner.on('pending', (t) => { results.pending++; results.tests.push({ title: t.fullTitle(), state: 'pending' }); });

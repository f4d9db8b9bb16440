// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in devDependencies)
// against our host core, with out/test/conformance/driver.js as the client command (build first:
// npm run build:tests). One run covers one set of client scenarios:
//   --requirements <revision>  exactly what the suite says that spec revision requires (2025-11-25,
//                              2026-07-28), each scenario run at that revision's wire
//   --extensions               the extension scenarios (reported apart: never scored by the suite) and the
//                              2025-03-26 back-compat ones (run at that revision's wire): every one the suite
//                              lists is either claimed (required-extensions.json "scenarios": it runs and must
//                              pass) or named with the reason it is not supported ("reasons"); one that is
//                              neither fails the run, so a scenario added to the suite cannot go unnoticed.
// The suite needs Node >= 22: it runs on the test rig's Node 24 (test/rig/install.mjs); the driver
// runs on the Node running this script.
//
// A scenario passes when the suite says so (no FAILURE, no WARNING, client exit accepted) and it
// recorded at least one SUCCESS check (a client that did nothing passes some scenarios vacuously).
// The run fails when no scenario ran, or when a scenario of the set's required list
// (test/conformance/required-<set>.json, the ones we claim; those the --grep selects) was not listed by
// the suite or reported nothing (coverage.mjs): a scenario silently disappearing is a failure.
//
// Usage: node test/conformance/run.mjs (--requirements <revision> | --extensions) [--results <file.json>] [--grep <re>] [--keep]
//   --results  writes {passed, failed, finished, scenarios, failures} for test/run-all.mjs
//   --keep     keeps the suite's per-scenario output (checks.json, stdout/stderr of the driver)
// Environment: MCP_HOST_TEST_GREP (like --grep), MCP_HOST_CONFORMANCE_JOBS (parallel scenarios, default 2),
// MCP_HOST_CONFORMANCE_CLI (the suite's dist/index.js, to try a version not yet in node_modules).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled, rigPaths } from '../rig/install.mjs';
import { coverageProblems } from './coverage.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = process.env.MCP_HOST_CONFORMANCE_CLI || path.join(REPO, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const DRIVER = path.join(REPO, 'out', 'test', 'conformance', 'driver.js');
/** The oldest revision: its scenarios (authorization back-compat) are in no requirement set, so --extensions runs them. */
const BACKCOMPAT_REVISION = '2025-03-26';
const SCENARIO_TIMEOUT_MS = 30_000;

const args = process.argv.slice(2);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const resultsFile = opt('--results');
const grep = opt('--grep') ?? process.env.MCP_HOST_TEST_GREP;
const keep = args.includes('--keep');
const requirements = opt('--requirements');
const extensions = args.includes('--extensions');
const set = extensions ? 'extensions' : requirements;
const jobs = Math.max(1, Number(process.env.MCP_HOST_CONFORMANCE_JOBS) || 2);

function run(cmd, argv, { timeoutMs = 120_000, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); resolve({ code: -1, stdout, stderr: `${stderr}\n${e.message}` }); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code: code ?? -1, signal, stdout, stderr }); });
  });
}

async function node24() {
  const p = rigPaths();
  if (existsSync(p.node)) return p.node;
  return (await ensureInstalled()).node;
}

/**
 * The client scenarios of this run, from the suite's own frozen list: `list --requirements <rev>` prints
 * the required client scenarios under "Client scenarios", then the extension scenarios (run, never
 * scored) as "- name [client]" under "extension (N):".
 */
async function listScenarios(node) {
  if (extensions) {
    // The full listing tags each scenario with its revisions or [extension]; the frozen per-revision listing
    // leaves out extension scenarios added after that revision's release (the Skills ones).
    const r = await run(node, [CLI, 'list', '--client']);
    if (r.code !== 0) throw new Error(`conformance list failed: ${r.stderr.trim()}`);
    const tagged = (tag) => [...r.stdout.matchAll(/^\s+- (\S+) \[([^\]]+)\]\s*$/gm)].filter((m) => m[2] === tag).map((m) => m[1]);
    return [...tagged('extension'), ...tagged(BACKCOMPAT_REVISION)];
  }
  const r = await run(node, [CLI, 'list', '--client', '--requirements', requirements]);
  if (r.code !== 0) throw new Error(`conformance list failed: ${r.stderr.trim()}`);
  const from = r.stdout.indexOf('Client scenarios');
  const to = r.stdout.indexOf('Run and reported', from);
  const section = from < 0 ? '' : r.stdout.slice(from, to < 0 ? undefined : to);
  return [...section.matchAll(/^\s+- (\S+)\s*$/gm)].map((m) => m[1]);
}

/** The back-compat scenarios run at their revision's wire; extension scenarios at none (see runScenario). */
const backCompat = (scenario) => scenario.startsWith('auth/2025-03-26-');

async function runScenario(node, scenario, outDir) {
  const start = Date.now();
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(DRIVER)}`;
  // Extension scenarios are not on a spec revision's timeline: given --spec-version, the suite skips them
  // ("not applicable at spec version …") and records no check.
  const revision = extensions ? (backCompat(scenario) ? ['--spec-version', BACKCOMPAT_REVISION] : []) : ['--spec-version', requirements];
  const r = await run(node, [CLI, 'client', '--command', command, '--scenario', scenario, ...revision, '--timeout', String(SCENARIO_TIMEOUT_MS), '--verbose', '-o', outDir], { timeoutMs: SCENARIO_TIMEOUT_MS + 30_000 });
  let checks = [];
  try { checks = JSON.parse(r.stdout.slice(r.stdout.indexOf('['))); } catch { /* no JSON: reported below */ }
  const count = (s) => checks.filter((c) => c.status === s).length;
  const success = count('SUCCESS'), failure = count('FAILURE'), warning = count('WARNING');
  const problems = [];
  if (r.code !== 0) problems.push(`the suite exited with ${r.signal ?? r.code}`);
  if (!checks.length) problems.push('no checks were recorded');
  else if (!success) problems.push('no check succeeded');
  for (const c of checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')) problems.push(`${c.status} ${c.id}: ${c.errorMessage ?? c.description}`);
  if (problems.length && /CLIENT (TIMED OUT|EXITED WITH ERROR)/.test(r.stderr)) {
    problems.push(r.stderr.split('\n').filter((l) => /^\[(driver|server)\] (error|warn)/.test(l)).slice(-5).join('\n      ') || 'client failed');
  }
  return { scenario, ok: problems.length === 0, success, failure, warning, ms: Date.now() - start, problems };
}

async function main() {
  if (!set) throw new Error('say which scenarios: --requirements <revision> (2025-11-25, 2026-07-28) or --extensions');
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm install (devDependency @modelcontextprotocol/conformance)`);
  if (!existsSync(DRIVER)) throw new Error(`${DRIVER} is missing: run npm run build:tests`);
  const node = await node24();
  const version = JSON.parse(await fs.readFile(path.join(path.dirname(CLI), '..', 'package.json'), 'utf8')).version;
  const listed = await listScenarios(node);
  const claims = JSON.parse(await fs.readFile(path.join(REPO, 'test', 'conformance', `required-${set}.json`), 'utf8'));
  const required = claims.scenarios;
  const reasons = claims.reasons ?? {};
  // Extension scenarios are never scored by the suite: we run the ones we claim, name the others with
  // their reason, and fail on any that is neither.
  let scenarios = extensions ? listed.filter((s) => required.includes(s)) : listed;
  const unsupported = extensions ? listed.filter((x) => !required.includes(x)) : [];
  const unexplained = unsupported.filter((x) => !Object.hasOwn(reasons, x));
  for (const s of unsupported) console.log(`  - ${s}: not supported: ${reasons[s] ?? 'NO REASON GIVEN'}`);
  for (const s of Object.keys(reasons).filter((x) => listed.includes(x) && required.includes(x))) console.log(`  note: ${s} is claimed and also has a reason in required-${set}.json: remove the reason`);
  if (grep) scenarios = scenarios.filter((s) => new RegExp(grep).test(`conformance ${s}`));
  console.log(`@modelcontextprotocol/conformance ${version}: ${scenarios.length} client scenarios (${extensions ? 'extensions' : `requirements ${requirements}`}), ${jobs} at a time`);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-conformance-'));
  const results = [];
  const queue = [...scenarios];
  await Promise.all(Array.from({ length: jobs }, async () => {
    for (let s = queue.shift(); s; s = queue.shift()) {
      const r = await runScenario(node, s, path.join(tmp, s.replace(/\W+/g, '_')));
      results.push(r);
      console.log(`  ${r.ok ? '✓' : '✗'} ${s} (${r.success} checks passed${r.failure ? `, ${r.failure} failed` : ''}${r.warning ? `, ${r.warning} warnings` : ''}; ${(r.ms / 1000).toFixed(1)} s)`);
      for (const p of r.problems) console.log(`      ${p}`);
    }
  }));
  if (keep) console.log(`  output kept in ${tmp}`); else await fs.rm(tmp, { recursive: true, force: true });
  const missing = coverageProblems({ required, listed, ran: results.map((r) => r.scenario), grep, claimsNone: extensions && required.length === 0 });
  // Only a run over the whole set judges the listing (a --grep run checks what it selects).
  if (!grep) for (const s of unexplained) missing.push({ title: `conformance ${s}`, error: `the suite lists this scenario but test/conformance/required-${set}.json neither claims it ("scenarios") nor says why not ("reasons")` });
  for (const m of missing) console.log(`  ✗ ${m.title}: ${m.error}`);
  // A failing scenario counts as skipped only when test/skipped-tests.json (the one list of skips, each
  // with its reason, which npm test prints) names it as "conformance <set> <scenario>"; else it fails.
  const allowed = JSON.parse(await fs.readFile(path.join(REPO, 'test', 'skipped-tests.json'), 'utf8'));
  const title = (r) => `conformance ${set} ${r.scenario}`;
  const skipped = results.filter((r) => !r.ok && Object.hasOwn(allowed, title(r)));
  for (const r of results.filter((x) => x.ok && Object.hasOwn(allowed, title(x)))) console.log(`  note: ${r.scenario} passes now: remove "${title(r)}" from test/skipped-tests.json`);
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed - skipped.length + missing.length;
  console.log(`conformance ${set}: ${results.length} scenarios, ${passed} passed, ${failed} failed, ${skipped.length} known failures listed in test/skipped-tests.json; ${results.reduce((n, r) => n + r.success, 0)} checks passed`);
  if (resultsFile) {
    await fs.writeFile(resultsFile, JSON.stringify({
      passed, failed, finished: true, scenarios: results.length, skipped: skipped.map(title), unsupported,
      failures: [...results.filter((r) => !r.ok && !skipped.includes(r)).map((r) => ({ title: `conformance ${r.scenario}`, error: r.problems.join('; ') })), ...missing],
    }));
  }
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code), async (e) => {
  console.error(`conformance: could not run: ${e.message}`);
  if (resultsFile) await fs.writeFile(resultsFile, JSON.stringify({ passed: 0, failed: 0, finished: false, error: e.message })).catch(() => {});
  process.exit(1);
});

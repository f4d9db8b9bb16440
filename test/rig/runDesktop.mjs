// Runs the same integration tests (out/test/integration/index.js, the runs of
// test/integration/runs.mjs) in desktop VS Code through @vscode/test-electron.
// NEEDS INTERNET: it downloads VS Code from update.code.visualstudio.com (cached in .vscode-test/).
// Not part of `npm test`; use `npm run test:desktop` on a machine with a network (on Linux without a
// display, run it under `xvfb-run -a`).
//
//   node test/rig/runDesktop.mjs [--run name] [--grep pattern] [--version 1.104.0|stable|insiders]
//
// Desktop VS Code accepts several --extensionDevelopmentPath flags, so the scripted-LM fixture is
// loaded as a second development extension here (the web run installs it as a .vsix instead).
// Limitation: @vscode/test-electron always passes --disable-workspace-trust, so runs with
// `workspaceTrust: true` are skipped; so are the runs whose tests hand steps to a Playwright suite
// (MCP_HOST_UI_BRIDGE: 'workbench', 'reload').
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { BASE_SETTINGS, integrationRuns, LM_FIXTURE_DIR, REPO_ROOT, report } from './runIntegration.mjs';

const argv = process.argv.slice(2);
const arg = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const { runTests } = await import('@vscode/test-electron');

if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  console.warn('[desktop] no DISPLAY: VS Code desktop needs one; run under `xvfb-run -a npm run test:desktop`');
}

async function runDesktop(run) {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-desktop-'));
  const userData = path.join(tmp, 'user-data');
  const resultsFile = path.join(tmp, 'results.json');
  let workspace;
  if (run.workspace !== null) {
    workspace = path.join(tmp, 'workspace');
    await fs.cp(path.resolve(REPO_ROOT, run.workspace ?? 'test/fixtures/workspace'), workspace, { recursive: true });
  }
  await fs.mkdir(path.join(userData, 'User'), { recursive: true });
  await fs.writeFile(path.join(userData, 'User', 'settings.json'), JSON.stringify({ ...BASE_SETTINGS, ...run.settings }, null, 2));

  let exitCode;
  let error;
  try {
    exitCode = await runTests({
      version: arg('--version') ?? process.env.MCP_HOST_TEST_VSCODE_VERSION ?? 'stable',
      extensionDevelopmentPath: [REPO_ROOT, LM_FIXTURE_DIR],
      extensionTestsPath: path.join(REPO_ROOT, 'out', 'test', 'integration', 'index.js'),
      extensionTestsEnv: {
        ...run.env,
        MCP_HOST_TEST_RESULTS: resultsFile,
        MCP_HOST_TEST_DIR: run.dir,
        MCP_HOST_TEST_EXCLUDE_DIRS: JSON.stringify(run.excludeDirs),
        ...((arg('--grep') ?? process.env.MCP_HOST_TEST_GREP) ? { MCP_HOST_TEST_GREP: arg('--grep') ?? process.env.MCP_HOST_TEST_GREP } : {}),
      },
      launchArgs: [
        ...(workspace ? [workspace] : []),
        '--user-data-dir', userData,
        '--extensions-dir', path.join(tmp, 'extensions'),
        '--disable-extensions', // other installed extensions; development extensions still load
      ],
    });
  } catch (e) {
    error = e;
  }
  let results;
  try { results = JSON.parse(await fs.readFile(resultsFile, 'utf8')); } catch { /* never written */ }
  await fs.rm(tmp, { recursive: true, force: true }).catch(() => {});
  return {
    passed: results?.passed ?? 0,
    failed: results?.failed ?? 0,
    tests: results?.tests ?? [],
    failures: results?.failures ?? [],
    error: error ?? (!results ? new Error(`VS Code exited (${exitCode}) without writing test results`)
      : exitCode !== 0 && !results.failed ? new Error(`VS Code exited with ${exitCode}`) : undefined),
  };
}

let passed = 0;
let failed = 0;
for (const run of (await integrationRuns()).filter((r) => !arg('--run') || r.name === arg('--run'))) {
  console.log(`\n--- desktop run: ${run.name} ---`);
  if (run.installVsix) {
    console.log('  skipped: installs the packaged .vsix into code-server (web rig only)');
    continue;
  }
  if (run.workspaceTrust) {
    console.log('  skipped: @vscode/test-electron always disables Workspace Trust');
    continue;
  }
  if (run.env?.MCP_HOST_UI_BRIDGE) {
    console.log('  skipped: its tests hand steps to a Playwright suite driving the page (web rig only)');
    continue;
  }
  const result = await runDesktop(run);
  report(result);
  passed += result.passed;
  failed += result.failed + (result.error ? 1 : 0);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

// Our `mcpHost_callTool` vs VS Code's built-in MCP host, both through `vscode.lm.invokeTool`, in the same
// window (issue 16: ratio ≤ 1.0 at the median), and MCP Host's native route (issue 31: VS Code's own MCP
// client served by MCP Host's gateway) against both. Printed and recorded, never asserted.
//
// MCP Host is installed from its production .vsix into the test rig's code-server; the fixture server
// test/fixtures/servers/crashing.ts (tool `echo`) is declared as `echo` in `mcpHost.servers` and as
// `builtinEcho` in VS Code's `mcp` user setting. VS Code's global auto-approve (setting + test-mode context key, set by
// the entry) lets the built-in tool run without a dialog; `mcpHost.tools.autoApprove: ["echo/echo"]`
// does the same for ours (our per-tool consent still runs: it finds the approval bound to the tool's
// definition). test/bench/builtinEntry.ts does the calls: a warm-up, then pairs in alternating order.
// Each run is a fresh code-server; the figure is the median over runs of each run's median.
//
//   node test/bench/builtin.mjs [runs]    (default 3, or MCP_HOST_BENCH_RUNS; calls per run MCP_HOST_BENCH_CALLS, default 100;
//                                          MCP_HOST_BENCH_RAW=<dir> keeps each run's samples there as JSON;
//                                          MCP_HOST_BENCH_SETTINGS='<json>' adds VS Code settings, e.g. {"http.proxySupport":"off"})
// Needs `npm run build && npm run build:tests` and the test rig.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageExtension } from '../rig/package.mjs';
import { runIntegration } from '../rig/runIntegration.mjs';
import { median as med, percentile as pct, record } from './record.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = Number(process.argv[2] ?? process.env.MCP_HOST_BENCH_RUNS ?? 3);
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-bench-builtin-'));

const ms = (x) => `${x.toFixed(2)} ms`;
const spread = (xs, f = (x) => x.toFixed(2)) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;

const server = { command: process.execPath, args: [path.join(REPO, 'out', 'test', 'fixtures', 'servers', 'crashing.js')] };
try {
  const vsix = await packageExtension({ out: path.join(tmp, 'mcp-host.vsix') });
  console.log(`\nvscode.lm.invokeTool: mcpHost_callTool vs VS Code's built-in MCP host, same server tool (${runs} fresh VS Code starts)`);
  const perRun = [];
  let failedRuns = 0;
  for (let i = 0; i < runs; i++) {
    const out = path.join(tmp, `run-${i}.json`);
    const r = await runIntegration({
      name: 'bench-builtin',
      installVsix: vsix.file,
      fixtureExtensions: [],
      extensionDevelopmentPath: path.join(REPO, 'test', 'fixtures', 'bench-entry-extension'),
      extensionTestsPath: path.join(REPO, 'out', 'test', 'bench', 'builtinEntry.js'),
      env: { MCP_HOST_BENCH_OUT: out, MCP_HOST_BENCH_NODE: process.execPath, ...(process.env.MCP_HOST_BENCH_CALLS ? { MCP_HOST_BENCH_CALLS: process.env.MCP_HOST_BENCH_CALLS } : {}) },
      settings: {
        'mcpHost.servers': { echo: server },
        'mcpHost.tools.autoApprove': ['echo/echo'],
        // Another serverInfo name than ours: VS Code names a server's tools after it (mcp_fixture-crash_echo), so
        // two copies of the same fixture gave one tool name for both routes.
        mcp: { servers: { builtinEcho: { type: 'stdio', ...server, env: { FIXTURE_SERVER_NAME: 'builtin-echo' } } } },
        'chat.tools.global.autoApprove': true,
        // More VS Code settings to measure under (e.g. {"http.proxySupport":"off"}): where the time goes, not a figure to record.
        ...(process.env.MCP_HOST_BENCH_SETTINGS ? JSON.parse(process.env.MCP_HOST_BENCH_SETTINGS) : {}),
      },
      log: () => {},
    });
    const s = JSON.parse(await fs.readFile(out, 'utf8').catch(() => '{}'));
    if (process.env.MCP_HOST_BENCH_RAW) await fs.copyFile(out, path.join(process.env.MCP_HOST_BENCH_RAW, `builtin-run-${i + 1}.json`)).catch(() => {});
    if (r.error || s.error || !s.ours?.length || !s.builtin?.length) {
      console.log(`  run ${i + 1}: failed: ${s.error ?? r.error?.message ?? 'no result'}`);
      failedRuns++;
      continue;
    }
    const f = s.failures;
    const seg = s.noopSegments;
    const one = {
      ours: med(s.ours), builtin: med(s.builtin), native: med(s.native), nativeP99: pct(s.native, 0.99), nativeToolsMs: s.nativeToolsMs, nativeFailed: f.native,
      api: med(s.api), noop: med(s.noop), raw: med(s.raw), roundTrip: med(s.roundTrip),
      oursP99: pct(s.ours, 0.99), builtinP99: pct(s.builtin, 0.99), n: s.ours.length, failed: f.ours + f.builtin,
      // What our side adds to VS Code's floor: per round of the loop, ours minus the no-op tool (the lists line up when nothing failed).
      overNoop: f.ours + f.noop ? undefined : med(s.ours.map((x, j) => x - s.noop[j])),
    };
    perRun.push(one);
    console.log(`  run ${i + 1} (${one.n} pairs; built-in tool ${s.builtinTool}): ours ${ms(one.ours)} (p99 ${ms(one.oursP99)}), built-in ${ms(one.builtin)} (p99 ${ms(one.builtinP99)}), ratio ${(one.ours / one.builtin).toFixed(3)}`);
    console.log(`    native route (${s.nativeTool}): ${ms(one.native)} (p99 ${ms(one.nativeP99)}), / built-in ${(one.native / one.builtin).toFixed(3)} (p99 ${(one.nativeP99 / one.builtinP99).toFixed(3)}), / mcpHost_callTool ${(one.native / one.ours).toFixed(3)}; its tools in vscode.lm.tools ${ms(one.nativeToolsMs)} after VS Code started it; failed ${f.native}`);
    console.log(`    context: no-op extension tool ${ms(one.noop)} (until prepareInvocation ${ms(med(seg.toPrepare))}, then until invoke ${ms(med(seg.toInvoke))}, back to the caller ${ms(med(seg.back))}); ` +
      `one extension host ↔ workbench round trip ${ms(one.roundTrip)}; our API ${ms(one.api)}; the server by hand over a pipe ${ms(one.raw)}; ` +
      `ours minus the no-op tool, per round ${one.overNoop === undefined ? 'n/a (failed calls)' : ms(one.overNoop)}`);
    console.log(`    failed calls: ours ${f.ours}, built-in ${f.builtin}, API ${f.api}, no-op ${f.noop}, round trip ${f.roundTrip}, by hand ${f.raw}${s.firstFailure ? ` (first: ${s.firstFailure})` : ''}`);
  }
  if (perRun.length) {
    const col = (k) => perRun.map((x) => x[k]);
    const ratios = perRun.map((x) => x.ours / x.builtin);
    const failed = perRun.reduce((n, x) => n + x.failed, 0);
    const note = (k) => `median of ${perRun.length} runs' medians; runs ${spread(col(k))} ms; machine load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
    await record({ name: 'lmTool.callTool.vsBuiltin', value: med(col('ours')), baseline: med(col('builtin')), unit: 'ms', target: '≤ 1.0', samples: perRun.reduce((n, x) => n + x.n, 0), failures: failed, note: `${note('ours')}; per-run ratios ${spread(ratios, (x) => x.toFixed(3))}` });
    await record({ name: 'lmTool.callTool.vsBuiltin.p99', value: med(col('oursP99')), baseline: med(col('builtinP99')), unit: 'ms', samples: perRun.length, failures: failed, note: 'median over runs of each run\'s p99' });
    const nfailed = perRun.reduce((n, x) => n + x.nativeFailed, 0);
    await record({ name: 'nativeRoute.callTool.vsBuiltin', value: med(col('native')), baseline: med(col('builtin')), unit: 'ms', target: '≤ 1.10', samples: perRun.reduce((n, x) => n + x.n, 0), failures: nfailed, note: `VS Code's MCP tool served by MCP Host's gateway / the same server run by VS Code's built-in host; ${note('native')}` });
    await record({ name: 'nativeRoute.callTool.vsBuiltin.p99', value: med(col('nativeP99')), baseline: med(col('builtinP99')), unit: 'ms', target: '≤ 1.2', samples: perRun.length, failures: nfailed, note: 'median over runs of each run\'s p99' });
    await record({ name: 'nativeRoute.callTool.vsWrapper', value: med(col('native')), baseline: med(col('ours')), unit: 'ms', target: '≤ 0.75', samples: perRun.length, failures: nfailed, note: 'the native route / our mcpHost_callTool wrapper, same window' });
    await record({ name: 'nativeRoute.toolsListed', value: med(col('nativeToolsMs')), unit: 'ms', samples: perRun.length, failures: 0, note: 'MCP Host\'s server running: from VS Code starting its native definition until its tool is in vscode.lm.tools' });
    await record({ name: 'lmTool.noopExtensionTool', value: med(col('noop')), baseline: med(col('builtin')), unit: 'ms', samples: perRun.length, failures: 0, note: 'an extension tool that answers at once: VS Code\'s own floor for any extension tool' });
    const overNoop = col('overNoop').filter((x) => x !== undefined);
    if (overNoop.length) await record({ name: 'lmTool.callTool.overNoopTool', value: med(overNoop), unit: 'ms', samples: overNoop.length, failures: perRun.length - overNoop.length, note: `what MCP Host adds to VS Code's floor (median per round of ours − the no-op tool); runs ${spread(overNoop)} ms` });
    await record({ name: 'api.callTool.extensionHost', value: med(col('api')), baseline: med(col('raw')), unit: 'ms', samples: perRun.length, failures: 0, note: 'our exported API in the same window, no language-model tool layer; baseline: the server spoken to by hand over a pipe from the same extension host' });
    await record({ name: 'extensionHost.roundTrip', value: med(col('roundTrip')), unit: 'ms', samples: perRun.length, failures: 0, note: 'one extension host → workbench → extension host command (setContext); an extension tool costs VS Code three, its built-in MCP tool two' });
    console.log(`  median of run medians: ours ${ms(med(col('ours')))}, built-in ${ms(med(col('builtin')))}, ratio ${(med(col('ours')) / med(col('builtin'))).toFixed(3)} (target ≤ 1.0; per-run ratios ${spread(ratios, (x) => x.toFixed(3))}); ` +
      `no-op extension tool ${ms(med(col('noop')))}, our API ${ms(med(col('api')))}${failedRuns ? `; ${failedRuns} run(s) failed` : ''}`);
  }
  if (!perRun.length) process.exitCode = 1;
} finally {
  await fs.rm(tmp, { recursive: true, force: true });
}

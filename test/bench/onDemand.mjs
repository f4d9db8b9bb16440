// Servers that cost nothing until used (issue 33), in a real VS Code: printed and recorded, never asserted.
//
// MCP Host is installed from its production .vsix; ten server-everything servers are declared in
// `mcpHost.servers` (s0…s9, autostart onDemand) and the same ten in VS Code's own `mcp` setting (b0…b9), each
// with `--mcp-host-bench=<name>` in its arguments so /proc tells them apart. test/bench/onDemandEntry.ts
// runs the phases in one code-server session, reloading the window between them:
//   - a window left idle for 20 s with a filled cache: server processes and their RSS (summed from /proc),
//     `autostart: onDemand` vs `always` (ratio), VS Code's host measured in the same window;
//   - the first tool call of a cold server, start included: `mcpHost_callTool` vs the built-in host's tool
//     for the same server, both through vscode.lm.invokeTool (target ≤ 1.0; one call per server, 10 pairs);
//   - one @mcp chat turn over 20 cached servers in which the scripted model calls tools of 2: processes started.
//
//   node test/bench/onDemand.mjs [runs]    (default 1, or MCP_HOST_BENCH_RUNS; each run is a fresh code-server)
// Needs `npm run build && npm run build:tests` and the test rig.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageExtension } from '../rig/package.mjs';
import { LM_FIXTURE_DIR, runIntegration } from '../rig/runIntegration.mjs';
import { median as med, record } from './record.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = Number(process.argv[2] ?? process.env.MCP_HOST_BENCH_RUNS ?? 1);
const N = Number(process.env.MCP_HOST_BENCH_SERVERS ?? 10);
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-bench-ondemand-'));

const everything = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const server = (name) => ({ command: process.execPath, args: [everything, 'stdio', `--mcp-host-bench=${name}`] });
const names = (prefix) => Array.from({ length: N }, (_, i) => `${prefix}${i}`);
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const sum = (ps) => ps.reduce((n, p) => n + p.rssBytes, 0);
const ms = (x) => `${x.toFixed(0)} ms`;

try {
  const vsix = await packageExtension({ out: path.join(tmp, 'mcp-host.vsix') });
  console.log(`\nautostart onDemand vs always, and cold first calls vs VS Code's built-in host (${runs} fresh VS Code start(s), ${N} servers)`);
  const results = [];
  for (let r = 0; r < runs; r++) {
    const out = path.join(tmp, `run-${r}.json`);
    const state = path.join(tmp, `state-${r}.json`);
    const res = await runIntegration({
      name: 'bench-on-demand',
      installVsix: vsix.file,
      fixtureExtensions: [LM_FIXTURE_DIR],
      extensionTestsPath: path.join(REPO, 'out', 'test', 'bench', 'onDemandEntry.js'),
      env: { MCP_HOST_BENCH_OUT: out, MCP_HOST_BENCH_STATE: state, MCP_HOST_BENCH_NODE: process.execPath, MCP_HOST_BENCH_SERVERS: String(N) },
      settings: {
        'mcpHost.autostart': 'onDemand',
        'mcpHost.servers': Object.fromEntries(names('s').map((n) => [n, server(n)])),
        'mcpHost.tools.autoApprove': names('s').map((n) => `${n}/echo`),
        mcp: { servers: Object.fromEntries(names('b').map((n) => [n, { type: 'stdio', ...server(n) }])) },
        'chat.tools.global.autoApprove': true,
      },
      timeoutMs: 900_000,
      log: () => {},
    });
    const s = JSON.parse(await fs.readFile(out, 'utf8').catch(() => '{}'));
    if (process.env.MCP_HOST_BENCH_RAW) await fs.copyFile(out, path.join(process.env.MCP_HOST_BENCH_RAW, `onDemand-run-${r + 1}.json`)).catch(() => {});
    if (res.error || s.error) console.log(`  run ${r + 1}: failed: ${s.error ?? res.error?.message ?? 'no result'}`);
    if (s.onDemand) {
      const { onDemand: od, always: al, cold, chat } = s;
      console.log(`  run ${r + 1}: idle 20 s, onDemand: ${od.ours.length} of ours running (${mib(sum(od.ours))}), built-in ${od.builtin.length} (${mib(sum(od.builtin))}), left over from the earlier window ${od.leftOver.length}`);
      if (al) console.log(`    idle 20 s, always: ${al.ours.length} of ours running (${mib(sum(al.ours))}), built-in ${al.builtin.length}, left over ${al.leftOver.length}`);
      if (cold) console.log(`    cold first call: ours ${cold.ours.map(ms).join(', ')}; built-in ${cold.builtin.map(ms).join(', ')}; failed ${cold.failures}${cold.firstFailure ? ` (first: ${cold.firstFailure})` : ''}`);
      if (chat) console.log(`    chat turn over 20 cached servers, 2 called: started ${chat.started.length} (${chat.started.join(', ')}); echo tools offered from ${chat.offeredServers} servers; results ${chat.resultsOk ? 'ok' : `MISSING: ${chat.results}`}`);
      results.push(s);
    }
  }
  const load = `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;
  const full = results.filter((s) => s.onDemand && s.always);
  if (full.length) {
    const procs = (k) => med(full.map((s) => s[k].ours.length));
    const rss = (k) => med(full.map((s) => sum(s[k].ours)));
    await record({ name: 'onDemand.idle.processes', value: procs('onDemand'), baseline: procs('always'), unit: 'processes', target: 'report', samples: full.length, failures: results.length - full.length, note: `10 declared servers, window idle 20 s, onDemand / always (median of runs); VS Code's built-in host: ${med(full.map((s) => s.onDemand.builtin.length))}; ${load}` });
    await record({ name: 'onDemand.idle.rss', value: rss('onDemand'), baseline: rss('always'), unit: 'bytes', target: 'report', samples: full.length, failures: results.length - full.length, note: `RSS of the server processes (and their children) summed from /proc, onDemand / always; built-in host ${mib(med(full.map((s) => sum(s.onDemand.builtin))))}` });
  }
  const cold = results.filter((s) => s.cold?.ours.length && s.cold?.builtin.length).map((s) => s.cold);
  if (cold.length) {
    const ours = cold.flatMap((c) => c.ours);
    const builtin = cold.flatMap((c) => c.builtin);
    const failures = cold.reduce((n, c) => n + c.failures, 0);
    await record({ name: 'onDemand.coldCall.vsBuiltin', value: med(ours), baseline: med(builtin), unit: 'ms', target: '≤ 1.0', samples: ours.length + builtin.length, failures, note: `first call of a cached, stopped server (start included) through vscode.lm.invokeTool, one per server, alternating; ours ${Math.round(Math.min(...ours))}–${Math.round(Math.max(...ours))} ms, built-in ${Math.round(Math.min(...builtin))}–${Math.round(Math.max(...builtin))} ms; ${load}` });
    console.log(`  cold first call: median ours ${ms(med(ours))}, built-in ${ms(med(builtin))}, ratio ${(med(ours) / med(builtin)).toFixed(2)} (target ≤ 1.0)`);
  }
  const chats = results.filter((s) => s.chat).map((s) => s.chat);
  if (chats.length) {
    await record({ name: 'onDemand.chat.processesStarted', value: med(chats.map((c) => c.started.length)), unit: 'processes', target: '= 2', samples: chats.length, failures: chats.filter((c) => !c.resultsOk).length, note: `one @mcp turn over 20 cached servers calling tools of 2; tools offered from ${med(chats.map((c) => c.offeredServers))} servers` });
  }
  if (results.length < runs || results.some((s) => s.error)) process.exitCode = 1;
} finally {
  await fs.rm(tmp, { recursive: true, force: true });
}

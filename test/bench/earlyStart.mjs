// Servers started while MCP Host loads (issue 16: nothing that waits on the SDK's schema compilation
// before the first server is spawned). Printed and recorded, never asserted.
//
// Two packages of the same build: the .vsix as shipped, and a baseline without dist/early.js (MCP Host
// then starts every server from the host bundle, after evaluating the SDK: the behaviour before the
// early bundle). Each sample is a fresh code-server with server-everything declared in user settings,
// the two packages alternating; test/bench/earlyStartEntry.ts activates MCP Host itself and measures,
// from just before that call, when the server's process began (a wrapper writes the process's own
// `performance.timeOrigin`) and when MCP Host reported it running.
//
//   node test/bench/earlyStart.mjs [samples per package]    (default 6, or MCP_HOST_BENCH_SAMPLES)
// Needs `npm run build && npm run build:tests` and the test rig.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageExtension } from '../rig/package.mjs';
import { runIntegration } from '../rig/runIntegration.mjs';
import { median as med, record } from './record.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = Number(process.argv[2] ?? process.env.MCP_HOST_BENCH_SAMPLES ?? 6);
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-bench-early-'));

const spread = (xs) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)} ms`;

try {
  const everything = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
  const wrapper = path.join(tmp, 'server.mjs');
  // First statement of the server process: its start time, then server-everything as usual (argv[2] = 'stdio').
  await fs.writeFile(wrapper, `import { writeFileSync } from 'node:fs';\nwriteFileSync(process.env.MCP_HOST_BENCH_SPAWN_OUT, String(performance.timeOrigin) + '\\n');\nawait import(${JSON.stringify(pathToFileURL(everything).href)});\n`);
  const packages = {
    early: (await packageExtension({ out: path.join(tmp, 'early', 'mcp-host.vsix') })).file,
    baseline: (await packageExtension({ out: path.join(tmp, 'baseline', 'mcp-host.vsix'), omit: ['dist/early.js'] })).file,
  };
  console.log(`\nfirst server after activate(): spawned, running; the .vsix vs the same without the early bundle (${samples} fresh VS Code starts each, alternating)`);
  const results = { early: { spawn: [], running: [] }, baseline: { spawn: [], running: [] } };
  let failures = 0;
  for (let i = 0; i < samples * 2; i++) {
    const kind = (i % 2 === 0) === (Math.floor(i / 2) % 2 === 0) ? 'early' : 'baseline'; // ABBA order
    const out = path.join(tmp, `sample-${i}.json`);
    const spawnOut = path.join(tmp, `spawn-${i}.txt`);
    const r = await runIntegration({
      name: 'bench-early-start',
      installVsix: packages[kind],
      fixtureExtensions: [],
      extensionTestsPath: path.join(REPO, 'out', 'test', 'bench', 'earlyStartEntry.js'),
      env: { MCP_HOST_BENCH_OUT: out, MCP_HOST_BENCH_SPAWN_OUT: spawnOut },
      settings: { 'mcpHost.servers': { everything: { command: process.execPath, args: [wrapper, 'stdio'], env: { MCP_HOST_BENCH_SPAWN_OUT: spawnOut } } } },
      log: () => {},
    });
    const s = JSON.parse(await fs.readFile(out, 'utf8').catch(() => '{}'));
    if (r.error || s.error || typeof s.spawnMs !== 'number') {
      console.log(`  ${kind} sample: failed: ${s.error ?? r.error?.message ?? 'no result'}`);
      failures++;
      continue;
    }
    results[kind].spawn.push(s.spawnMs);
    results[kind].running.push(s.runningMs);
    console.log(`  ${kind.padEnd(8)} spawned ${s.spawnMs.toFixed(1)} ms, running ${s.runningMs.toFixed(1)} ms after activate() was called (activation resolved at ${s.activateMs.toFixed(1)} ms)`);
  }
  const { early, baseline } = results;
  if (early.spawn.length && baseline.spawn.length) {
    for (const [what, key, target] of [['process spawned', 'spawn', 'before the SDK loads'], ['server running', 'running', 'report']]) {
      const value = med(early[key]);
      const base = med(baseline[key]);
      console.log(`  ${what}: median ${value.toFixed(1)} ms with the early bundle, ${base.toFixed(1)} ms without (ratio ${(value / base).toFixed(2)}; spread ${spread(early[key])} vs ${spread(baseline[key])})`);
      await record({ name: `earlyStart.${key}`, value, baseline: base, unit: 'ms', target, samples: early[key].length + baseline[key].length, failures, note: `after activate(); early ${spread(early[key])}, without ${spread(baseline[key])}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores` });
    }
  }
  if (failures) process.exitCode = 1;
} finally {
  await fs.rm(tmp, { recursive: true, force: true });
}

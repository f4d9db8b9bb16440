// Benchmarks of the packaged extension (printed, never asserted; `npm run bench` runs it after run.ts):
//  1. .vsix size of the production package (target ≤ 400 KB);
//  2. activate() duration in a real extension host, bundle evaluation included (target ≤ 50 ms):
//     MCP Host is installed from that .vsix into code-server (test rig), activates by itself
//     (onStartupFinished) with server-everything declared, and reports `activationMs` through its API
//     (evaluating the bundle plus the activate() call, without VS Code's wait for the extension's
//     context between the two; servers start afterwards, in the background). Each sample is a fresh
//     code-server + extension host.
//  3. Evaluating each production bundle alone (`require()` with a stubbed `vscode`) in fresh Node 24
//     processes, wall and CPU time: extension.js is what activate() waits for, early.js (spawns servers)
//     and host.js (the core and the MCP SDK) are required after activation, in that order; CPU time
//     stays meaningful on a busy machine.
//
//   node test/bench/extension.mjs [samples]    (default 10, or MCP_HOST_BENCH_SAMPLES)
// Needs `npm run build && npm run build:tests` (for out/test/bench/activationEntry.js) and the test rig.
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { packageExtension } from '../rig/package.mjs';
import { ensureInstalled } from '../rig/install.mjs';
import { runIntegration } from '../rig/runIntegration.mjs';
import { median as med, record } from './record.mjs';

// Loads the bundle with a `vscode` stand-in that answers every property (the bundle only touches
// vscode inside activate() and class bodies, apart from __toESM copying its prototype).
const PROBE = `
const Module = require('node:module');
let stub;
const proto = new Proxy({}, { get: (t, k) => (k === 'then' || typeof k === 'symbol') ? undefined : stub });
stub = new Proxy(function () {}, {
  get: (t, k) => (k === 'then' || typeof k === 'symbol') ? undefined : k === 'prototype' ? {} : stub,
  apply: () => stub, construct: () => ({}), getPrototypeOf: () => proto,
});
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? stub : load.call(this, request, ...rest); };
const c0 = process.cpuUsage();
const t0 = performance.now();
require(process.argv[2]);
const wallMs = performance.now() - t0;
const c = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ wallMs, cpuMs: (c.user + c.system) / 1000 }));
`;

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const samples = Number(process.argv[2] ?? process.env.MCP_HOST_BENCH_SAMPLES ?? 10);
const modules = path.join(REPO, 'node_modules', '@modelcontextprotocol');
const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-bench-'));

try {
  console.log('\n.vsix (production)');
  const vsix = await packageExtension({ out: path.join(tmp, 'mcp-host.vsix') });
  const devBundle = (await fs.stat(path.join(REPO, 'dist', 'extension.js')).catch(() => undefined))?.size;
  await record({ name: 'vsix.size', value: vsix.bytes / 1024, unit: 'KiB', target: '≤ 400 KB', samples: 1, failures: 0 });
  console.log(`  size ${(vsix.bytes / 1024).toFixed(1)} KiB (${vsix.bytes} bytes; target ≤ 400 KB), ${vsix.files.length} files`);
  if (devBundle) console.log(`  (development bundle dist/extension.js: ${(devBundle / 1024).toFixed(1)} KiB, not shipped)`);

  console.log(`\nactivate() in the extension host, MCP Host installed from the .vsix (${samples} fresh VS Code starts)`);
  const activation = [];
  let failures = 0;
  const firstRunning = [];
  for (let i = 0; i < samples; i++) {
    const out = path.join(tmp, `sample-${i}.json`);
    const r = await runIntegration({
      name: 'bench-activation',
      installVsix: vsix.file,
      fixtureExtensions: [],
      extensionTestsPath: path.join(REPO, 'out', 'test', 'bench', 'activationEntry.js'),
      env: { MCP_HOST_BENCH_OUT: out },
      settings: { 'mcpHost.servers': { everything: { command: process.execPath, args: [path.join(modules, 'server-everything', 'dist', 'index.js')] } } },
      log: () => {},
    });
    const sample = JSON.parse(await fs.readFile(out, 'utf8').catch(() => '{}'));
    if (r.error || sample.error || typeof sample.activationMs !== 'number') {
      console.log(`  sample ${i + 1}: failed: ${sample.error ?? r.error?.message ?? 'no result'}`);
      failures++;
      continue;
    }
    activation.push(sample.activationMs);
    if (sample.firstServerRunningMs !== undefined) firstRunning.push(sample.firstServerRunningMs);
    console.log(`  sample ${i + 1}: activationMs ${sample.activationMs.toFixed(1)} ms${sample.firstServerRunningMs !== undefined ? `; first server running ${sample.firstServerRunningMs} ms after activation was observed` : ''}`);
  }
  if (activation.length) {
    const sorted = [...activation].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`  activationMs median ${median.toFixed(1)} ms, min ${sorted[0].toFixed(1)}, max ${sorted.at(-1).toFixed(1)} (target ≤ 50 ms; machine load: ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);
    await record({ name: 'activate.extensionHost', value: median, unit: 'ms', target: '≤ 50 ms', samples: activation.length, failures, note: `${sorted[0].toFixed(1)}–${sorted.at(-1).toFixed(1)} ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores` });
    if (firstRunning.length) console.log(`  first server running: median ${[...firstRunning].sort((a, b) => a - b)[Math.floor(firstRunning.length / 2)]} ms after activation was observed (in the background)`);
  }

  console.log('\nevaluating the production bundles (require() in a fresh Node 24, `vscode` stubbed; 5 processes each)');
  const bundle = path.join(tmp, 'bundle', 'extension.js');
  await promisify(execFile)(process.execPath, ['esbuild.mjs', '--production', `--outfile=${bundle}`], { cwd: REPO });
  const probe = path.join(tmp, 'probe.cjs');
  await fs.writeFile(probe, PROBE);
  const { node } = await ensureInstalled({ log: () => {} });
  for (const [file, role] of [['extension.js', 'activation entry, activate() waits for it'], ['early.js', 'spawns the servers that need no question, required after activation'], ['host.js', 'core + MCP SDK, required after early.js']]) {
    const walls = [];
    const cpus = [];
    for (let i = 0; i < 5; i++) {
      const { stdout } = await promisify(execFile)(node, [probe, path.join(path.dirname(bundle), file)]);
      const r = JSON.parse(stdout);
      walls.push(r.wallMs);
      cpus.push(r.cpuMs);
    }
    const kib = (await fs.stat(path.join(path.dirname(bundle), file))).size / 1024;
    await record({ name: `bundle.evaluate.${file}.cpu`, value: med(cpus), unit: 'ms', samples: 5, failures: 0, note: `${kib.toFixed(0)} KiB; wall median ${med(walls).toFixed(1)} ms` });
    console.log(`  ${file} (${kib.toFixed(0)} KiB; ${role}): median wall ${med(walls).toFixed(1)} ms, median CPU ${med(cpus).toFixed(1)} ms (all wall: ${walls.map((x) => x.toFixed(0)).join(', ')})`);
  }
} finally {
  await fs.rm(tmp, { recursive: true, force: true });
}


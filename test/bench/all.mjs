// `npm run bench`: every benchmark, one after the other, then the table of issue 16 with the figures
// they recorded (test/bench/figures.ts). `--json FILE` also writes every figure (name, value, unit,
// baseline, ratio, target, samples, failures) so a figure can be compared across commits.
//
//   npm run bench [-- --json bench.json] [-- --only run,resources]
// Needs `npm run build:tests` (npm run bench does it) and, for the extension benchmark, the test rig.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const only = option('--only')?.split(',');

/** name → command; each prints its own details and records its figures. */
const BENCHES = [
  ['run', ['out/test/bench/run.js']],
  ['resources', ['out/test/bench/resources.js']],
  ['toolSearch', ['out/test/bench/toolSearch.js']],
  ['chatPrep', ['out/test/bench/chatPrep.js']],
  ['sandbox', ['out/test/bench/sandbox.js']],
  ['plantFlood', ['out/test/bench/plantFlood.js']],
  ['flood', ['out/test/bench/flood.js']],
  ['gateway', ['out/test/bench/gateway.js']],
  ['extension', ['test/bench/extension.mjs']],
  ['earlyStart', ['test/bench/earlyStart.mjs']],
  ['builtin', ['test/bench/builtin.mjs']],
  ['onDemand', ['test/bench/onDemand.mjs']],
  ['serve', ['test/bench/serve.mjs']],
];

const figuresFile = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-figures-')), 'figures.jsonl');
const failed = [];
for (const [name, args] of BENCHES) {
  if (only && !only.includes(name)) continue;
  console.log(`\n=== ${name} ===`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: 'inherit', env: { ...process.env, MCP_HOST_BENCH_FIGURES: figuresFile } });
    child.on('exit', (c) => resolve(c ?? 1));
  });
  if (code !== 0) failed.push(name);
}

const figures = (await fs.readFile(figuresFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).map((l) => JSON.parse(l));
const num = (x, unit) => (x === undefined ? '' : unit === 'ms' ? `${x < 10 ? x.toFixed(3) : x.toFixed(1)} ms` : unit === 'bytes' ? `${(x / 1024 / 1024).toFixed(2)} MB` : `${Number.isInteger(x) ? x : x.toFixed(2)} ${unit}`);
const rows = figures.map((f) => [f.name, num(f.value, f.unit), num(f.baseline, f.unit), f.ratio === undefined ? '' : f.ratio.toFixed(3), f.target ?? '', `${f.samples}`, `${f.failures}`, f.note ?? '']);
const head = ['figure', 'value', 'baseline', 'ratio', 'target', 'samples', 'failed', 'note'];
console.log(`\n| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
const machine = { cpus: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}`, memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`, node: process.version, platform: `${os.platform()} ${os.release()}`, loadavg: os.loadavg().map((x) => x.toFixed(1)).join(' ') };
console.log(`\nmachine: ${machine.cpus}, ${machine.memory}, Node ${machine.node}, ${machine.platform}; load average ${machine.loadavg}`);
const json = option('--json');
if (json) {
  await fs.writeFile(path.resolve(json), JSON.stringify({ date: new Date().toISOString(), machine, failedBenchmarks: failed, figures }, null, 2) + '\n');
  console.log(`figures written to ${json}`);
}
await fs.rm(path.dirname(figuresFile), { recursive: true, force: true });
if (failed.length) {
  console.error(`benchmarks that failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}

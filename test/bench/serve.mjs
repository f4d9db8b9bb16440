// `mcp-host call` repeated against a running `mcp-host serve` (issue 31) vs a cold `mcp-host call` that
// starts the server itself, whole commands timed pair by pair (interleaved, ABBA) on server-everything's
// `echo`. Printed and recorded, never asserted. (The issue's other baseline, the Inspector's `mcpdo`
// daemon, is not installed here; the cold call is the figure the issue quotes for today: 1.05 s.)
//
//   node test/bench/serve.mjs [pairs]    (default 12, or MCP_HOST_BENCH_SAMPLES)
// Needs `npm run build:tests` (the CLI runs from out/src/cli/main.js).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, percentile, record } from './record.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = path.join(REPO, 'out', 'src', 'cli', 'main.js');
const EVERYTHING = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const pairs = Number(process.argv[2] ?? process.env.MCP_HOST_BENCH_SAMPLES ?? 12);

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-bench-serve-'));
const config = path.join(tmp, 'mcp.json');
await fs.writeFile(config, JSON.stringify({ servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }));
const warmRuntime = path.join(tmp, 'warm');
const coldRuntime = path.join(tmp, 'cold');
await fs.mkdir(warmRuntime, { mode: 0o700 });
await fs.mkdir(coldRuntime, { mode: 0o700 });
const base = { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'config') };
const args = ['-c', config, '-w', tmp];

function run(runtime) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args, 'call', 'everything', 'echo', '{"message":"bench"}'], { env: { ...base, XDG_RUNTIME_DIR: runtime }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 && out.includes('bench') ? resolve(performance.now() - started) : reject(new Error(`call exited ${code}: ${out}`))));
  });
}

const serve = spawn(process.execPath, [CLI, ...args, 'serve'], { env: { ...base, XDG_RUNTIME_DIR: warmRuntime }, stdio: ['ignore', 'pipe', 'pipe'] });
try {
  let banner = '';
  await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve did not start: ${banner}`)), 60_000);
    const on = (d) => { banner += d; if (banner.includes('Ctrl-C stops')) { clearTimeout(t); resolve(); } };
    serve.stdout.on('data', on);
    serve.stderr.on('data', on);
  });
  await run(warmRuntime); // the first call through the gateway pays for nothing the others do not, but warms the OS caches of both
  await run(coldRuntime);
  const warm = [], cold = [], ratios = [];
  let failures = 0;
  for (let i = 0; i < pairs; i++) {
    try {
      const first = i % 4 === 0 || i % 4 === 3 ? 'warm' : 'cold'; // ABBA
      const a = await run(first === 'warm' ? warmRuntime : coldRuntime);
      const b = await run(first === 'warm' ? coldRuntime : warmRuntime);
      const [w, c] = first === 'warm' ? [a, b] : [b, a];
      warm.push(w); cold.push(c); ratios.push(w / c);
    } catch (e) { failures++; console.log(`  pair ${i}: failed: ${e.message}`); }
  }
  const ms = (x) => `${x.toFixed(0)} ms`;
  console.log(`\nmcp-host call, whole command: through a running serve ${ms(median(warm))} (p90 ${ms(percentile(warm, 0.9))}), cold ${ms(median(cold))} (p90 ${ms(percentile(cold, 0.9))}); ` +
    `median pair ratio ${median(ratios).toFixed(3)} (target ≤ 0.5 against mcpdo's daemon; ${warm.length} pairs${failures ? `, ${failures} failed` : ''})`);
  await record({ name: 'cli.call.throughServe', value: median(warm), baseline: median(cold), unit: 'ms', target: '≤ 0.5', samples: warm.length, failures, note: `baseline: a cold mcp-host call (starts the server); median pair ratio ${median(ratios).toFixed(3)}` });
} finally {
  serve.kill('SIGTERM');
  await new Promise((resolve) => serve.once('exit', resolve));
  await fs.rm(tmp, { recursive: true, force: true });
}

/**
 * Benchmarks that print ratios against a baseline measured in the same process (never asserted:
 * machines here are noisy). `npm run bench`.
 *  1. callTool round trip: McpHost vs the raw SDK Client on the same stdio fixture server,
 *     2,000 sequential calls and 1,000 concurrent, interleaved in rounds to share the noise.
 *  2. Startup: 20 servers started together vs one.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpHost } from '../../src/core';

const server = path.resolve(__dirname, '../fixtures/servers/crashing.js');
const ports = { variables: { workspaceFolders: [], trusted: true, userHome: process.env.HOME ?? '/', env: process.env } };

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

async function main(): Promise<void> {
  const raw = new Client({ name: 'bench-raw', version: '1' });
  await raw.connect(new StdioClientTransport({ command: process.execPath, args: [server] }));
  const host = new McpHost({ ports });
  await host.apply({ bench: { command: process.execPath, args: [server] } });
  const conn = host.require('bench');

  const rawCall = () => raw.request({ method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, CallToolResultSchema);
  const hostCall = () => conn.callTool('echo', { text: 'x' });

  // Warm up both paths (JIT, SDK schemas).
  for (let i = 0; i < 200; i++) { await rawCall(); await hostCall(); }

  const seq = { raw: [] as number[], host: [] as number[] };
  const ROUNDS = 10, PER_ROUND = 200;
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of (r % 2 ? [['host', hostCall], ['raw', rawCall]] : [['raw', rawCall], ['host', hostCall]]) as [keyof typeof seq, () => Promise<unknown>][]) {
      for (let i = 0; i < PER_ROUND; i++) {
        const t = performance.now();
        await fn();
        seq[name].push(performance.now() - t);
      }
    }
  }
  report('sequential callTool (2,000 each)', seq.raw, seq.host);

  const conc = { raw: [] as number[], host: [] as number[] };
  const totals = { raw: [] as number[], host: [] as number[] };
  for (let r = 0; r < 4; r++) {
    for (const [name, fn] of (r % 2 ? [['host', hostCall], ['raw', rawCall]] : [['raw', rawCall], ['host', hostCall]]) as [keyof typeof conc, () => Promise<unknown>][]) {
      const t0 = performance.now();
      await Promise.all(Array.from({ length: 250 }, async () => { const t = performance.now(); await fn(); conc[name].push(performance.now() - t); }));
      totals[name].push(performance.now() - t0);
    }
  }
  report('concurrent callTool (1,000 each, 4 bursts of 250)', conc.raw, conc.host);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(`  throughput: raw ${(1000 / sum(totals.raw) * 1000).toFixed(0)}/s, host ${(1000 / sum(totals.host) * 1000).toFixed(0)}/s`);

  await raw.close();
  await host.shutdown();

  // Startup: one server vs twenty started together by one apply().
  const startup = async (n: number) => {
    const h = new McpHost({ ports });
    const decls = Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, { command: process.execPath, args: [server] }]));
    const t = performance.now();
    await h.apply(decls);
    const ms = performance.now() - t;
    if (h.servers.some(s => s.state !== 'running')) throw new Error('a server did not start');
    await h.shutdown();
    return ms;
  };
  // Baseline: the raw SDK starting the same servers concurrently (connect + tools/list, which the host also does).
  const rawStartup = async (n: number) => {
    const t = performance.now();
    const clients = await Promise.all(Array.from({ length: n }, async () => {
      const c = new Client({ name: 'bench-raw', version: '1' });
      await c.connect(new StdioClientTransport({ command: process.execPath, args: [server] }));
      await c.listTools();
      return c;
    }));
    const ms = performance.now() - t;
    await Promise.all(clients.map(c => c.close()));
    return ms;
  };
  await startup(1);
  const one: number[] = [], twenty: number[] = [], rawTwenty: number[] = [];
  for (let i = 0; i < 3; i++) { one.push(await startup(1)); twenty.push(await startup(20)); rawTwenty.push(await rawStartup(20)); }
  const m1 = pct(one, 0.5), m20 = pct(twenty, 0.5), r20 = pct(rawTwenty, 0.5);
  console.log(`\nstartup (median of 3): 1 server ${fmt(m1)}; 20 together ${fmt(m20)}; raw SDK 20 together ${fmt(r20)}`);
  console.log(`  20 together vs 1: ${(m20 / m1).toFixed(2)}× (target ≤ 1.5×; each fixture server is a Node process costing ~${Math.round(m1)} ms of CPU, so on ${os.availableParallelism()} cores this is bounded by CPU, not by the host)`);
  console.log(`  20 together vs 20 one after another: ${(m20 / (20 * m1)).toFixed(2)}×`);
  console.log(`  host/raw SDK for 20 together: ${(m20 / r20).toFixed(2)}×`);
}

function report(title: string, raw: number[], host: number[]): void {
  const r50 = pct(raw, 0.5), h50 = pct(host, 0.5), r99 = pct(raw, 0.99), h99 = pct(host, 0.99);
  console.log(`\n${title}`);
  console.log(`  raw SDK client: median ${fmt(r50)}  p99 ${fmt(r99)}`);
  console.log(`  McpHost:        median ${fmt(h50)}  p99 ${fmt(h99)}`);
  console.log(`  ratio host/raw: median ${(h50 / r50).toFixed(3)} (target ≤ 1.05)  p99 ${(h99 / r99).toFixed(3)}`);
}

main().catch(e => { console.error(e); process.exit(1); });

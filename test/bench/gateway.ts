/**
 * The gateway under load (issue 31; printed and recorded; only the lost calls are asserted: 0, a count): 20 stdio servers in one host,
 * served by one gateway to 20 Streamable HTTP clients (the SDK's, as VS Code's built-in client or a
 * terminal agent would be), 1,000 `tools/call` in flight at once across them. Reports wall time against
 * the same 1,000 calls made on the host directly (no gateway) in the same run, interleaved run by run;
 * the heap after each burst against before it (after GC) and its peak; the CPU time of this process
 * (host, gateway and clients together: the gateway's share is the difference to the direct path); and
 * lost calls (rejected, or answered with another call's text): the run fails when one is lost (it lost
 * 63–608 with ECONNRESET while the gateway closed idle connections after 5 s: see keepAlive.ts).
 * Run: `npm run build:tests && node out/test/bench/gateway.js`
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import type { Client } from '@modelcontextprotocol/client';
import { McpHost, startGateway, type Logger } from '../../src/core';
import { connect } from '../unit/gatewayClient';
import { median, record, spread } from './figures';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const SERVERS = 20;
const CALLS = 1_000;
const RUNS = Number(process.env.MCP_HOST_BENCH_RUNS ?? 5);
const server = path.resolve(__dirname, '../fixtures/servers/crashing.js');
const ports = { variables: { workspaceFolders: [], trusted: true, userHome: process.env.HOME ?? '/', env: process.env } };
const quiet: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const WINDOW = { id: 'bench-window', label: 'bench', kind: 'window' as const };
const heap = () => { gc(); return process.memoryUsage().heapUsed; };
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const textOf = (r: { content?: unknown }) => ((r.content ?? []) as { type: string; text?: string }[]).map(c => c.text ?? '').join('');

let firstLoss: string | undefined;

interface Burst { ms: number; cpuMs: number; lost: number; heapBefore: number; heapAfter: number; heapPeak: number }

async function burst(call: (server: number, text: string) => Promise<string>): Promise<Burst> {
  const heapBefore = heap();
  let heapPeak = heapBefore;
  const sampler = setInterval(() => { heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed); }, 5);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const answers = await Promise.allSettled(Array.from({ length: CALLS }, (_, i) => call(i % SERVERS, `call-${i}`)));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  const lost = answers.filter((a, i) => a.status !== 'fulfilled' || a.value !== `call-${i}`).length;
  const first = answers.find((a, i) => a.status !== 'fulfilled' || a.value !== `call-${i}`);
  if (first) firstLoss ??= first.status === 'rejected' ? `${String(first.reason)} ${String((first.reason as { cause?: unknown }).cause)}` : `answered "${first.value.slice(0, 200)}"`;
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, lost, heapBefore, heapAfter: heap(), heapPeak };
}

async function main(): Promise<void> {
  const host = new McpHost({ ports });
  await host.apply(Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`s${i}`, { command: process.execPath, args: [server] }])));
  const gateway = await startGateway({ host, logger: quiet });
  const clients: Client[] = [];
  try {
    for (let i = 0; i < SERVERS; i++) clients.push(await connect(gateway.endpoint(`s${i}`, WINDOW)));
    const viaGateway = (s: number, text: string) => clients[s].callTool({ name: 'echo', arguments: { text } }).then(textOf);
    const conns = Array.from({ length: SERVERS }, (_, i) => host.get(`s${i}`)!);
    await Promise.all(conns.map(c => c.ready({}, 'the bench')));
    const direct = (s: number, text: string) => conns[s].callTool('echo', { text }).then(textOf);
    // Warm-up: connections, sessions, JIT.
    await burst(viaGateway);
    await burst(direct);
    const gw: Burst[] = [];
    const raw: Burst[] = [];
    for (let r = 0; r < RUNS; r++) {
      for (const [list, f] of (r % 2 ? [[raw, direct], [gw, viaGateway]] : [[gw, viaGateway], [raw, direct]]) as [Burst[], typeof direct][]) list.push(await burst(f));
    }
    const col = (xs: Burst[], k: keyof Burst) => xs.map(x => x[k]);
    const lost = gw.reduce((n, x) => n + x.lost, 0);
    const rawLost = raw.reduce((n, x) => n + x.lost, 0);
    const growth = gw.map(x => x.heapAfter - x.heapBefore);
    console.log(`\ngateway: ${SERVERS} servers, ${CALLS} calls in flight over Streamable HTTP, ${RUNS} runs (interleaved with the same calls on the host directly)`);
    console.log(`  wall: gateway ${median(col(gw, 'ms')).toFixed(1)} ms (runs ${spread(col(gw, 'ms'))}), direct ${median(col(raw, 'ms')).toFixed(1)} ms, ratio ${(median(col(gw, 'ms')) / median(col(raw, 'ms'))).toFixed(2)}`);
    console.log(`  CPU of this process: gateway ${median(col(gw, 'cpuMs')).toFixed(0)} ms, direct ${median(col(raw, 'cpuMs')).toFixed(0)} ms`);
    console.log(`  heap: before ${mb(median(col(gw, 'heapBefore')))}, after ${mb(median(col(gw, 'heapAfter')))} (after GC), peak ${mb(median(col(gw, 'heapPeak')))}; direct peak ${mb(median(col(raw, 'heapPeak')))}`);
    console.log(`  lost calls: gateway ${lost}, direct ${rawLost}${firstLoss ? ` (first: ${firstLoss})` : ''}`);
    record({ name: 'gateway.burst1000.wall', value: median(col(gw, 'ms')), baseline: median(col(raw, 'ms')), unit: 'ms', samples: RUNS, failures: lost, note: `${SERVERS} servers, ${CALLS} calls in flight; baseline: the same calls on the host directly; runs ${spread(col(gw, 'ms'))} ms` });
    record({ name: 'gateway.burst1000.cpu', value: median(col(gw, 'cpuMs')), baseline: median(col(raw, 'cpuMs')), unit: 'ms', samples: RUNS, failures: lost, note: 'CPU time of the process (host, gateway and the SDK clients); baseline: direct' });
    record({ name: 'gateway.burst1000.heapPeak', value: median(col(gw, 'heapPeak')), baseline: median(col(raw, 'heapPeak')), unit: 'bytes', samples: RUNS, failures: lost, note: 'peak heap during a burst (clients included); baseline: direct' });
    record({ name: 'gateway.burst1000.heapGrowth', value: median(growth), unit: 'bytes', samples: RUNS, failures: lost, note: `heap after a burst minus before (after GC); runs ${spread(growth.map(x => x / 1024 / 1024))} MB` });
    record({ name: 'gateway.burst1000.lost', value: lost, unit: 'calls', target: '0', samples: RUNS * CALLS, failures: lost, note: 'rejected, or answered with another call\'s text' });
    // One call at a time (what a chat turn does): the latency the gateway adds to each, the SDK client's share included.
    const SEQUENTIAL = 300;
    const sequential = async (call: (text: string) => Promise<string>): Promise<number> => {
      const xs: number[] = [];
      for (let i = 0; i < SEQUENTIAL; i++) { const t0 = performance.now(); await call(`seq-${i}`); xs.push(performance.now() - t0); }
      return median(xs);
    };
    const seqGw: number[] = [], seqRaw: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      seqGw.push(await sequential(text => viaGateway(0, text)));
      seqRaw.push(await sequential(text => direct(0, text)));
    }
    console.log(`  one call at a time (${SEQUENTIAL} × ${RUNS}): gateway ${median(seqGw).toFixed(2)} ms, direct ${median(seqRaw).toFixed(2)} ms (the gateway adds ${(median(seqGw) - median(seqRaw)).toFixed(2)} ms per call, its SDK client included)`);
    record({ name: 'gateway.sequential.latency', value: median(seqGw), baseline: median(seqRaw), unit: 'ms', samples: RUNS * SEQUENTIAL, failures: 0, note: 'median of one tools/call at a time through the gateway (SDK Streamable HTTP client in the same process); baseline: the same call on the host directly' });
    if (lost + rawLost > 0) throw new Error(`${lost} calls lost through the gateway and ${rawLost} directly, of ${RUNS * CALLS} each: a call in flight must never be lost.`);
  } finally {
    await Promise.all(clients.map(c => c.close().catch(() => undefined)));
    gateway.dispose();
    await host.shutdown();
  }
}

main().then(() => process.exit(0), (e: unknown) => { console.error(e); process.exit(1); });

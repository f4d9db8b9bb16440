/**
 * The host's overhead over the raw SDK, like for like (issue 16; printed and recorded, never asserted).
 * The raw baseline is the `Client` of @modelcontextprotocol/client, the SDK line and version the
 * host bundles, calling its own `callTool` (which decodes and validates the result exactly as it
 * does for the host), negotiating the era as the host does, against the same fixture server.
 *  1. callTool round trip, sequential: McpHost vs the raw `Client` over the SAME transport (the
 *     host's StdioTransport), plus a row with the client package's own StdioClientTransport (what an
 *     extension author would get). 10 runs of 200 calls per path, interleaved so they share the
 *     machine's noise, each run with fresh server processes; the ratio is of the medians of the runs'
 *     medians, p99 over every call.
 *  2. 1,000 calls in flight at once across 3 servers: wall time host / raw, every answer checked
 *     against its request (lost = rejected or answered with another call's text). 10 runs each.
 *  3. 20 stdio servers started concurrently: until every one is ready (initialized, catalogs listed),
 *     host (one apply()) vs the raw `Client` doing the same over the same transport. 10 runs each.
 * Failed samples are counted, never dropped silently.
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpHost } from '../../src/core';
import { StdioTransport } from '../../src/core/connection/stdioTransport';
import { asStdioTransport, versionNegotiation } from '../../src/core/connection/era';
import { median, percentile, record, spread } from './figures';

const server = path.resolve(__dirname, '../fixtures/servers/crashing.js');
const ports = { variables: { workspaceFolders: [], trusted: true, userHome: process.env.HOME ?? '/', env: process.env } };
const RUNS = 10;
/** Bursts are short and a loaded machine's noise is not: twice the runs for their medians. */
const BURST_RUNS = 20;
const declaration = { command: process.execPath, args: [server] };

/** The host's transport class, shaped as stdio for the SDK's era probe exactly as the host shapes it. */
const sameTransport = () => {
  const t = new StdioTransport({ command: process.execPath, args: [server], env: { ...process.env } as Record<string, string> });
  return asStdioTransport(t, () => t.pid);
};
const sdkTransport = () => new StdioClientTransport({ command: process.execPath, args: [server], stderr: 'ignore' });

/**
 * What the host does to make a server ready: negotiate the era as it does (probe `server/discover`,
 * fall back to `initialize`), then list what the server offers.
 */
async function rawReady(transport: StdioTransport | StdioClientTransport): Promise<Client> {
  const c = new Client({ name: 'bench-raw', version: '1' }, { versionNegotiation: versionNegotiation(undefined, 'stdio', 60_000) });
  await c.connect(transport);
  const caps = c.getServerCapabilities();
  await Promise.all([
    caps?.tools && c.listTools(),
    caps?.resources && c.listResources(),
    caps?.resources && c.listResourceTemplates(),
    caps?.prompts && c.listPrompts(),
  ]);
  return c;
}

const textOf = (r: CallToolResult) => r.content.map(c => (c.type === 'text' ? c.text : '')).join('');
/** The SDK's own callTool, as an extension author calls it: the same decoding and validation the host's call gets. */
const rawCall = (c: Client, text: string) => c.callTool({ name: 'echo', arguments: { text } });

/** Fresh server processes for each path: the host's connection, the raw client on the host's transport, and on the SDK's. */
async function sequentialPaths() {
  const host = new McpHost({ ports });
  await host.apply({ bench: declaration });
  const conn = host.require('bench');
  const same = await rawReady(sameTransport());
  const sdk = await rawReady(sdkTransport());
  const paths: Record<'host' | 'same' | 'sdk', (text: string) => Promise<CallToolResult>> = {
    host: text => conn.callTool('echo', { text }) as Promise<unknown> as Promise<CallToolResult>,
    same: text => rawCall(same, text),
    sdk: text => rawCall(sdk, text),
  };
  return { paths, close: () => Promise.all([same.close(), sdk.close(), host.shutdown()]) };
}

async function sequential(): Promise<void> {
  const names = ['host', 'same', 'sdk'] as const;
  const all = { host: [] as number[], same: [] as number[], sdk: [] as number[] };
  const runMedians = { host: [] as number[], same: [] as number[], sdk: [] as number[] };
  const failures = { host: 0, same: 0, sdk: 0 };
  // This process's CPU per call: what the host adds, free of the waiting that a loaded machine inflates.
  const cpuPerCall = { host: [] as number[], same: [] as number[], sdk: [] as number[] };
  for (let r = 0; r < RUNS; r++) {
    // Each run has its own server processes: where the OS places a path's server (core, cache) biases
    // that path for as long as the process lives, so one set for all runs shifted whole runs by ±10 %.
    const { paths, close } = await sequentialPaths();
    // Warm up every path (JIT, the SDK's schemas).
    for (let i = 0; i < 50; i++) for (const n of names) await paths[n]('warm');
    const times = { host: [] as number[], same: [] as number[], sdk: [] as number[] };
    const cpu = { host: 0, same: 0, sdk: 0 };
    for (let i = 0; i < 200; i++) {
      // Call by call, in an order that rotates, so that every path meets the same moments of a
      // shared machine's noise (and none always runs first or right after another's garbage).
      for (let k = 0; k < names.length; k++) {
        const n = names[(i + r + k) % names.length];
        const text = `s${r}-${i}-${n}`;
        const cpu0 = process.cpuUsage();
        const t = performance.now();
        try {
          if (textOf(await paths[n](text)) !== text) throw new Error('wrong answer');
          times[n].push(performance.now() - t);
        } catch { failures[n]++; }
        const c = process.cpuUsage(cpu0);
        cpu[n] += c.user + c.system;
      }
    }
    for (const n of names) {
      cpuPerCall[n].push(cpu[n] / 1000 / 200);
      all[n].push(...times[n]);
      runMedians[n].push(median(times[n]));
    }
    await close();
  }
  const row = (n: typeof names[number]) => `median ${median(runMedians[n]).toFixed(3)} ms (runs ${spread(runMedians[n], 3)}), p99 ${percentile(all[n], 0.99).toFixed(3)} ms, CPU ${median(cpuPerCall[n]).toFixed(3)} ms/call, ${failures[n]} failed`;
  console.log(`\ncallTool, sequential (${RUNS} runs × 200 calls per path, interleaved call by call, fresh server processes per run)`);
  console.log(`  raw 2.x Client, host's StdioTransport:    ${row('same')}`);
  console.log(`  raw 2.x Client, its StdioClientTransport: ${row('sdk')}`);
  console.log(`  McpHost:                                  ${row('host')}`);
  const h50 = median(runMedians.host), s50 = median(runMedians.same), k50 = median(runMedians.sdk);
  const h99 = percentile(all.host, 0.99), s99 = percentile(all.same, 0.99);
  console.log(`  host / raw, same transport: median ${(h50 / s50).toFixed(3)} (target ≤ 1.05), p99 ${(h99 / s99).toFixed(3)} (target ≤ 1.2)`);
  console.log(`  host / raw with the SDK's StdioClientTransport: median ${(h50 / k50).toFixed(3)} (reported)`);
  const hc = median(cpuPerCall.host), sc = median(cpuPerCall.same);
  console.log(`  client-side CPU per call, host / raw (same transport): ${(hc / sc).toFixed(3)}`);
  const samples = RUNS * 200;
  record({ name: 'callTool.sequential.cpuPerCall', value: hc, unit: 'ms', baseline: sc, target: 'report', samples: RUNS, failures: 0, note: `this process's CPU; host runs ${spread(cpuPerCall.host, 3)}, raw ${spread(cpuPerCall.same, 3)} ms` });
  record({ name: 'callTool.sequential.median', value: h50, unit: 'ms', baseline: s50, target: '≤ 1.05', samples, failures: failures.host + failures.same, note: `host runs ${spread(runMedians.host, 3)}, raw ${spread(runMedians.same, 3)} ms` });
  record({ name: 'callTool.sequential.p99', value: h99, unit: 'ms', baseline: s99, target: '≤ 1.2', samples, failures: failures.host + failures.same });
  record({ name: 'callTool.sequential.median.vsSdkStdioClientTransport', value: h50, unit: 'ms', baseline: k50, target: 'report', samples, failures: failures.host + failures.sdk });
}

async function concurrent(): Promise<void> {
  const host = new McpHost({ ports });
  await host.apply({ a: declaration, b: declaration, c: declaration });
  const conns = ['a', 'b', 'c'].map(n => host.require(n));
  const raws = await Promise.all([0, 1, 2].map(() => rawReady(sameTransport())));
  const paths = {
    host: (i: number, text: string) => conns[i % 3].callTool('echo', { text }) as Promise<unknown> as Promise<CallToolResult>,
    raw: (i: number, text: string) => rawCall(raws[i % 3], text),
  };
  const burst = async (n: keyof typeof paths, tag: string) => {
    const t = performance.now();
    // Every call is sent before any answer is awaited: 1,000 requests in flight.
    const settled = await Promise.allSettled(Array.from({ length: 1000 }, (_, i) => paths[n](i, `${tag}-${i}`)));
    const ms = performance.now() - t;
    const lost = settled.filter((s, i) => s.status === 'rejected' || textOf(s.value) !== `${tag}-${i}`).length;
    return { ms, lost };
  };
  await burst('host', 'warm');
  await burst('raw', 'warm');
  const walls = { host: [] as number[], raw: [] as number[] };
  const lost = { host: 0, raw: 0 };
  for (let r = 0; r < BURST_RUNS; r++) {
    for (const n of (r % 2 ? ['host', 'raw'] : ['raw', 'host']) as (keyof typeof paths)[]) {
      const b = await burst(n, `${n}${r}`);
      walls[n].push(b.ms);
      lost[n] += b.lost;
    }
  }
  const h = median(walls.host), w = median(walls.raw);
  const paired = median(walls.host.map((x, i) => x / walls.raw[i]));
  console.log(`\n1,000 concurrent callTool across 3 servers (${BURST_RUNS} runs each, interleaved)`);
  console.log(`  raw 2.x Client (same transport): median ${w.toFixed(1)} ms (${spread(walls.raw)}), ${lost.raw} lost or mismatched of ${BURST_RUNS * 1000}`);
  console.log(`  McpHost:                        median ${h.toFixed(1)} ms (${spread(walls.host)}), ${lost.host} lost or mismatched of ${BURST_RUNS * 1000}`);
  console.log(`  host / raw: ${(h / w).toFixed(3)} (target ≤ 1.05, 0 lost); median of the runs' paired ratios ${paired.toFixed(3)}`);
  record({ name: 'callTool.concurrent1000.wall', value: h, unit: 'ms', baseline: w, target: '≤ 1.05', samples: BURST_RUNS, failures: 0, note: `host ${spread(walls.host)}, raw ${spread(walls.raw)} ms; paired ratio ${paired.toFixed(3)}` });
  record({ name: 'callTool.concurrent1000.lost', value: lost.host, unit: 'calls', target: '0', samples: BURST_RUNS * 1000, failures: lost.host, note: `raw lost ${lost.raw}` });
  await Promise.all([...raws.map(c => c.close()), host.shutdown()]);
}

async function startup(): Promise<void> {
  const decls = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, declaration]));
  const hostStart = async (n: number) => {
    const h = new McpHost({ ports });
    const t = performance.now();
    await h.apply(decls(n));
    const ms = performance.now() - t;
    const ok = h.servers.every(s => s.state === 'running');
    await h.shutdown();
    if (!ok) throw new Error('a server did not start');
    return ms;
  };
  const rawStart = async (n: number) => {
    const t = performance.now();
    const clients = await Promise.all(Array.from({ length: n }, () => rawReady(sameTransport())));
    const ms = performance.now() - t;
    await Promise.all(clients.map(c => c.close()));
    return ms;
  };
  await hostStart(1);
  await rawStart(1);
  const times = { host: [] as number[], raw: [] as number[], one: [] as number[] };
  const failures = { host: 0, raw: 0 };
  for (let r = 0; r < RUNS; r++) {
    for (const n of (r % 2 ? ['host', 'raw'] : ['raw', 'host']) as ('host' | 'raw')[]) {
      try { times[n].push(await (n === 'host' ? hostStart : rawStart)(20)); } catch { failures[n]++; }
    }
    times.one.push(await hostStart(1));
  }
  const h = median(times.host), w = median(times.raw), one = median(times.one);
  const paired = times.host.length === times.raw.length ? median(times.host.map((x, i) => x / times.raw[i])) : NaN;
  console.log('\n20 stdio servers started concurrently, until all are ready (10 runs each, interleaved)');
  console.log(`  raw 2.x Client (same transport): median ${w.toFixed(0)} ms (${spread(times.raw, 0)}), ${failures.raw} failed`);
  console.log(`  McpHost (one apply()):          median ${h.toFixed(0)} ms (${spread(times.host, 0)}), ${failures.host} failed; 1 server alone: ${one.toFixed(0)} ms`);
  console.log(`  host / raw: ${(h / w).toFixed(3)} (target ≤ 1.05); median of the runs' paired ratios ${paired.toFixed(3)}`);
  record({ name: 'startup.20servers', value: h, unit: 'ms', baseline: w, target: '≤ 1.05', samples: times.host.length, failures: failures.host + failures.raw, note: `host ${spread(times.host, 0)}, raw ${spread(times.raw, 0)} ms; 1 server ${one.toFixed(0)} ms; paired ratio ${paired.toFixed(3)}` });
}

async function main(): Promise<void> {
  await sequential();
  await concurrent();
  await startup();
}

main().catch(e => { console.error(e); process.exit(1); });

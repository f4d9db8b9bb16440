/**
 * Flood benchmark (printed, never asserted): one stdio server floods the host at full speed (log
 * notifications, list_changed, resource updates, progress and stderr lines, as fast as the host
 * reads them) while another server answers `echo` calls. Reports, for this Node process standing
 * in for the extension host:
 *  - heap after the flood vs before (after GC; target within 10 %), and the peak during it;
 *  - event-loop delay during the flood (perf_hooks.monitorEventLoopDelay; target p99 ≤ 50 ms);
 *  - the other server's `echo` latency during the flood vs idle (target ratio ≤ 1.5).
 * Run: `npm run build:tests && node out/test/bench/flood.js [--seconds 30] [--json out.json] [--unlimited]`
 * (`--unlimited` lifts the rate limits, to see what the budgets buy).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { McpHost, type Logger, type ServerLimits } from '../../src/core';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const SECONDS = Number(arg('--seconds') ?? 30);
const JSON_OUT = arg('--json');
const UNLIMITED = process.argv.includes('--unlimited');

const servers = path.resolve(__dirname, '../fixtures/servers');
const ports = { variables: { workspaceFolders: [], trusted: true, userHome: process.env.HOME ?? '/', env: process.env } };
const pct = (xs: Float64Array, p: number) => { const s = Float64Array.from(xs).sort(); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

/** Latencies in a typed array allocated up front, so the measurement itself does not grow the heap being measured. */
class Samples {
  private readonly buf = new Float64Array(2_000_000);
  length = 0;
  push(ms: number): void { if (this.length < this.buf.length) this.buf[this.length++] = ms; }
  get values(): Float64Array { return this.buf.subarray(0, this.length); }
}
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;

function heap(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** Counts what a LogOutputChannel would receive; keeps nothing (the channel's own cost is VS Code's). */
class CountingLogger implements Logger {
  lines = 0;
  bytes = 0;
  readonly logLevel = 3;
  private add(m: string | Error) { this.lines++; this.bytes += String(m).length; }
  trace(m: string) { this.add(m); }
  debug(m: string) { this.add(m); }
  info(m: string) { this.add(m); }
  warn(m: string) { this.add(m); }
  error(m: string | Error) { this.add(m); }
}

async function main(): Promise<void> {
  const loggers = new Map<string, CountingLogger>();
  const unlimited: Partial<ServerLimits> = { maxLogLinesPerSecond: 1e9, maxNotificationsPerSecond: 1e9, maxQueuedNotifications: 1e9 };
  const host = new McpHost({
    ports: { ...ports, createLogger: name => { const l = new CountingLogger(); loggers.set(name, l); return l; } },
    ...(UNLIMITED ? { limits: unlimited } : {}),
  });
  await host.apply({
    flood: { command: process.execPath, args: [path.join(servers, 'flooding.js')] },
    quiet: { command: process.execPath, args: [path.join(servers, 'crashing.js')] },
  });
  const flood = host.require('flood'), quiet = host.require('quiet');
  let updates = 0;
  host.onDidUpdateResource(() => updates++);
  const echo = async () => { const t = performance.now(); await quiet.callTool('echo', { text: 'x' }); return performance.now() - t; };

  const idle = new Samples(), during = new Samples();
  for (let i = 0; i < 300; i++) await echo(); // warm up
  const baseHeap = heap();
  for (let i = 0; i < 1000; i++) idle.push(await echo());

  const delay = monitorEventLoopDelay({ resolution: 1 });
  let peakHeap = 0;
  const sampler = setInterval(() => { peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed); }, 100);
  delay.enable();
  const t0 = performance.now();
  await flood.callTool('flood', { kind: 'mixed', seconds: SECONDS });
  while (performance.now() - t0 < SECONDS * 1000) during.push(await echo());
  // The flooding server answers once the host has read what it wrote before this call.
  await flood.callTool('echo', { text: 'done' }, { timeoutMs: 120_000 });
  const floodMs = performance.now() - t0;
  delay.disable();
  clearInterval(sampler);
  await new Promise(r => setTimeout(r, 1500)); // let the burst reporters write their summaries
  const afterHeap = heap();
  const log = loggers.get('flood')!;

  const figures = {
    seconds: SECONDS,
    budgets: !UNLIMITED,
    floodMs: Math.round(floodMs),
    heapBaselineMB: +(baseHeap / 1048576).toFixed(2),
    heapPeakMB: +(peakHeap / 1048576).toFixed(2),
    heapAfterMB: +(afterHeap / 1048576).toFixed(2),
    heapAfterRatio: +(afterHeap / baseHeap).toFixed(3),
    eventLoopDelayP50Ms: +(delay.percentile(50) / 1e6).toFixed(2),
    eventLoopDelayP99Ms: +(delay.percentile(99) / 1e6).toFixed(2),
    eventLoopDelayMaxMs: +(delay.max / 1e6).toFixed(2),
    otherServerIdleMedianMs: +pct(idle.values, 0.5).toFixed(3),
    otherServerFloodMedianMs: +pct(during.values, 0.5).toFixed(3),
    otherServerLatencyRatioMedian: +(pct(during.values, 0.5) / pct(idle.values, 0.5)).toFixed(3),
    otherServerLatencyRatioP99: +(pct(during.values, 0.99) / pct(idle.values, 0.99)).toFixed(3),
    otherServerCalls: during.length,
    resourceUpdatesDelivered: updates,
    floodLogLines: log.lines,
  };
  await host.shutdown();

  console.log(`\nflood: one server floods for ${SECONDS} s (${UNLIMITED ? 'rate limits lifted' : 'default budgets'}); another answers echo`);
  console.log(`  heap: baseline ${mb(baseHeap)}, peak ${mb(peakHeap)}, after ${mb(afterHeap)} → after/baseline ${figures.heapAfterRatio} (target ≤ 1.10)`);
  console.log(`  event-loop delay during the flood: p50 ${figures.eventLoopDelayP50Ms} ms, p99 ${figures.eventLoopDelayP99Ms} ms (target ≤ 50), max ${figures.eventLoopDelayMaxMs} ms`);
  console.log(`  other server's echo: idle median ${figures.otherServerIdleMedianMs} ms, during ${figures.otherServerFloodMedianMs} ms → ratio ${figures.otherServerLatencyRatioMedian} (target ≤ 1.5), p99 ratio ${figures.otherServerLatencyRatioP99}; ${during.length} calls`);
  console.log(`  delivered from the flood: ${updates} resource updates, ${log.lines} log lines`);
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify(figures, null, 2));
}

main().catch(e => { console.error(e); process.exit(1); });

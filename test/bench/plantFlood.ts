/**
 * The plant guard under a sustained inotify flood (issue 27, printed and recorded, never asserted).
 * The guard (src/core/sandbox/plantGuard.ts) watches every folder of a sandboxed server's writable
 * roots; a server that creates and deletes files there non-stop makes every one of those events
 * reach this process. Measured in this one Node process, standing in for the extension host:
 * event-loop delay p99 (perf_hooks.monitorEventLoopDelay) while a child process floods a guarded
 * root, against the same guard with no flood; and, as the control, the same flood in a folder no
 * guard watches (what the flood's own CPU use costs on this machine). Quiet, flooded and control
 * phases alternate so they share the machine's noise; the figure is the median over the rounds.
 * Run: `npm run build:tests && node out/test/bench/plantFlood.js [--seconds 5] [--rounds 4] [--folders 2000]`
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PlantGuard } from '../../src/core/sandbox/plantGuard';
import { median, record, spread } from './figures';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const SECONDS = Number(arg('--seconds') ?? 5);
const ROUNDS = Number(arg('--rounds') ?? 4);
/** A workspace of this many folders (a few files each): what a rescan of the root walks. */
const FOLDERS = Number(arg('--folders') ?? 2000);

/** Creates, writes and deletes files in `dir` as fast as it can, 64 names in turn (inotify merges only repeats). */
const FLOOD = `const fs=require('fs'),p=require('path');const d=process.argv[1];for(let i=0;;i++){const f=p.join(d,'f'+(i%64));fs.writeFileSync(f,'x');fs.unlinkSync(f);}`;

function tree(root: string): void {
  for (let i = 0; i < FOLDERS; i++) {
    const d = path.join(root, `pkg${i % 50}`, `mod${i}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'index.js'), '');
  }
  mkdirSync(path.join(root, 'out'), { recursive: true });
}

function flood(dir: string): ChildProcess {
  return spawn(process.execPath, ['-e', FLOOD, dir], { stdio: 'ignore' });
}

/** Event-loop delay p99 (ms) over `SECONDS`, with a timer doing a little work as an extension host would. */
async function p99(): Promise<number> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const tick = setInterval(() => { let x = 0; for (let i = 0; i < 1e4; i++) x += i; return x; }, 5);
  await new Promise(r => setTimeout(r, SECONDS * 1000));
  clearInterval(tick);
  h.disable();
  return h.percentile(99) / 1e6;
}

async function phase(dir: string | undefined): Promise<number> {
  const child = dir ? flood(dir) : undefined;
  // Let the flood reach full speed before measuring.
  await new Promise(r => setTimeout(r, 300));
  try { return await p99(); } finally {
    child?.kill('SIGKILL');
    await new Promise(r => setTimeout(r, 300));
  }
}

async function main(): Promise<void> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'mcp-plant-flood-'));
  const root = path.join(base, 'root');
  const unguarded = path.join(base, 'elsewhere');
  mkdirSync(unguarded, { recursive: true });
  tree(root);
  const guard = new PlantGuard({ roots: [root], held: [], quarantineDir: path.join(base, 'quarantine') });
  let plants = 0;
  guard.onPlant(() => plants++);
  const quiet: number[] = [], flooded: number[] = [], control: number[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      quiet.push(await phase(undefined));
      flooded.push(await phase(path.join(root, 'out')));
      control.push(await phase(unguarded));
    }
  } finally {
    guard.finish();
    rmSync(base, { recursive: true, force: true });
  }
  const q = median(quiet), f = median(flooded), c = median(control);
  console.log(`plant guard over ${FOLDERS} folders, ${ROUNDS} rounds of ${SECONDS} s per phase; event-loop delay p99:`);
  console.log(`  no flood:                    ${q.toFixed(1)} ms (${spread(quiet)})`);
  console.log(`  flood in the guarded root:   ${f.toFixed(1)} ms (${spread(flooded)})  ratio ${(f / q).toFixed(2)}`);
  console.log(`  flood in an unguarded folder: ${c.toFixed(1)} ms (${spread(control)})  ratio ${(c / q).toFixed(2)} (the flood's own CPU use)`);
  if (plants) console.log(`  (the guard reported ${plants} plant(s): none was made)`);
  record({ name: 'plant guard: event-loop p99 with a flood in a guarded root / without', value: f, baseline: q, unit: 'ms', target: '≤ 1.5', samples: ROUNDS, failures: plants, note: `control (flood unguarded) ${c.toFixed(1)} ms; ${FOLDERS} folders` });
}

main().catch(e => { console.error(e); process.exit(1); });

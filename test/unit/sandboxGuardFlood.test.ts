/**
 * The plant guard under a sustained inotify flood (issue 27, Linux): a process that creates and
 * deletes files in a guarded root non-stop, with 10,000 harmless files made in the middle of it and
 * one plant among them (`sub/.vscode/tasks.json`, which the editor runs). The guard must catch the
 * plant while the flood still runs, and must not stop this process's event loop doing so: it used to
 * judge every event inside libuv's read of the inotify queue, which a flood never lets end.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlantGuard, type Plant } from '../../src/core/sandbox/plantGuard';

const itOnLinux = process.platform === 'linux' ? it : it.skip;

/**
 * Floods `work` for FLOOD_MS; at the middle makes 10,000 files in `many`, then the plant, then floods on.
 * The guard may move the planted folder before its file is written (ENOENT): the plant was stopped.
 */
const FLOOD_MS = 6000;
const FLOODER = `const fs=require('fs'),p=require('path');const [root]=process.argv.slice(1);const w=p.join(root,'work');
const t=Date.now();let planted=false;
for(let i=0;Date.now()-t<${FLOOD_MS};i++){const f=p.join(w,'f'+(i%64));fs.writeFileSync(f,'x');fs.unlinkSync(f);
if(!planted&&Date.now()-t>${FLOOD_MS / 2}){planted=true;fs.mkdirSync(p.join(root,'many'));
for(let j=0;j<5000;j++)fs.writeFileSync(p.join(root,'many','h'+j+'.txt'),'');
fs.mkdirSync(p.join(root,'sub','.vscode'),{recursive:true});try{fs.writeFileSync(p.join(root,'sub','.vscode','tasks.json'),'{"tasks":[]}');}catch(e){if(e.code!=='ENOENT')throw e;}
for(let j=5000;j<10000;j++)fs.writeFileSync(p.join(root,'many','h'+j+'.txt'),'');}}`;

describe('sandbox: the plant guard under an inotify flood (issue 27, Linux)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-guard-flood-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  itOnLinux('attacker: 10,000 files and a planted .vscode/tasks.json in a flood of creates and deletes: caught while the flood runs, and the event loop keeps turning', async () => {
    const root = path.join(dir, 'root');
    mkdirSync(path.join(root, 'work'), { recursive: true });
    const guard = new PlantGuard({ roots: [root], held: [], quarantineDir: path.join(dir, 'quarantine') });
    const plants: Plant[] = [];
    let floodRunning = true;
    let caughtDuringFlood = false;
    guard.onPlant(p => { plants.push(p); if (floodRunning) caughtDuringFlood = true; });
    // The longest the event loop went without running a timer while the flood ran.
    let last = Date.now();
    let longestGap = 0;
    const tick = setInterval(() => { const now = Date.now(); longestGap = Math.max(longestGap, now - last); last = now; }, 20);
    try {
      await new Promise<void>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', FLOODER, root], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', d => { err += String(d); });
        child.on('error', reject);
        child.on('exit', code => { floodRunning = false; if (code === 0) resolve(); else reject(new Error(`the flooder failed (${code}): ${err}`)); });
      });
    } finally {
      clearInterval(tick);
      guard.finish();
    }
    const planted = path.join(root, 'sub', '.vscode');
    assert.ok(plants.some(p => p.path === planted && p.movedTo), `the plant was not caught: ${JSON.stringify(plants.slice(0, 5))}`);
    assert.ok(caughtDuringFlood, 'the plant was caught only after the flood ended (or by the last sweep)');
    assert.ok(!existsSync(path.join(planted, 'tasks.json')), 'the planted tasks.json is still in the root');
    assert.ok(!plants.some(p => p.path.includes(`${path.sep}many${path.sep}`) || p.path.includes(`${path.sep}work${path.sep}`)), `a harmless file was taken for a plant: ${JSON.stringify(plants.slice(0, 5))}`);
    // Generous: half the flood. The guard that judged every event inside the read held the loop for all of it.
    assert.ok(longestGap < FLOOD_MS / 2, `the event loop stood still for ${longestGap} ms during a ${FLOOD_MS} ms flood`);
  });
});

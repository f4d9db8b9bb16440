/**
 * A stopped server is gone, and so is everything it started (SECURITY.md "Server processes"): helpers
 * in their own session, servers that ignore stdin EOF after the host was killed with SIGKILL, what a
 * dead host left for the next activation, and a start cut short by stop, restart or dispose.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sweepLeftovers } from '../../src/core';
import { launchCgroupSupport } from '../../src/core/connection/launchCgroup';
import { createTestHost, fixtureServer, isAlive, marker, node, processesWith, repoRoot, text, waitFor } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

const embeddedHost = path.join(repoRoot, 'out/test/fixtures/host/embeddedHost.js');

/** Every live descendant of `pid` (the OS process table's parent links). */
function descendants(pid: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone */ }
  }
  const out = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, pp] of parent) if (!out.has(p) && out.has(pp)) { out.add(p); grew = true; }
  }
  out.delete(pid);
  return [...out];
}

/** A zombie is dead: it only waits for a parent to read its status. */
function running(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try { return readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.[0] !== 'Z'; } catch { return false; }
}

/** Fields of /proc/<pid>/stat after the command name: [state, ppid, pgrp, session, …]. */
function stat(pid: number): string[] {
  try { const t = readFileSync(`/proc/${pid}/stat`, 'latin1'); return t.slice(t.lastIndexOf(')') + 2).split(' '); } catch { return []; }
}

/**
 * The launch cgroups' folder. Where there is none the orphan tests fail, never skip: CI runs as root
 * on a cgroup v2 machine (as this project's does), and a normal systemd desktop delegates the
 * editor's cgroup to its user; anywhere else the helper these tests start could not be held.
 */
function cgroupBase(): string {
  const { base, note } = launchCgroupSupport();
  assert.ok(base, `launch cgroups are unavailable here (${note}), so a helper that left by a double fork with an empty environment ` +
    'cannot be held: run these tests where cgroup2 is mounted and the test process\'s own cgroup (the 0:: line of /proc/self/cgroup) ' +
    'lets it create a child cgroup and move a process into it (root, or a delegated systemd user scope)');
  return base;
}

/**
 * The helper escaped every link of today's process table: not a descendant of the server, its own
 * session, no environment (so no launch token). What the fixture claims, checked, so the test proves
 * that only the cgroup can have ended it.
 */
function assertEscaped(server: number, helper: number): void {
  assert.ok(running(helper), 'the orphaned helper runs');
  assert.ok(!descendants(server).includes(helper), 'the helper is no descendant of the server');
  assert.notEqual(Number(stat(helper)[1]), server, 'its parent is not the server');
  assert.equal(Number(stat(helper)[3]), helper, 'it leads its own session (setsid)');
  assert.equal(readFileSync(`/proc/${helper}/environ`, 'latin1'), '', 'its environment is empty (env -i): no launch token');
}

/** A process seen once: ended in a finally only if it is still that process (its pid may be reused). */
function endLater(pid: number | undefined): () => void {
  const start = pid ? stat(pid)[19] : undefined;
  return () => { if (pid && start && stat(pid)[19] === start) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } };
}

/** The orphan knob, with a TTL shorter than the default: a helper a failed test leaks ends by itself. */
const orphanEnv = { FIXTURE_ORPHAN_GRANDCHILD: '1', FIXTURE_GRANDCHILD_TTL_MS: '120000' };

interface Started { host: ChildProcess; pids: Record<string, { pid: number; grandchildPid?: number | null; killedWatchdogs?: number[] }>; tree: number[] }

/** Starts the embedded host with `servers`; resolves once every server runs, with every process it started. */
async function startHost(servers: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Started> {
  const host = spawn(process.execPath, [embeddedHost, JSON.stringify({ servers, ...extra })], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    host.stdout!.on('data', (d: Buffer) => { out += d; const m = /^(READY|FAILED) (.*)$/m.exec(out); if (m) resolve(m[0]); });
    host.once('exit', c => reject(new Error(`the host exited with ${c}: ${out}`)));
  });
  if (!line.startsWith('READY ')) { host.kill('SIGKILL'); throw new Error(line); }
  const pids = JSON.parse(line.slice('READY '.length)) as Started['pids'];
  return { host, pids, tree: descendants(host.pid!) };
}

/**
 * These suites read the process table in /proc: elsewhere they are registered as pending (listed in
 * test/skipped-tests.json with the reason, so run-all reports them), never skipped in silence.
 */
const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

describeOnLinux('lifecycle: a stopped server is gone, and so is everything it started', function () {
  this.timeout(60_000);

  it('stop ends a helper the server started with setsid (its own session), with or without its environment', async () => {
    const { host } = createTestHost();
    const m = marker();
    try {
      await host.apply({
        inherits: { ...node(fixtureServer('crashing'), m), env: { FIXTURE_SETSID_GRANDCHILD: '1' } },
        cleared: { ...node(fixtureServer('crashing'), m), env: { FIXTURE_SETSID_GRANDCHILD: '1', FIXTURE_CLEAR_ENV: '1' } },
      });
      const helpers: number[] = [];
      for (const name of ['inherits', 'cleared']) {
        const { pid, grandchildPid } = JSON.parse(text(await host.require(name).callTool('pid', {}))) as { pid: number; grandchildPid: number };
        assert.ok(running(pid) && running(grandchildPid));
        helpers.push(grandchildPid);
      }
      for (const name of ['inherits', 'cleared']) await host.require(name).stop();
      await waitFor(() => helpers.every(p => !running(p)), 'the setsid helpers gone', 5000);
    } finally { await host.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });

  it('a crash (the leader killed with SIGKILL) ends its setsid helper too', async () => {
    const { host } = createTestHost({}, { restart: { maxRestarts: 0, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 50 } });
    try {
      await host.apply({ c: { ...node(fixtureServer('crashing')), env: { FIXTURE_SETSID_GRANDCHILD: '1' } } });
      const { pid, grandchildPid } = JSON.parse(text(await host.require('c').callTool('pid', {}))) as { pid: number; grandchildPid: number };
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !running(grandchildPid), 'the crashed server\'s setsid helper gone', 10_000);
    } finally { await host.shutdown(); }
  });

  it('attacker: stop ends a helper that left by a double fork, in its own session, with an empty environment (its launch cgroup holds it)', async () => {
    const base = cgroupBase();
    const { host } = createTestHost();
    let cleanup = () => {};
    try {
      await host.apply({ o: { ...node(fixtureServer('crashing')), env: orphanEnv } });
      const { pid, grandchildPid } = JSON.parse(text(await host.require('o').callTool('pid', {}))) as { pid: number; grandchildPid: number };
      cleanup = endLater(grandchildPid);
      assertEscaped(pid, grandchildPid);
      const cgroup = readFileSync(`/proc/${grandchildPid}/cgroup`, 'latin1');
      assert.match(cgroup, /^0::.*\/mcp-host-[0-9a-f]{32}$/m, 'the helper is still in its launch\'s cgroup');
      await host.require('o').stop();
      await waitFor(() => !running(grandchildPid), 'the orphaned helper gone after stop', 5000);
      assert.deepEqual(readdirSync(base).filter(n => n.startsWith('mcp-host-') && cgroup.includes(n)), [], 'and its cgroup is removed');
    } finally { await host.shutdown(); cleanup(); }
  });

  it('attacker: a helper the server moved into child cgroups of its own launch cgroup dies on stop, and every one of those cgroups is removed', async () => {
    const base = cgroupBase();
    const { host } = createTestHost();
    let cleanup = () => {};
    let launch: string | undefined;
    try {
      await host.apply({ n: { ...node(fixtureServer('crashing')), env: { ...orphanEnv, FIXTURE_NESTED_CGROUP: '1' } } });
      const { pid, grandchildPid } = JSON.parse(text(await host.require('n').callTool('pid', {}))) as { pid: number; grandchildPid: number };
      cleanup = endLater(grandchildPid);
      assertEscaped(pid, grandchildPid);
      const inner = /^0::.*\/(mcp-host-[0-9a-f]{32})\/inner\/deeper$/m.exec(readFileSync(`/proc/${grandchildPid}/cgroup`, 'latin1'));
      assert.ok(inner, 'the helper is in a grandchild cgroup of its launch cgroup');
      launch = path.join(base, inner[1]);
      await host.require('n').stop();
      await waitFor(() => !running(grandchildPid), 'the nested helper gone after stop', 5000);
      assert.ok(!existsSync(launch), `the launch cgroup is removed, with the cgroups the server made in it (left: ${existsSync(launch) ? readdirSync(launch).filter(n => !n.includes('.')).join(', ') : ''})`);
    } finally {
      await host.shutdown(); cleanup();
      // A failed run must not leave them: deepest first.
      if (launch) for (const cg of [path.join(launch, 'inner', 'deeper'), path.join(launch, 'inner'), launch]) try { rmdirSync(cg); } catch { /* gone, or not ours to force */ }
    }
  });

  it('attacker: shutdown of the host ends every server\'s orphaned, env-cleared, setsid helper', async () => {
    cgroupBase();
    const { host } = createTestHost();
    let cleanup: Array<() => void> = [];
    try {
      await host.apply({
        a: { ...node(fixtureServer('crashing')), env: orphanEnv },
        b: { ...node(fixtureServer('crashing')), env: { ...orphanEnv, FIXTURE_IGNORE_EOF: '1' } },
      });
      const helpers: number[] = [];
      for (const name of ['a', 'b']) {
        const { pid, grandchildPid } = JSON.parse(text(await host.require(name).callTool('pid', {}))) as { pid: number; grandchildPid: number };
        assertEscaped(pid, grandchildPid);
        helpers.push(grandchildPid);
      }
      cleanup = helpers.map(endLater);
      await host.shutdown();
      await waitFor(() => helpers.every(p => !running(p)), 'the orphaned helpers gone after shutdown', 5000);
    } finally { await host.shutdown(); for (const c of cleanup) c(); }
  });

  it('attacker: a crash of the server (SIGKILL) ends its orphaned helper too', async () => {
    cgroupBase();
    const { host } = createTestHost({}, { restart: { maxRestarts: 0, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 50 } });
    let cleanup = () => {};
    try {
      await host.apply({ c: { ...node(fixtureServer('crashing')), env: orphanEnv } });
      const { pid, grandchildPid } = JSON.parse(text(await host.require('c').callTool('pid', {}))) as { pid: number; grandchildPid: number };
      cleanup = endLater(grandchildPid);
      assertEscaped(pid, grandchildPid);
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !running(grandchildPid), 'the crashed server\'s orphaned helper gone', 10_000);
    } finally { await host.shutdown(); cleanup(); }
  });

  it('attacker: a foreign cgroup that merely looks like a launch\'s, and a ledger entry naming other folders, are left alone', async () => {
    const base = cgroupBase();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-cgroup-foreign-'));
    const made: string[] = [];
    const foreign: number[] = [];
    /** A cgroup with one sleeping process in it, as another program (or another host) would have. */
    const occupied = async (name: string): Promise<number> => {
      const cg = path.join(base, name);
      mkdirSync(cg);
      made.push(cg);
      const p = spawn('/bin/sh', ['-c', 'echo $$ > "$1/cgroup.procs" && exec sleep 120', 'sh', cg], { detached: true, stdio: 'ignore' });
      p.unref();
      await waitFor(() => readFileSync(path.join(cg, 'cgroup.procs'), 'latin1').trim() || undefined, `a process in ${name}`);
      foreign.push(p.pid!);
      return p.pid!;
    };
    const hex = () => randomBytes(16).toString('hex');
    const { host } = createTestHost();
    try {
      // Named as a launch cgroup, but no launch's: not in the ledger, not this host's.
      const lookalike = await occupied(`mcp-host-${hex()}`);
      // Another program's cgroup.
      const other = await occupied(`victim-${hex()}`);
      // A launch-shaped cgroup reached only through a symbolic link.
      const linkedToken = hex();
      const linked = await occupied(`mcp-host-${linkedToken}`);
      symlinkSync(base, path.join(dir, 'link'));
      // A dead host's ledger (the pid of a process that has exited), each entry naming a folder that is no launch cgroup of its token.
      const ledger = path.join(dir, 'ledger');
      mkdirSync(ledger);
      const gone = spawn('/bin/true');
      await new Promise(r => gone.once('exit', r));
      const plant = (token: string, cgroup: string) =>
        writeFileSync(path.join(ledger, `${token}.json`), JSON.stringify({ host: { pid: gone.pid, start: '1' }, pid: gone.pid, start: '1', token, cgroup }));
      const t1 = hex(), t2 = hex(), t3 = hex();
      plant(t1, path.join(base, made[0].split('/').pop()!));           // a launch-shaped name, but another token's
      plant(t2, made[1]);                                                // another program's cgroup
      plant(t3, path.join(base, 'x', '..', `mcp-host-${t3}`));          // not normalised
      plant(linkedToken, path.join(dir, 'link', `mcp-host-${linkedToken}`)); // through a link
      await sweepLeftovers(ledger, 200);
      // And a real launch of this host, stopped: only its own cgroup goes.
      await host.apply({ o: { ...node(fixtureServer('crashing')), env: orphanEnv } });
      const { grandchildPid } = JSON.parse(text(await host.require('o').callTool('pid', {}))) as { grandchildPid: number };
      foreign.push(grandchildPid);
      await host.require('o').stop();
      await waitFor(() => !running(grandchildPid), 'the launch\'s own helper gone', 5000);
      for (const [pid, what] of [[lookalike, 'a look-alike launch cgroup'], [other, 'another program\'s cgroup'], [linked, 'a cgroup named through a link']] as const) {
        assert.ok(running(pid), `the process in ${what} is left alone`);
      }
      assert.ok(made.every(existsSync), 'and none of those cgroups is removed');
    } finally {
      await host.shutdown();
      for (const pid of foreign) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
      for (const cg of made) await waitFor(() => { try { rmdirSync(cg); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'ENOENT'; } }, `${cg} removed`, 5000);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeOnLinux('lifecycle: the servers die with their host', function () {
  this.timeout(90_000);
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-lifecycle-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** One server of each kind: polite, ignores stdin EOF, ignores SIGTERM too, a setsid helper, sandboxed by srt and ignoring EOF. */
  function servers(): Record<string, unknown> {
    const crashing = node(fixtureServer('crashing'));
    return {
      polite: crashing,
      ignoresEof: { ...crashing, env: { FIXTURE_IGNORE_EOF: '1' } },
      ignoresSigterm: { ...node(fixtureServer('hanging')), env: { FIXTURE_IGNORE_SIGTERM: '1' } },
      setsidHelper: { ...crashing, env: { FIXTURE_SETSID_GRANDCHILD: '1' } },
      sandboxed: { ...crashing, env: { FIXTURE_IGNORE_EOF: '1', FIXTURE_SETSID_GRANDCHILD: '1' }, sandbox: true },
    };
  }
  const sandbox = () => ({ cli: srtCli, storageDir: path.join(dir, 'storage'), ripgrep: findRipgrep() });

  /** Every process the host started, the watchdog among them: its descendants, and each server's helper (by then in its own session, still a child). */
  function everything(s: Started): number[] {
    // A sandboxed server runs in its own PID namespace: the pids it reports are not this machine's
    // (its helper's 9 may be a kernel thread here); the tree already holds its processes.
    const helpers = Object.values(s.pids).filter(p => s.tree.includes(p.pid)).flatMap(p => (p.grandchildPid ? [p.grandchildPid] : []));
    return [...new Set([...s.tree, ...helpers])];
  }

  function watchdogOf(s: Started): number {
    const found = s.tree.filter(pid => {
      try { return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes('MCP_HOST_LAUNCH'); } catch { return false; }
    });
    assert.equal(found.length, 1, 'one watchdog per host');
    return found[0];
  }

  it('kill -9 of the host: no process of its servers is left, whatever each server does on stdin EOF', async () => {
    const started = await startHost(servers(), { sandbox: sandbox() });
    const all = everything(started);
    assert.ok(all.length >= 8, `the servers, their helpers, srt and bubblewrap run (${all.length})`);
    started.host.kill('SIGKILL');
    await waitFor(() => all.every(p => !running(p)), `every process gone (left: ${all.filter(running).join(', ')})`, 15_000);
  });

  it('attacker: kill -9 of the host: its watchdog ends a helper that left by a double fork, in its own session, with an empty environment', async () => {
    cgroupBase();
    const started = await startHost({ o: { ...node(fixtureServer('crashing')), env: { ...orphanEnv, FIXTURE_IGNORE_EOF: '1' } } });
    const helper = started.pids.o.grandchildPid!;
    const cleanup = endLater(helper);
    try {
      assertEscaped(started.pids.o.pid, helper);
      assert.ok(!started.tree.includes(helper), 'the helper is not in the host\'s process tree');
      const all = [...everything(started), helper];
      started.host.kill('SIGKILL');
      await waitFor(() => all.every(p => !running(p)), `every process gone (left: ${all.filter(running).join(', ')})`, 15_000);
    } finally { started.host.kill('SIGKILL'); cleanup(); }
  });

  it('attacker: kill -9 of the host: its watchdog ends a helper in child cgroups the server made in its launch cgroup, and removes them all', async () => {
    const base = cgroupBase();
    const started = await startHost({ n: { ...node(fixtureServer('crashing')), env: { ...orphanEnv, FIXTURE_IGNORE_EOF: '1', FIXTURE_NESTED_CGROUP: '1' } } });
    const helper = started.pids.n.grandchildPid!;
    const cleanup = endLater(helper);
    let launch: string | undefined;
    try {
      assertEscaped(started.pids.n.pid, helper);
      const inner = /^0::.*\/(mcp-host-[0-9a-f]{32})\/inner\/deeper$/m.exec(readFileSync(`/proc/${helper}/cgroup`, 'latin1'));
      assert.ok(inner, 'the helper is in a grandchild cgroup of its launch cgroup');
      launch = path.join(base, inner[1]);
      started.host.kill('SIGKILL');
      await waitFor(() => !running(helper) && !running(started.pids.n.pid), 'the server and its nested helper gone', 15_000);
      await waitFor(() => !existsSync(launch!) || undefined, 'the launch cgroup removed by the watchdog, with the cgroups the server made in it', 10_000);
    } finally {
      started.host.kill('SIGKILL'); cleanup();
      if (launch) for (const cg of [path.join(launch, 'inner', 'deeper'), path.join(launch, 'inner'), launch]) try { rmdirSync(cg); } catch { /* gone */ }
    }
  });

  it('attacker: kill -9 of the host and its watchdog: the next activation\'s sweep ends the orphaned, env-cleared helper through its cgroup', async () => {
    const base = cgroupBase();
    const ledger = path.join(dir, 'ledger');
    const dead = await startHost({ o: { ...node(fixtureServer('crashing')), env: { ...orphanEnv, FIXTURE_IGNORE_EOF: '1' } } }, { ledger });
    const helper = dead.pids.o.grandchildPid!;
    const cleanup = endLater(helper);
    try {
      assertEscaped(dead.pids.o.pid, helper);
      const [entry] = readdirSync(ledger).map(n => JSON.parse(readFileSync(path.join(ledger, n), 'utf8')) as { token: string; cgroup?: string });
      assert.equal(entry.cgroup, path.join(base, `mcp-host-${entry.token}`), 'the ledger names the launch\'s cgroup');
      const watchdog = watchdogOf(dead);
      process.kill(watchdog, 'SIGSTOP');
      dead.host.kill('SIGKILL');
      process.kill(watchdog, 'SIGKILL');
      await new Promise(r => setTimeout(r, 1000));
      assert.ok(running(helper), 'with host and watchdog gone, nothing else ends the helper');
      const ended = await sweepLeftovers(ledger);
      assert.ok(ended >= 2, `the sweep ended the server and its helper (${ended})`);
      await waitFor(() => !running(helper) && !running(dead.pids.o.pid), 'the server and its orphaned helper gone', 10_000);
      assert.ok(!existsSync(entry.cgroup!), 'the launch\'s cgroup is removed');
    } finally { dead.host.kill('SIGKILL'); cleanup(); await sweepLeftovers(ledger); }
  });

  it('attacker: a server that kills its host\'s watchdog still dies with the host: a new watchdog takes over every live launch', async () => {
    const crashing = node(fixtureServer('crashing'));
    const started = await startHost({
      killer: { ...crashing, env: { FIXTURE_KILL_WATCHDOG: '1', FIXTURE_IGNORE_EOF: '1', FIXTURE_SETSID_GRANDCHILD: '1' } },
      bystander: { ...crashing, env: { FIXTURE_IGNORE_EOF: '1' } },
    });
    const all = everything(started);
    try {
      const killed = started.pids.killer.killedWatchdogs ?? [];
      assert.equal(killed.length, 1, 'the server found and killed the watchdog');
      assert.ok(!running(killed[0]));
      const isWatchdog = (pid: number) => { try { return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes('MCP_HOST_LAUNCH'); } catch { return false; } };
      const replacement = await waitFor(() => descendants(started.host.pid!).find(p => !killed.includes(p) && isWatchdog(p)), 'a new watchdog', 5000);
      all.push(replacement);
      started.host.kill('SIGKILL');
      await waitFor(() => all.every(p => !running(p)), `every process gone (left: ${all.filter(running).join(', ')})`, 15_000);
    } finally {
      // Without a watchdog nothing else would end them: a failed assertion must not leave them running.
      started.host.kill('SIGKILL');
      for (const pid of all) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
  });

  it('attacker: a watchdog stopped with SIGSTOP is replaced too, and the servers die with the host', async () => {
    const started = await startHost({ stays: { ...node(fixtureServer('crashing')), env: { FIXTURE_IGNORE_EOF: '1', FIXTURE_SETSID_GRANDCHILD: '1' } } });
    const all = everything(started);
    try {
      const stopped = watchdogOf(started);
      // What a server can do as well as kill it: it runs as the same user.
      process.kill(stopped, 'SIGSTOP');
      const isWatchdog = (pid: number) => { try { return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes('MCP_HOST_LAUNCH'); } catch { return false; } };
      const replacement = await waitFor(() => descendants(started.host.pid!).find(p => p !== stopped && isWatchdog(p)), 'a new watchdog', 10_000);
      all.push(replacement);
      started.host.kill('SIGKILL');
      await waitFor(() => all.every(p => !running(p)), `every process gone (left: ${all.filter(running).join(', ')})`, 15_000);
    } finally {
      started.host.kill('SIGKILL');
      for (const pid of all) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    }
  });

  it('kill -9 of the host and its watchdog: the next activation\'s sweep ends what they left, and leaves a live host\'s servers alone', async () => {
    const dead = await startHost(servers(), { sandbox: sandbox(), ledger: path.join(dir, 'ledger') });
    const alive = await startHost({ other: { ...node(fixtureServer('crashing')), env: { FIXTURE_IGNORE_EOF: '1' } } }, { ledger: path.join(dir, 'ledger') });
    try {
      const all = everything(dead);
      // The host and its watchdog die together (a power cut of the editor): the watchdog is frozen first,
      // so it never reads the pipe's end, and the host has no time to replace it.
      const watchdog = watchdogOf(dead);
      process.kill(watchdog, 'SIGSTOP');
      dead.host.kill('SIGKILL');
      process.kill(watchdog, 'SIGKILL');
      // What the bug looked like: with nobody to end them, these outlive the host.
      await new Promise(r => setTimeout(r, 1000));
      assert.ok(running(dead.pids.ignoresEof.pid), 'a server that ignores EOF outlives a host killed with its watchdog');
      assert.ok(running(dead.pids.setsidHelper.grandchildPid!), 'so does a polite server\'s setsid helper');
      const ended = await sweepLeftovers(path.join(dir, 'ledger'));
      assert.ok(ended >= 4, `the sweep ended the leftovers (${ended})`);
      await waitFor(() => all.every(p => !running(p)), `every process gone (left: ${all.filter(running).join(', ')})`, 10_000);
      assert.ok(running(alive.pids.other.pid), 'the servers of a host that still runs (another window) are left alone');
      assert.equal(readdirSync(path.join(dir, 'ledger')).length, 1, 'only the live host\'s launch stays written down');
    } finally {
      alive.host.kill('SIGKILL');
      // A failed assertion must not leave the dead host's servers running.
      await sweepLeftovers(path.join(dir, 'ledger'));
    }
    await waitFor(() => !running(alive.pids.other.pid), 'the live host\'s server gone with it', 15_000);
  });
});

describe('lifecycle: stop, restart and dispose during a start end its process at once', function () {
  this.timeout(60_000);

  /** A server that never answers initialize, with an hour to do it: only a cancel can end its start. */
  const hangingStart = (m: string) => ({ ...node(fixtureServer('hanging'), m), env: { FIXTURE_HANG_INIT: '1' }, startTimeout: 3600 });

  async function startingServer(m: string) {
    const t = createTestHost();
    const applied = t.host.apply({ h: hangingStart(m) });
    const [pid] = await waitFor(() => { const p = processesWith(m); return p.length ? p : undefined; }, 'the server process spawned');
    const conn = t.host.require('h');
    assert.equal(conn.state, 'starting');
    return { ...t, conn, pid, applied };
  }

  it('stop: the process is gone within 2 s, and the state stays stopped', async () => {
    const m = marker();
    const { host, conn, pid, applied } = await startingServer(m);
    try {
      const states: string[] = [];
      conn.onDidChangeState(e => states.push(e.state));
      await conn.stop();
      assert.equal(conn.state, 'stopped');
      await waitFor(() => !running(pid), 'the starting process gone', 2000);
      await applied;
      await new Promise(r => setTimeout(r, 300));
      assert.deepEqual(states, ['stopped'], 'no late state change from the cancelled start');
    } finally { await host.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });

  it('restart: the first process is gone before the second one runs; never two copies', async () => {
    const m = marker();
    const { host, conn, pid } = await startingServer(m);
    try {
      let most = 0;
      const sampler = setInterval(() => { most = Math.max(most, processesWith(m).length); }, 20);
      const restarted = conn.restart();
      const [second] = await waitFor(() => { const p = processesWith(m).filter(p => p !== pid); return p.length ? p : undefined; }, 'the second process spawned', 10_000);
      await new Promise(r => setTimeout(r, 300));
      clearInterval(sampler);
      assert.equal(running(pid), false, 'the first start\'s process is gone');
      assert.ok(running(second));
      assert.equal(most, 1, 'at most one copy at any time');
      assert.equal(conn.state, 'starting');
      await conn.stop();
      await restarted;
    } finally { await host.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });

  it('attacker: stop then restart during a start, not awaited: never "stopped" with a server process running', async () => {
    const m = marker();
    const { host, conn } = await startingServer(m);
    try {
      void conn.stop();
      void conn.restart();
      await new Promise(r => setTimeout(r, 4000));
      assert.ok(conn.state !== 'stopped' || processesWith(m).length === 0, `state ${conn.state} while ${processesWith(m).length} server process(es) run`);
    } finally { await host.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });

  it('attacker: a restart storm during a start of a server that ignores SIGTERM never runs two copies', async () => {
    const m = marker();
    const t = createTestHost();
    void t.host.apply({ h: { ...hangingStart(m), env: { FIXTURE_HANG_INIT: '1', FIXTURE_IGNORE_SIGTERM: '1' } } });
    await waitFor(() => processesWith(m).length || undefined, 'the server process spawned');
    const conn = t.host.require('h');
    try {
      let most = 0;
      const sampler = setInterval(() => { most = Math.max(most, processesWith(m).length); }, 10);
      for (let i = 0; i < 5; i++) { void conn.restart(); await new Promise(r => setTimeout(r, 100)); }
      await new Promise(r => setTimeout(r, 4000));
      clearInterval(sampler);
      assert.equal(most, 1, 'at most one copy at any time');
    } finally { await t.host.shutdown(); }
    assert.deepEqual(processesWith(m), []);
  });

  it('dispose: the process is gone within 2 s', async () => {
    const m = marker();
    const { host, conn, pid } = await startingServer(m);
    try {
      conn.dispose();
      await waitFor(() => !running(pid), 'the starting process gone', 2000);
    } finally { await host.shutdown(); }
  });

  it('shutdown stops every server although their loggers throw (a closed log channel)', async () => {
    const m = marker();
    let closed = false;
    const throwing = () => { if (closed) throw new Error('Channel has been closed'); };
    const logger = { trace: throwing, debug: throwing, info: throwing, warn: throwing, error: throwing };
    const { host } = createTestHost({ createLogger: () => logger });
    await host.apply({
      a: node(fixtureServer('crashing'), m),
      b: { ...node(fixtureServer('crashing'), m), env: { FIXTURE_IGNORE_EOF: '1' } },
      c: { ...node(fixtureServer('hanging'), m), env: { FIXTURE_IGNORE_SIGTERM: '1' } },
    });
    assert.equal(processesWith(m).length, 3);
    closed = true;
    await host.shutdown();
    assert.deepEqual(processesWith(m), [], 'every server process is gone when shutdown resolves');
  });
});

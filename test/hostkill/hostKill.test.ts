/**
 * Issue 27.4 against a real editor: kill -9 of a real extension host (code-server's, started here
 * with MCP Host as the development extension and a browser on its workbench) with one server of each
 * kind — polite, ignores stdin EOF, a helper in its own session (setsid), sandboxed by srt and
 * ignoring EOF. (a) The host's watchdog ends all of them while no other extension host runs (the
 * page's scripts are paused, so the workbench cannot restart one and sweep in its place). (b) The
 * host and its watchdog die together: what they leave runs on until the workbench starts a new
 * extension host, whose activation sweeps it — 0 processes left.
 * Not a unit test: test/run-all.mjs runs this folder as its own suite once code-server is installed.
 */
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { fixtureServer, repoRoot, waitFor } from '../unit/helpers';

interface CodeServer { url: string; port: number; pid: number; dirs: { root: string; userData: string }; stop(): Promise<void> }
const rig = <T>(file: string): Promise<T> => import(pathToFileURL(path.join(repoRoot, 'test/rig', file)).href) as Promise<T>;

interface Proc { readonly ppid: number; readonly start: string; readonly zombie: boolean }

/** The process table: parent and start time (a pid's identity with the pid) of every live process. */
function table(): Map<number, Proc> {
  const out = new Map<number, Proc>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(name), { ppid: Number(rest[1]), start: rest[19], zombie: rest[0] === 'Z' });
    } catch { /* gone */ }
  }
  return out;
}
const read = (pid: number, what: 'environ' | 'cmdline'): string[] => { try { return readFileSync(`/proc/${pid}/${what}`, 'latin1').split('\0'); } catch { return []; } };

function descendants(of: number, t = table()): number[] {
  const found = new Set([of]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of t) if (!found.has(pid) && found.has(p.ppid)) { found.add(pid); grew = true; }
  }
  found.delete(of);
  return [...found];
}

/** A process seen once, by pid and start time: a later process with the same pid is another one. */
interface Seen { readonly pid: number; readonly start: string; readonly what: string }
const running = (s: Seen, t = table()): boolean => { const p = t.get(s.pid); return !!p && !p.zombie && p.start === s.start; };
const left = (all: readonly Seen[]): Seen[] => { const t = table(); return all.filter(s => running(s, t)); };
const describeSeen = (all: readonly Seen[]) => all.map(s => `${s.what} ${s.pid}`).join(', ');

/** One MCP Host server of each kind; HOSTKILL_KIND (inherited by everything they start) tells this run's processes apart. */
function servers(run: string): Record<string, unknown> {
  const crashing = (env: Record<string, string>, extra: Record<string, unknown> = {}) =>
    ({ command: process.execPath, args: [fixtureServer('crashing')], env: { HOSTKILL_RUN: run, ...env }, ...extra });
  return {
    polite: crashing({ HOSTKILL_KIND: 'polite' }),
    ignoresEof: crashing({ HOSTKILL_KIND: 'ignoresEof', FIXTURE_IGNORE_EOF: '1' }),
    setsidHelper: crashing({ HOSTKILL_KIND: 'setsidHelper', FIXTURE_SETSID_GRANDCHILD: '1' }),
    sandboxed: crashing({ HOSTKILL_KIND: 'sandboxed', FIXTURE_IGNORE_EOF: '1', FIXTURE_SETSID_GRANDCHILD: '1' }, { sandbox: true }),
  };
}
/** Processes of each kind that must run before the host is killed: a server, and its helper where it starts one. */
const EXPECTED: Record<string, number> = { polite: 1, ignoresEof: 1, setsidHelper: 2, sandboxed: 2 };
/** How long the host's processes must stay the same before the test acts on them. */
const SETTLED_MS = 1500;

const envOf = (pid: number, key: string) => read(pid, 'environ').find(e => e.startsWith(`${key}=`))?.slice(key.length + 1);
const isWatchdog = (pid: number) => read(pid, 'cmdline').includes('MCP_HOST_LAUNCH');

const describeOnLinux = process.platform === 'linux' ? describe : describe.skip;

describeOnLinux('host kill: the servers of a real extension host killed with SIGKILL are gone (issue 27.4)', function () {
  this.timeout(300_000);
  const run = randomBytes(6).toString('hex');
  let server: CodeServer;
  let browser: Browser;
  let windowUrl: string;
  const seenHosts = new Set<number>();

  /** The extension host code-server forked for the page (bootstrap-fork --type=extensionHost) that is not one already killed. */
  function extensionHost(): number | undefined {
    return descendants(server.pid).find(pid => !seenHosts.has(pid) && read(pid, 'cmdline').includes('--type=extensionHost'));
  }

  /** Every process of this run the host started now (servers, helpers, srt and bubblewrap), and its watchdogs. */
  function snapshot(host: number): { all: Seen[]; watchdogs: Seen[]; complete: boolean } {
    const t = table();
    const all: Seen[] = [];
    const counts: Record<string, number> = {};
    const watchdogs: Seen[] = [];
    for (const pid of descendants(host, t)) {
      const kind = envOf(pid, 'HOSTKILL_RUN') === run ? envOf(pid, 'HOSTKILL_KIND') : undefined;
      // srt and bubblewrap carry the launch token too: everything the launches started counts.
      const launched = kind ?? (envOf(pid, 'MCP_HOST_LAUNCH') ? 'launch' : undefined);
      if (isWatchdog(pid)) { watchdogs.push({ pid, start: t.get(pid)!.start, what: 'watchdog' }); all.push(watchdogs.at(-1)!); }
      else if (launched) all.push({ pid, start: t.get(pid)!.start, what: launched });
      if (kind) counts[kind] = (counts[kind] ?? 0) + 1;
    }
    return { all, watchdogs, complete: Object.entries(EXPECTED).every(([k, n]) => (counts[k] ?? 0) >= n) };
  }
  const identity = (all: readonly Seen[]) => all.map(s => `${s.pid}@${s.start}`).sort().join(' ');

  /**
   * Waits for a new extension host whose MCP Host runs every server, and for its processes to settle:
   * the early start hands its processes to the connections (and stops any it started for nothing), and
   * the main bundle starts its own watchdog meanwhile. A snapshot taken mid-way would miss a watchdog.
   */
  async function serversRunning(): Promise<{ host: number; all: Seen[]; watchdogs: Seen[] }> {
    const host = await waitFor(extensionHost, 'an extension host', 180_000);
    seenHosts.add(host);
    let since: { id: string; at: number } | undefined;
    return waitFor(() => {
      const now = snapshot(host);
      if (!now.complete) { since = undefined; return undefined; }
      const id = identity(now.all);
      if (since?.id !== id) { since = { id, at: Date.now() }; return undefined; }
      return Date.now() - since.at >= SETTLED_MS ? { host, ...now } : undefined;
    }, 'every server and helper of the new extension host running, the same processes for 1.5 s', 120_000);
  }

  before(async () => {
    const { ensureInstalled, CHROMIUM_PATH } = await rig<{ ensureInstalled(): Promise<void>; CHROMIUM_PATH: string }>('install.mjs');
    const { startCodeServer } = await rig<{ startCodeServer(o: object): Promise<CodeServer> }>('codeServer.mjs');
    const { BASE_SETTINGS } = await rig<{ BASE_SETTINGS: Record<string, unknown> }>('runIntegration.mjs');
    await ensureInstalled();
    server = await startCodeServer({ settings: { ...BASE_SETTINGS, 'mcpHost.servers': servers(run) } });
    const workspace = path.join(server.dirs.root, 'workspace');
    mkdirSync(workspace);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'] });
    // MCP Host as the development extension, no tests: an editor window as a person opens it.
    const payload = JSON.stringify([['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${repoRoot}`]]);
    windowUrl = `${server.url}/?${new URLSearchParams({ folder: workspace, payload })}`;
  });

  /**
   * Opens a window of the folder: code-server starts an extension host for it, where MCP Host activates.
   * Returns a pause of the window's scripts: a paused window cannot restart an extension host that died
   * (VS Code does that by itself), so nothing but the product can end a dead host's servers meanwhile.
   */
  async function openWindow(): Promise<() => Promise<unknown>> {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Debugger.enable');
    await page.goto(windowUrl, { timeout: 180_000 });
    return () => cdp.send('Debugger.pause');
  }

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    // Whatever a failed assertion left: nothing of this run may outlive it.
    for (const [pid] of table()) if (envOf(pid, 'HOSTKILL_RUN') === run) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  });

  it('kill -9 of the extension host: its watchdog ends every server and helper, with no new extension host to sweep', async () => {
    const pause = await openWindow();
    const { host, all } = await serversRunning();
    await pause();
    process.kill(host, 'SIGKILL');
    await waitFor(() => left(all).length === 0, 'every process gone', 15_000)
      .catch((e: Error) => { throw new Error(`${e.message}; left: ${describeSeen(left(all))}`); });
    assert.equal(extensionHost(), undefined, 'no other extension host ran meanwhile');
  });

  it('kill -9 of the extension host and its watchdog: the next extension host\'s activation sweeps what they left', async () => {
    const pause = await openWindow();
    const { host, all } = await serversRunning();
    await pause();
    // Read again once the window is paused: a watchdog replaced meanwhile must be frozen too.
    const { watchdogs } = snapshot(host);
    assert.ok(watchdogs.length > 0, 'the host runs a watchdog');
    all.push(...watchdogs.filter(w => !all.some(s => s.pid === w.pid && s.start === w.start)));
    // A power cut of the editor: the watchdogs (the early bundle has its own) are frozen first, so they never see the host's end.
    for (const w of watchdogs) process.kill(w.pid, 'SIGSTOP');
    process.kill(host, 'SIGKILL');
    for (const w of watchdogs) process.kill(w.pid, 'SIGKILL');
    await new Promise(r => setTimeout(r, 1500));
    const survivors = left(all);
    assert.ok(survivors.some(s => s.what === 'ignoresEof') && survivors.some(s => s.what === 'setsidHelper'),
      `with nobody to end them, a server that ignores EOF and a setsid helper outlive the host (left: ${describeSeen(survivors)})`);
    // The editor opened again: a new extension host, MCP Host's next activation.
    await openWindow();
    await serversRunning();
    await waitFor(() => left(all).length === 0, 'the dead host\'s processes swept', 15_000)
      .catch((e: Error) => { throw new Error(`${e.message}; left: ${describeSeen(left(all))}`); });
  });
});

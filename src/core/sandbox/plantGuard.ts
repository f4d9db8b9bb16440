/**
 * The plant guard: what bubblewrap cannot hold. Its mounts are fixed when the server starts, so in a
 * folder made later (or in an existing one, under a name that was absent) a sandboxed server can
 * still create a `.git`, the files of a bare repository, a `.vscode` or an `.envrc`, and the
 * user's next `git status` — or the editor's Git extension, a moment later — runs what it planted.
 * Nothing on Linux denies by name, so the guard watches every folder of the server's writable roots
 * while it runs and, when such a name appears where the rules did not hold one, kills the sandboxed
 * processes at once, moves the planted entry into a quarantine folder in the embedder's storage and
 * reports it (the connection then stops the server with that message). When the server ends, a
 * last sweep catches what the watcher could have missed. Paths the rules hold (`held`) are not
 * watched: the server cannot write there, so whatever happens in them is someone else's doing.
 */
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { Emitter, type Event } from '../events';
import { isInside } from '../fsPaths';
import { completesGitDir, exists, isGitDir, MAX_SCANNED_FOLDERS } from './plantable';
import { plantableKind } from './plantableNames';

export interface PlantGuardOptions {
  /** The server's writable folders. */
  readonly roots: readonly string[];
  /** What the rules deny writing (existing plantable paths and srt's placeholders). */
  readonly held: readonly string[];
  /** A folder of its own for this run, where planted entries are moved. */
  readonly quarantineDir: string;
  /**
   * Folders the server writes that are not watched (its data and temp folders): a link from a root
   * into one of them is a plant, since what it leads to can become a repository unseen.
   */
  readonly unwatched?: readonly string[];
}

/** One planted entry: where it was and where it is now; or a folder that could not be watched. */
export interface Plant {
  readonly path: string;
  /** Set when `path` is a folder the guard could not watch (the error): the server must not go on unwatched. */
  readonly unwatchable?: string;
  /** Undefined when it could not be moved (it was then removed, or the message says why not). */
  readonly movedTo?: string;
  readonly problem?: string;
  /** Why its name makes another program run code (plantableNames.ts). */
  readonly why?: string;
}

/**
 * inotify keeps at most this many unread events (one queue for every fs.watch in the process); past
 * it, events are dropped and libuv drops the overflow notice too, so a folder made then is never
 * watched. Node reads the whole queue in one go before anything else runs: when that many events
 * (a quarter of the queue, other watchers share it) come in one read, every guard rescans its roots.
 */
const OVERFLOW_SUSPECT = Math.max(64, Math.floor(maxQueuedEvents() / 4));
const liveGuards = new Set<PlantGuard>();
let eventsThisTurn = 0;

/**
 * The rescan a suspected overflow asks for runs after the read, never inside it: libuv reads the
 * queue until it is empty, so work done per event in the read is what a flood turns into a
 * blocked event loop (a server creating files non-stop kept the extension host from ever getting
 * out of it). Its rate is bounded by its own cost — at most a tenth of the time goes to rescans —
 * and it always runs: a flood delays the rescan by at most RESCAN_MIN_GAP_MS or ten times its cost.
 */
const RESCAN_MIN_GAP_MS = 100;
let rescanTimer: NodeJS.Timeout | undefined;
let nextRescanAt = 0;

function counted(): void {
  if (eventsThisTurn++ === 0) setImmediate(() => { eventsThisTurn = 0; });
  // Every guard: another server's flood in its own root overflows the queue for all of them.
  else if (eventsThisTurn % OVERFLOW_SUSPECT === 0) scheduleRescan();
}

function scheduleRescan(): void {
  if (rescanTimer) return;
  rescanTimer = setTimeout(() => {
    const started = Date.now();
    for (const g of liveGuards) g.rescan();
    rescanTimer = undefined;
    nextRescanAt = Date.now() + Math.max(RESCAN_MIN_GAP_MS, 10 * (Date.now() - started));
  }, Math.max(0, nextRescanAt - Date.now()));
  rescanTimer.unref();
}

/** Names queued for one folder before it is read whole instead (only the names that matter judged). */
const MAX_QUEUED_NAMES = 256;

function maxQueuedEvents(): number {
  try { return Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim()) || 16384; } catch { return 16384; }
}

export class PlantGuard {
  private readonly watchers = new Map<string, FSWatcher>();
  /** The folder each watch was put on, as found then. */
  private readonly watched = new Map<string, { ino: number; dev: number }>();
  private readonly plants: Plant[] = [];
  private readonly held: ReadonlySet<string>;
  /** What the watches reported since the last drain, per folder: the names, or `undefined` once too many. */
  private pending = new Map<string, { st: { ino: number; dev: number }; names: Set<string> | undefined }>();
  private draining?: NodeJS.Immediate;
  private kill?: () => void;
  private finished = false;
  private readonly _onPlant = new Emitter<Plant>();
  /** A plant was found (and moved) while the server ran or when it ended. */
  readonly onPlant: Event<Plant> = this._onPlant.event;

  constructor(private readonly options: PlantGuardOptions) {
    this.held = new Set(options.held);
    liveGuards.add(this);
    for (const root of options.roots) this.watchTree(root);
  }

  /** After events may have been lost: every folder of the roots watched, every entry judged again. */
  rescan(): void {
    for (const root of this.options.roots) this.watchTree(root, true);
  }

  /** The sandboxed processes to kill on the first plant; called once they are spawned. */
  attach(kill: () => void): void {
    this.kill = kill;
    if (this.plants.length) kill();
  }

  /** After the server's processes are gone: stop watching, sweep the roots once more, report. */
  finish(): Plant[] {
    if (!this.finished) {
      this.finished = true;
      liveGuards.delete(this);
      if (this.draining) clearImmediate(this.draining);
      for (const w of this.watchers.values()) w.close();
      this.watchers.clear();
      for (const root of this.options.roots) {
        // A root too big to sweep whole may hold a plant in the part not swept: said, not passed over.
        if (this.sweep(root, root, 0) > MAX_SCANNED_FOLDERS) this.plants.push({ path: root, unwatchable: `more than ${MAX_SCANNED_FOLDERS} folders: not all of it was checked after the server ended` });
      }
      this._onPlant.dispose();
    }
    return [...this.plants];
  }

  private watchTree(dir: string, again = false): void {
    let count = 0;
    const visit = (d: string) => {
      if (this.finished || this.isHeld(d)) return;
      // A watch follows its folder: one renamed away or replaced would name its events after a path
      // that now leads elsewhere (a link outside the roots). Such a watch goes; the folder now there gets one.
      const old = this.watchers.get(d);
      if (old && !sameFolder(d, this.watched.get(d)!)) { old.close(); this.watchers.delete(d); }
      else if (old && !again) return;
      // Past the limit the rest would go unwatched, silently: the server stops instead.
      if (++count > MAX_SCANNED_FOLDERS) { if (count === MAX_SCANNED_FOLDERS + 1) this.unwatchable(dir, new Error(`more than ${MAX_SCANNED_FOLDERS} folders`)); return; }
      if (!this.watchers.has(d)) try {
        const st = lstatSync(d);
        if (!st.isDirectory()) return;
        const w = watch(d, { persistent: false }, (_type, name) => {
          counted();
          if (name && this.watchers.get(d) === w) this.queue(d, st, name.toString());
        });
        w.on('error', e => { w.close(); if (this.watchers.get(d) === w) this.watchers.delete(d); if (exists(d)) this.unwatchable(d, e); });
        this.watchers.set(d, w);
        this.watched.set(d, st);
      } catch (e) {
        // ENOSPC (inotify's watch limit) and the like: a folder nobody watches is a hole, so the server stops.
        if (exists(d)) this.unwatchable(d, e);
        return;
      }
      let entries;
      try { entries = readdirSync(d, { withFileTypes: true }); } catch { return; }
      for (const e of entries) {
        const full = path.join(d, e.name);
        // What appeared before this folder was watched is judged now.
        this.judge(full);
        if (e.isDirectory() && exists(full)) visit(full);
      }
    };
    visit(dir);
  }

  /** Called inside libuv's read of the inotify queue: only noted here (constant work), judged in {@link drain}. */
  private queue(d: string, st: { ino: number; dev: number }, name: string): void {
    let p = this.pending.get(d);
    if (!p) this.pending.set(d, p = { st, names: new Set() });
    if (p.names && p.names.add(name).size > MAX_QUEUED_NAMES) p.names = undefined;
    this.draining ??= setImmediate(() => this.drain());
  }

  /** The folders reported since the last drain: each name judged once, or a flooded folder read once. */
  private drain(): void {
    this.draining = undefined;
    const pending = this.pending;
    this.pending = new Map();
    for (const [d, { st, names }] of pending) {
      if (this.finished) return;
      const w = this.watchers.get(d);
      if (!w) continue;
      if (!sameFolder(d, st)) { w.close(); this.watchers.delete(d); continue; }
      if (names) { for (const n of names) this.changed(path.join(d, n)); continue; }
      this.readFlooded(d);
    }
  }

  /**
   * A folder with more changes than were worth judging one by one: read once, and only what can
   * matter judged — a plantable name, a name that completes a git dir, a link, a folder not watched
   * yet. Everything else in it is a plain file, harmless whatever its name was a moment ago.
   */
  private readFlooded(d: string): void {
    let entries;
    try { entries = readdirSync(d, { withFileTypes: true }); } catch { return; }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) { if (!this.watchers.has(full)) this.changed(full); }
      else if (plantableKind(e.name) || completesGitDir(e.name) || e.isSymbolicLink()) this.judge(full);
    }
  }

  /** Something was created, renamed or written at `full`. */
  private changed(full: string): void {
    if (this.finished) return;
    this.judge(full);
    // A new folder (made or moved in) is watched, and what it already holds is judged.
    if (isDirectory(full)) this.watchTree(full);
  }

  /** Quarantines `full` (or the planted entry it lies in) if it makes another program run code. */
  private judge(full: string): void {
    const root = this.options.roots.find(r => isInside(full, r));
    if (!root || this.isHeld(full)) return;
    const parts = path.relative(root, full).split(path.sep);
    for (let i = 0; i < parts.length; i++) {
      const kind = plantableKind(parts[i]);
      if (kind) {
        const planted = path.join(root, ...parts.slice(0, i + 1));
        if (!this.isHeld(planted) && !this.onlyPlaceholders(planted)) this.quarantine(planted, root, kind.why);
        return;
      }
    }
    if (this.linksIntoUnwatched(full)) { this.quarantine(full, root); return; }
    // The files of a repository without a `.git` (bare, or the git dir a `.git` file elsewhere names).
    // Its HEAD goes: Git takes no folder without one, and the folder may be the user's (`src`, the root).
    const dir = path.dirname(full);
    if (completesGitDir(path.basename(full)) && isGitDir(dir)) this.quarantine(path.join(dir, 'HEAD'), root);
  }

  /** A link to a folder the server writes unwatched: Git outside would follow it into a repository made there. */
  private linksIntoUnwatched(full: string): boolean {
    const unwatched = this.options.unwatched ?? [];
    if (!unwatched.length) return false;
    try {
      if (!lstatSync(full).isSymbolicLink()) return false;
      const target = realpathSync(full);
      return unwatched.some(u => isInside(target, realpathSync(u)));
    } catch { return false; }
  }

  private unwatchable(dir: string, e: unknown): void {
    if (this.finished) return;
    this.kill?.();
    const plant = { path: dir, unwatchable: (e as Error).message ?? String(e) };
    this.plants.push(plant);
    this._onPlant.fire(plant);
  }

  /** Whether `p` lies at or below a held path (by its ancestors: a root holds thousands of entries). */
  private isHeld(p: string): boolean {
    for (let q = p; ; q = path.dirname(q)) {
      if (this.held.has(q)) return true;
      if (path.dirname(q) === q) return false;
    }
  }

  /**
   * srt makes an absent held name's mount point on the host (`.git/HEAD` in an empty `.git`): a
   * folder holding nothing but the way to held paths is its scaffolding, not a plant.
   */
  private onlyPlaceholders(dir: string): boolean {
    if (!this.options.held.some(h => isInside(h, dir))) return false;
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return true; }
    return entries.every(e => {
      const full = path.join(dir, e.name);
      return this.isHeld(full) || (e.isDirectory() && this.onlyPlaceholders(full));
    });
  }

  private quarantine(planted: string, root: string, why?: string): void {
    if (!exists(planted)) return;
    // First the processes: nothing more gets written while the plant is moved.
    this.kill?.();
    // Then the way to it: a folder on it swapped for a link would make the move take a file outside the roots.
    if (!reachedWithoutLinks(root, planted)) {
      const plant = { path: planted, why, problem: 'was reached through a link a folder of the root had been replaced with; nothing was moved' };
      this.plants.push(plant);
      this._onPlant.fire(plant);
      return;
    }
    const rel = path.relative(root, planted);
    let dest = path.join(this.options.quarantineDir, `${path.basename(root)}-${this.options.roots.indexOf(root)}`, rel);
    for (let n = 2; exists(dest); n++) dest = path.join(this.options.quarantineDir, `${path.basename(root)}-${this.options.roots.indexOf(root)}-${n}`, rel);
    const plant = { path: planted, why, ...move(planted, dest) };
    this.plants.push(plant);
    for (const [d, w] of this.watchers) if (isInside(d, planted)) { w.close(); this.watchers.delete(d); }
    this._onPlant.fire(plant);
  }

  /** The end-of-run pass: every entry of the roots judged, as the watcher would have. */
  private sweep(root: string, dir: string, count: number): number {
    if (this.isHeld(dir) || count > MAX_SCANNED_FOLDERS) return count;
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return count; }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      this.judge(full);
      if (e.isDirectory() && exists(full)) count = this.sweep(root, full, count + 1);
    }
    return count;
  }
}

/** What the user is told: what was planted, where it is now, and that it may have been their own. */
export function describePlant(p: Plant): string {
  if (p.unwatchable) return `Stopped: MCP Host could not watch ${p.path} for files that would make Git or the editor run code outside the sandbox (${p.unwatchable}). On Linux raise fs.inotify.max_user_watches, or give the server a smaller root.`;
  return `Stopped: while this sandboxed server ran, ${p.path} appeared, which would make Git or the editor run code outside the sandbox. ` +
    (p.movedTo ? `It was moved to ${p.movedTo}; if you made it yourself, move it back.` : `It ${p.problem}.`) + (p.why ? ` Why: ${p.why}.` : '');
}

/** Moves `from` to `to` (copying across file systems); if it cannot be moved, it is removed. */
function move(from: string, to: string): { movedTo?: string; problem?: string } {
  try {
    mkdirSync(path.dirname(to), { recursive: true });
    try { renameSync(from, to); } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      cpSync(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true, force: false });
      rmSync(from, { recursive: true, force: true });
    }
    return { movedTo: to };
  } catch (e) {
    // It must not stay where Git or the editor finds it.
    try { rmSync(from, { recursive: true, force: true }); } catch { /* reported below */ }
    return { problem: `could not be moved to ${to} (${(e as Error).message}); ${exists(from) ? 'it is still there: remove it before you run git or open the folder' : 'it was deleted'}` };
  }
}

/** Whether `d` is still the folder `st` was taken of (not renamed away, nor replaced by a link). */
function sameFolder(d: string, st: { ino: number; dev: number }): boolean {
  try { const now = lstatSync(d); return now.isDirectory() && now.ino === st.ino && now.dev === st.dev; } catch { return false; }
}

/** Whether no folder between `root` and `p` is a link (or gone): the path names what lies in the root. */
function reachedWithoutLinks(root: string, p: string): boolean {
  try {
    const parent = path.dirname(p);
    return realpathSync(parent) === path.join(realpathSync(root), path.relative(root, parent));
  } catch { return false; }
}

function isDirectory(p: string): boolean {
  try { return lstatSync(p).isDirectory(); } catch { return false; }
}

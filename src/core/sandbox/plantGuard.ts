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
import { cpSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, watch, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { Emitter, type Event } from '../events';
import { isInside } from '../fsPaths';
import { completesGitDir, exists, isGitDir, isPlantableName, MAX_SCANNED_FOLDERS } from './plantable';

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
}

export class PlantGuard {
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly plants: Plant[] = [];
  private readonly held: ReadonlySet<string>;
  private kill?: () => void;
  private finished = false;
  private readonly _onPlant = new Emitter<Plant>();
  /** A plant was found (and moved) while the server ran or when it ended. */
  readonly onPlant: Event<Plant> = this._onPlant.event;

  constructor(private readonly options: PlantGuardOptions) {
    this.held = new Set(options.held);
    for (const root of options.roots) this.watchTree(root);
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
      for (const w of this.watchers.values()) w.close();
      this.watchers.clear();
      for (const root of this.options.roots) this.sweep(root, root, 0);
      this._onPlant.dispose();
    }
    return [...this.plants];
  }

  private watchTree(dir: string): void {
    let count = 0;
    const visit = (d: string) => {
      if (this.finished || this.isHeld(d) || this.watchers.has(d)) return;
      if (++count > MAX_SCANNED_FOLDERS) return;
      try {
        const w = watch(d, { persistent: false }, (_type, name) => { if (name) this.changed(path.join(d, name.toString())); });
        w.on('error', e => { w.close(); this.watchers.delete(d); if (exists(d)) this.unwatchable(d, e); });
        this.watchers.set(d, w);
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
    let inNodeModules = false;
    for (let i = 0; i < parts.length; i++) {
      if (isPlantableName(parts[i], inNodeModules)) {
        const planted = path.join(root, ...parts.slice(0, i + 1));
        if (!this.isHeld(planted) && !this.onlyPlaceholders(planted)) this.quarantine(planted, root);
        return;
      }
      inNodeModules ||= parts[i] === 'node_modules';
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

  private quarantine(planted: string, root: string): void {
    if (!exists(planted)) return;
    // First the processes: nothing more gets written while the plant is moved.
    this.kill?.();
    const rel = path.relative(root, planted);
    let dest = path.join(this.options.quarantineDir, `${path.basename(root)}-${this.options.roots.indexOf(root)}`, rel);
    for (let n = 2; exists(dest); n++) dest = path.join(this.options.quarantineDir, `${path.basename(root)}-${this.options.roots.indexOf(root)}-${n}`, rel);
    const plant = { path: planted, ...move(planted, dest) };
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
    (p.movedTo ? `It was moved to ${p.movedTo}; if you made it yourself, move it back.` : `It ${p.problem}.`);
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

function isDirectory(p: string): boolean {
  try { return lstatSync(p).isDirectory(); } catch { return false; }
}

/**
 * The discovered servers of the enabled sources, kept up to date: every file is watched (created,
 * changed, replaced, deleted) and read again, bounded, when it changes. Nothing here starts anything:
 * the embedder plans (plan.ts) and applies.
 */
import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Disposable, Emitter, toDisposable } from '../events';
import { readDiscoveryFile } from './readFile';
import { serversOfFile } from './parseFile';
import type { DiscoveredServer } from './plan';
import type { DiscoveryFile } from './sources';

export type FileState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'read'; readonly servers: number; readonly skipped: readonly { readonly name: string; readonly reason: string }[] }
  /** Refused or unreadable: `message` says why, never quoting the file. */
  | { readonly kind: 'error'; readonly message: string };

export interface FileStatus {
  readonly file: DiscoveryFile;
  readonly state: FileState;
}

export interface DiscoverySnapshot {
  readonly servers: readonly DiscoveredServer[];
  readonly files: readonly FileStatus[];
}

const REFUSALS = {
  outsideFolder: 'refused: it is a link to a file outside its workspace folder',
  notAFile: 'refused: it is not a regular file',
  tooLarge: 'refused: it is larger than 4 MiB',
  unreadable: 'cannot be read',
} as const;

/** Reads every file once; `folders` are the open workspace folders (Claude Code's per-project servers). */
export async function readDiscovery(files: readonly DiscoveryFile[], folders: readonly { readonly name: string; readonly path: string }[]): Promise<DiscoverySnapshot> {
  const reads = await Promise.all(files.map(f => readDiscoveryFile(f.path, f.folder?.path)));
  const servers: DiscoveredServer[] = [];
  const taken = new Set<string>();
  const statuses: FileStatus[] = files.map((file, i) => {
    const r = reads[i];
    if (r.kind === 'missing') return { file, state: { kind: 'missing' } };
    if (r.kind === 'refused') return { file, state: { kind: 'error', message: r.detail ? `${REFUSALS[r.reason]} (${r.detail})` : REFUSALS[r.reason] } };
    const parsed = serversOfFile(file, r.text, folders.map(f => f.path));
    if (parsed.error !== undefined) return { file, state: { kind: 'error', message: parsed.error } };
    const skipped = [...parsed.skipped];
    let count = 0;
    for (const [name, declaration] of Object.entries(parsed.servers)) {
      const key = `${name}@${file.source}${file.folder && folders.length > 1 ? `:${file.folder.name}` : ''}`;
      // Two files of one source (VS Code's and Insiders' user folders) naming the same server: the first is kept.
      if (taken.has(key)) { skipped.push({ name, reason: 'declared in an earlier file of this source' }); continue; }
      taken.add(key);
      servers.push({ key, name, source: file.source, file: file.path, declaration });
      count++;
    }
    return { file, state: { kind: 'read', servers: count, skipped } };
  });
  return { servers, files: statuses };
}

/**
 * Watches `files` by polling their status: it sees a file appear in a folder that did not exist yet,
 * an editor's atomic replace, and a deletion, on every platform, for a dozen paths at a negligible
 * cost. The first status is taken when the watcher is made (`fs.watchFile` would take it at its first
 * poll and miss a change made before that). Changes within `settleMs` are reported once.
 */
export class DiscoveryWatcher extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<void>());
  readonly onDidChange = this._onDidChange.event;
  private settle?: NodeJS.Timeout;
  private polling = false;

  constructor(paths: readonly string[], options: { readonly intervalMs?: number; readonly settleMs?: number } = {}) {
    super();
    const known = new Map([...new Set(paths)].map(p => [p, signature(() => statSync(p, { throwIfNoEntry: false }))]));
    const settleMs = options.settleMs ?? 150;
    const poll = async () => {
      if (this.polling) return;
      this.polling = true;
      try {
        for (const [p, before] of known) {
          const now = signature(await stat(p).catch(() => undefined));
          if (now === before) continue;
          known.set(p, now);
          clearTimeout(this.settle);
          this.settle = setTimeout(() => this._onDidChange.fire(), settleMs);
        }
      } finally {
        this.polling = false;
      }
    };
    const timer = setInterval(() => void poll(), options.intervalMs ?? 1000);
    // The watcher never keeps a process (the CLI, a test) alive on its own.
    timer.unref();
    this._register(toDisposable(() => { clearInterval(timer); clearTimeout(this.settle); }));
  }
}

type Stat = { readonly mtimeMs: number; readonly ino: number; readonly size: number } | undefined;

function signature(s: Stat | (() => Stat)): string {
  let v: Stat;
  try { v = typeof s === 'function' ? s() : s; } catch { v = undefined; }
  return v ? `${v.mtimeMs} ${v.ino} ${v.size}` : 'none';
}

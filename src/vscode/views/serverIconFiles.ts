/**
 * The files behind servers' icons in the Servers view (`<globalStorage>/server-icons/<sha256>.<ext>`).
 * A TreeItem shows an icon from a file URI; the file is written here, by MCP Host, from bytes the core
 * checked (serverIcons: inline PNG/JPEG/WebP only), so the workbench never loads anything a server
 * named and nothing a server wrote. Hence one rule for sandboxed and unsandboxed servers alike.
 * - Written to a fresh temporary name with exclusive create, then renamed over the final name: a
 *   reader never sees half a file, and a file or link already at that name is replaced, not followed.
 * - Bounded: after each write, files beyond MAX_ICON_FILES are deleted, oldest first, except those a
 *   running server of this window shows. Other windows share the folder; a file one of them still
 *   shows is rewritten (and so made newest) whenever that window writes it again.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ServerIcon, ServerIcons } from '../../core';

export const SERVER_ICONS_FOLDER = 'server-icons';
export const MAX_ICON_FILES = 64;
/** Names this module writes: nothing else in the folder is ever touched. */
const OWN_FILE = /^(?:[0-9a-f]{64}\.(?:png|jpg|webp)|\.[0-9a-f]{64}\.[0-9a-f]{12}\.tmp)$/;

type FileState = 'writing' | 'written' | 'failed';

export class ServerIconFiles implements vscode.Disposable {
  private readonly files = new Map<string, FileState>();
  private readonly _onDidWrite = new vscode.EventEmitter<void>();
  /** Fires when an icon file is ready (repaint the view: `uris` now answers for it). */
  readonly onDidWrite = this._onDidWrite.event;
  private queue: Promise<void> = Promise.resolve();

  /**
   * @param dir the folder (`<globalStorage>/server-icons`), or undefined where storage is not a local folder (no icons then)
   * @param inUse the file names the running servers of this window show now; never pruned
   */
  constructor(private readonly dir: string | undefined, private readonly inUse: () => ReadonlySet<string>, private readonly onError: (message: string) => void = () => {}) {}

  /** The folder the files are written to; undefined when icons are not shown. */
  get folder(): string | undefined { return this.dir; }

  /** File URIs for the icons, or undefined until both are on disk (onDidWrite fires) or if writing failed. */
  uris(icons: ServerIcons): { light: vscode.Uri; dark: vscode.Uri } | undefined {
    const light = this.uri(icons.light);
    const dark = icons.dark === icons.light ? light : this.uri(icons.dark);
    return light && dark ? { light, dark } : undefined;
  }

  private uri(icon: ServerIcon): vscode.Uri | undefined {
    if (!this.dir) return undefined;
    const state = this.files.get(icon.fileName);
    if (state === 'written') return vscode.Uri.file(path.join(this.dir, icon.fileName));
    if (state) return undefined;
    this.files.set(icon.fileName, 'writing');
    // One write at a time: the pruning after each sees the folder as it is.
    this.queue = this.queue.then(() => this.write(icon)).then(
      () => { this.files.set(icon.fileName, 'written'); this._onDidWrite.fire(); },
      (e: unknown) => {
        // Not retried in this window (a full disk would be tried on every repaint); a churning server cannot grow the map without bound.
        if (this.files.size > 4 * MAX_ICON_FILES) for (const [n, s] of this.files) if (s === 'failed') this.files.delete(n);
        this.files.set(icon.fileName, 'failed');
        this.onError(`The icon of an MCP server could not be stored: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
    return undefined;
  }

  private async write(icon: ServerIcon): Promise<void> {
    const dir = this.dir!;
    await fs.mkdir(dir, { recursive: true });
    // A link in place of the folder would send the write elsewhere.
    if (!(await fs.lstat(dir)).isDirectory()) throw new Error(`${dir} is not a folder`);
    const tmp = path.join(dir, `.${icon.sha256}.${randomBytes(6).toString('hex')}.tmp`);
    await fs.writeFile(tmp, icon.bytes, { flag: 'wx', mode: 0o644 });
    try {
      await fs.rename(tmp, path.join(dir, icon.fileName));
    } catch (e) {
      await fs.rm(tmp, { force: true });
      throw e;
    }
    await this.prune();
  }

  /** Keeps the folder at MAX_ICON_FILES of our files: the oldest go first, never one shown now. */
  private async prune(): Promise<void> {
    const dir = this.dir!;
    const names = (await fs.readdir(dir)).filter(n => OWN_FILE.test(n));
    if (names.length <= MAX_ICON_FILES) return;
    const keep = this.inUse();
    const aged = await Promise.all(names.map(async n => ({ n, t: await fs.lstat(path.join(dir, n)).then(s => s.mtimeMs, () => 0) })));
    const removable = aged.filter(f => !keep.has(f.n)).sort((a, b) => a.t - b.t);
    for (const f of removable.slice(0, names.length - MAX_ICON_FILES)) {
      await fs.rm(path.join(dir, f.n), { force: true });
      // Written again if a server here shows it later.
      this.files.delete(f.n);
    }
  }

  dispose(): void { this._onDidWrite.dispose(); }
}

/**
 * The discovered servers of the sources the user enabled in `mcpHost.discovery` (user settings only,
 * read through settingsReader), for the open folders, followed live: the setting, the folders and
 * every file are watched. Starting is the host controller's, after planning (core discovery/plan.ts).
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { discoveryFiles, DiscoveryWatcher, enabledSources, readDiscovery, type DiscoverySnapshot, type DiscoverySource } from '../../core';
import { readSetting, SECTION } from '../settingsReader';

export interface Discovered extends DiscoverySnapshot {
  readonly enabled: ReadonlySet<DiscoverySource>;
  /** VS Code sources set to `"run"`. */
  readonly runHere: ReadonlySet<DiscoverySource>;
}

/** What the host controller needs: the current set, and an event when it may have changed. */
export interface DiscoveryFeed {
  readonly onDidChange: vscode.Event<void>;
  current(): Promise<Discovered>;
}

const NOTHING: Discovered = { servers: [], files: [], enabled: new Set(), runHere: new Set() };

export class DiscoveredServers implements DiscoveryFeed, vscode.Disposable {
  private readonly _onDidChange = new vscode.EventEmitter<void>();
  readonly onDidChange = this._onDidChange.event;
  private readonly disposables: vscode.Disposable[] = [this._onDidChange];
  private watcher?: DiscoveryWatcher;
  private latest: Promise<Discovered> = Promise.resolve(NOTHING);
  private last: Discovered = NOTHING;
  private generation = 0;

  /** `editorUserDir`: this editor's `…/User` folder (its `mcp.json`, Cline's and Roo's global storage). */
  constructor(private readonly editorUserDir: string | undefined) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration(`${SECTION}.discovery`)) this.rebuild(true); }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.rebuild(true)),
    );
    this.rebuild(false);
  }

  current(): Promise<Discovered> { return this.latest; }

  /** The declaration of a discovered server by host name, from the last read (approvals bind to its program). */
  declarationOf(key: string): Record<string, unknown> | undefined { return this.last.servers.find(s => s.key === key)?.declaration; }

  /** The file a discovered server comes from (Edit Server opens it instead of editing it). */
  fileOf(key: string): string | undefined { return this.last.servers.find(s => s.key === key)?.file; }

  /** Reads the enabled sources' files again and watches them; `notify` fires onDidChange once read. */
  private rebuild(notify: boolean): void {
    this.watcher?.dispose();
    const { enabled, runHere } = enabledSources(readSetting('discovery'));
    const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => ({ name: f.name, path: f.uri.fsPath }));
    const files = discoveryFiles({ platform: process.platform, home: os.homedir(), env: process.env, workspaceFolders: folders, editorUserDir: this.editorUserDir }, enabled);
    this.watcher = files.length ? new DiscoveryWatcher(files.map(f => f.path)) : undefined;
    this.watcher?.onDidChange(() => this.read(files, folders, enabled, runHere, true));
    this.read(files, folders, enabled, runHere, notify);
  }

  private read(files: Parameters<typeof readDiscovery>[0], folders: Parameters<typeof readDiscovery>[1], enabled: ReadonlySet<DiscoverySource>, runHere: ReadonlySet<DiscoverySource>, notify: boolean): void {
    const generation = ++this.generation;
    const reading = readDiscovery(files, folders).then(s => ({ ...s, enabled, runHere }), () => NOTHING).then(d => {
      if (generation === this.generation) this.last = d;
      return d;
    });
    this.latest = reading;
    void reading.then(() => { if (notify && generation === this.generation) this._onDidChange.fire(); });
  }

  dispose(): void {
    this.watcher?.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

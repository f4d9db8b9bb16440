/**
 * Resource subscriptions follow the tabs: when an `mcp-host-resource:` tab opens (text editor or image
 * preview) the resource is pinned in the file system and, if the server declares
 * `resources.subscribe`, subscribed; when its last tab closes it is unsubscribed. A server that
 * restarts gets its subscriptions again (they belong to the old session). Updates themselves are
 * handled by ResourceFileSystem, which re-reads on `notifications/resources/updated`.
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core';
import { decodeResourceUri, type ResourceFileSystem } from './resourceFileSystem';
import { RESOURCE_SCHEME, resourceKey } from './resourceUri';

interface OpenResource { readonly server: string; readonly uri: string }

export class ResourceSubscriptions implements vscode.Disposable {
  private open = new Map<string, OpenResource>();
  /** Keys subscribed on the server's current session. */
  private readonly subscribed = new Set<string>();
  /** Per key, the last subscribe/unsubscribe in flight, so they reach the server in order. */
  private readonly queue = new Map<string, Promise<void>>();
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly host: McpHost, private readonly fs: ResourceFileSystem) {
    this.disposables.push(
      vscode.window.tabGroups.onDidChangeTabs(() => this.sync()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.sync()),
    );
    const state = host.onDidChangeState(e => {
      if (e.state === 'running' && e.previous !== 'running') {
        for (const [key, r] of this.open) if (r.server === e.server) { this.subscribed.delete(key); this.subscribe(key, r); }
      } else if (e.state !== 'running') {
        for (const [key, r] of this.open) if (r.server === e.server) this.subscribed.delete(key);
      }
    });
    this.disposables.push({ dispose: () => state.dispose() });
    this.sync();
  }

  /** Resources currently shown in a tab. */
  get openResources(): readonly OpenResource[] { return [...this.open.values()]; }

  private sync(): void {
    const now = new Map<string, OpenResource>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const uri = tabUri(tab);
        if (uri?.scheme !== RESOURCE_SCHEME) continue;
        const ref = decodeResourceUri(uri);
        if (ref) now.set(resourceKey(ref.server, ref.uri), { server: ref.server, uri: ref.uri });
      }
    }
    for (const [key, r] of now) {
      if (this.open.has(key)) continue;
      this.fs.pin(r.server, r.uri);
      this.subscribe(key, r);
    }
    for (const [key, r] of this.open) {
      if (now.has(key)) continue;
      this.fs.unpin(r.server, r.uri);
      this.unsubscribe(key, r);
    }
    this.open = now;
  }

  private subscribe(key: string, r: OpenResource): void {
    const conn = this.host.get(r.server);
    if (!conn || conn.state !== 'running' || !conn.capabilities?.resources?.subscribe || this.subscribed.has(key)) return;
    this.subscribed.add(key);
    this.enqueue(key, () => conn.subscribe(r.uri).catch(e => {
      this.subscribed.delete(key);
      conn.logger.warn(`Could not subscribe to ${r.uri}: ${e instanceof Error ? e.message : String(e)}`);
    }));
  }

  private unsubscribe(key: string, r: OpenResource): void {
    if (!this.subscribed.delete(key)) return;
    const conn = this.host.get(r.server);
    if (!conn || conn.state !== 'running') return;
    this.enqueue(key, () => conn.unsubscribe(r.uri).catch(e => conn.logger.debug(`Could not unsubscribe from ${r.uri}: ${e instanceof Error ? e.message : String(e)}`)));
  }

  private enqueue(key: string, op: () => Promise<void>): void {
    const next = (this.queue.get(key) ?? Promise.resolve()).then(op);
    this.queue.set(key, next);
    void next.then(() => { if (this.queue.get(key) === next) this.queue.delete(key); });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    for (const [key, r] of this.open) this.unsubscribe(key, r);
    this.open.clear();
  }
}

function tabUri(tab: vscode.Tab): vscode.Uri | undefined {
  const input = tab.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom) return input.uri;
  if (input instanceof vscode.TabInputTextDiff) return input.modified;
  return undefined;
}

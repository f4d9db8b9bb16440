/**
 * The read-only `mcp-host-resource:` file system: each URI names a server, a resource URI and one of the
 * read result's contents (see resourceUri.ts), so resources open in ordinary editors, VS Code's image
 * preview and chat attachments. Reads are shared: one `resources/read` serves the `stat` and
 * `readFile` that VS Code sends together and every content of a multi-content result. Results of
 * resources open in a tab are kept (pinned) until the server says they changed
 * (`notifications/resources/updated`) or restarts; then `onDidChangeFile` makes VS Code re-read.
 * Only URIs this window minted are served (see resourceUri.ts): another extension cannot read a
 * server's resources by writing a URI itself.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { CONNECTION_CLOSED, isResourceNotFound, ServerError, type McpHost } from '../../core';
import { contentBytes } from './contents';
import { decodeResourcePath, encodeResourcePath, RESOURCE_SCHEME, resourceKey, type ResourceRef } from './resourceUri';

/** The window's key for the URIs' tokens: random per activation, never handed out. */
const WINDOW_KEY = randomBytes(32);

/** How long an unpinned read result answers repeated stats/reads (VS Code stats before and after reading). */
const UNPINNED_TTL_MS = 3000;

interface Entry {
  result?: ReadResourceResult;
  pending?: Promise<ReadResourceResult>;
  ctime: number;
  mtime: number;
  expires: number;
  /** `mcp-host-resource:` URIs handed out for this resource (one per content), to announce changes. */
  readonly uris: Map<string, vscode.Uri>;
}

export class ResourceFileSystem implements vscode.FileSystemProvider, vscode.Disposable {
  private readonly _onDidChangeFile = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this._onDidChangeFile.event;
  private readonly entries = new Map<string, Entry>();
  private readonly pinned = new Map<string, number>();
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly host: McpHost) {
    const sub = host.onDidUpdateResource(({ server, uri }) => this.changed(server, uri));
    const state = host.onDidChangeState(e => {
      const prefix = `${e.server}\u0000`;
      if (e.state === 'running' && e.previous !== 'running') {
        // A new session may serve different content, and updates sent while it was down were missed.
        for (const [key, entry] of this.entries) if (key.startsWith(prefix)) this.invalidate(entry);
      } else if (e.previous === 'running' && e.state !== 'running') {
        // Open tabs keep showing what they had; anything else must not be answered from a dead session.
        for (const key of [...this.entries.keys()]) if (key.startsWith(prefix) && !this.pinned.has(key)) this.entries.delete(key);
      }
    });
    this.subscriptions.push({ dispose: () => { sub.dispose(); state.dispose(); } }, this._onDidChangeFile);
  }

  /** The `mcp-host-resource:` URI showing content `part` of a resource, with a file name for language/icon/preview. */
  uriFor(server: string, uri: string, part: number, fileName: string): vscode.Uri {
    const result = resourceFileUri(server, uri, part, fileName);
    this.entry(resourceKey(server, uri)).uris.set(result.toString(), result);
    return result;
  }

  /** Reads a resource, sharing a read in flight and reusing a fresh or pinned result. */
  read(server: string, uri: string): Promise<ReadResourceResult> {
    const key = resourceKey(server, uri);
    const entry = this.entry(key);
    if (entry.result && (this.pinned.has(key) || Date.now() < entry.expires)) return Promise.resolve(entry.result);
    if (entry.pending) return entry.pending;
    const conn = this.host.require(server);
    const pending = conn.readResource(uri).then(result => {
      if (entry.pending === pending) {
        entry.result = result;
        entry.pending = undefined;
        entry.expires = Date.now() + UNPINNED_TTL_MS;
        // Do not hold a large read for nothing: unless a tab pins it, drop it once stale.
        setTimeout(() => { if (entry.result === result && !this.pinned.has(key)) entry.result = undefined; }, UNPINNED_TTL_MS).unref?.();
      }
      return result;
    }, err => {
      if (entry.pending === pending) entry.pending = undefined;
      throw err;
    });
    entry.pending = pending;
    return pending;
  }

  /** Keeps a resource's result while a tab shows it (counted). */
  pin(server: string, uri: string): void {
    const key = resourceKey(server, uri);
    this.pinned.set(key, (this.pinned.get(key) ?? 0) + 1);
  }

  unpin(server: string, uri: string): void {
    const key = resourceKey(server, uri);
    const n = (this.pinned.get(key) ?? 0) - 1;
    if (n > 0) { this.pinned.set(key, n); return; }
    this.pinned.delete(key);
    const entry = this.entries.get(key);
    if (entry && !entry.pending) this.entries.delete(key);
  }

  /** The server changed a resource: drop the cached result and tell VS Code to re-read open views of it. */
  changed(server: string, uri: string): void {
    const entry = this.entries.get(resourceKey(server, uri));
    if (entry) this.invalidate(entry);
  }

  private invalidate(entry: Entry): void {
    entry.result = undefined;
    entry.pending = undefined;
    entry.mtime = Math.max(Date.now(), entry.mtime + 1);
    if (entry.uris.size) this._onDidChangeFile.fire([...entry.uris.values()].map(uri => ({ type: vscode.FileChangeType.Changed, uri })));
  }

  private entry(key: string): Entry {
    let e = this.entries.get(key);
    if (!e) {
      const now = Date.now();
      e = { ctime: now, mtime: now, expires: 0, uris: new Map() };
      this.entries.set(key, e);
      this.evictExpired();
    }
    return e;
  }

  /** Unpinned results are dropped once stale so memory follows what is open, not what was ever read. */
  private evictExpired(): void {
    if (this.entries.size < 256) return;
    const now = Date.now();
    for (const [key, e] of this.entries) if (!this.pinned.has(key) && !e.pending && now >= e.expires) this.entries.delete(key);
  }

  // ---- FileSystemProvider ---------------------------------------------------------------------

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const ref = decodeResourceUri(uri);
    if (!ref && (uri.path === '/' || uri.path === '')) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0, permissions: vscode.FilePermission.Readonly };
    if (!ref) throw notMinted(uri);
    const bytes = await this.bytes(ref);
    const entry = this.entry(resourceKey(ref.server, ref.uri));
    entry.uris.set(uri.toString(), uri);
    return { type: vscode.FileType.File, ctime: entry.ctime, mtime: entry.mtime, size: bytes.byteLength, permissions: vscode.FilePermission.Readonly };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const ref = decodeResourceUri(uri);
    if (!ref) throw notMinted(uri);
    const bytes = await this.bytes(ref);
    this.entry(resourceKey(ref.server, ref.uri)).uris.set(uri.toString(), uri);
    return bytes;
  }

  private async bytes(ref: ResourceRef): Promise<Uint8Array> {
    if (!this.host.get(ref.server)) throw vscode.FileSystemError.FileNotFound(vscode.l10n.t('No MCP server named "{0}" is configured, so {1} cannot be read.', ref.server, ref.uri));
    let result: ReadResourceResult;
    try { result = await this.read(ref.server, ref.uri); }
    catch (e) { throw toFileSystemError(e, ref); }
    const content = result.contents[ref.part];
    if (!content) {
      throw vscode.FileSystemError.FileNotFound(vscode.l10n.t('{0}: {1} has {2} content(s); there is no content #{3} (it may have changed).', ref.server, ref.uri, result.contents.length, ref.part + 1));
    }
    return contentBytes(content);
  }

  watch(): vscode.Disposable {
    // Subscriptions follow open tabs (see ResourceSubscriptions), which also covers image previews.
    return new vscode.Disposable(() => {});
  }

  readDirectory(): [string, vscode.FileType][] { return []; }
  createDirectory(): void { throw readOnly(); }
  writeFile(): void { throw readOnly(); }
  delete(): void { throw readOnly(); }
  rename(): void { throw readOnly(); }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
    this.entries.clear();
  }
}

/** The `mcp-host-resource:` URI alone (tree items use it for their file icon; nothing is remembered). */
export function resourceFileUri(server: string, uri: string, part: number, fileName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: RESOURCE_SCHEME, path: encodeResourcePath({ server, uri, part }, fileName, WINDOW_KEY) });
}

/** The resource an `mcp-host-resource:` URI minted in this window names; undefined for any other URI. */
export function decodeResourceUri(uri: vscode.Uri): ResourceRef | undefined {
  return uri.scheme === RESOURCE_SCHEME ? decodeResourcePath(uri.path, WINDOW_KEY) : undefined;
}

function notMinted(uri: vscode.Uri): vscode.FileSystemError {
  return vscode.FileSystemError.FileNotFound(vscode.l10n.t('{0} was not opened by MCP Host in this window: open the resource from the MCP Resources view.', uri.toString()));
}

function readOnly(): vscode.FileSystemError {
  return vscode.FileSystemError.NoPermissions(vscode.l10n.t('MCP resources are read-only. Use "Save to Workspace" to keep a copy.'));
}

/** Maps read failures to file system errors whose message says what happened and what to do. */
export function toFileSystemError(e: unknown, ref: ResourceRef): vscode.FileSystemError {
  if (e instanceof ServerError) {
    if (isResourceNotFound(e)) return vscode.FileSystemError.FileNotFound(vscode.l10n.t('Resource not found: server "{0}" has no resource {1}.', ref.server, ref.uri));
    if (e.code === CONNECTION_CLOSED) {
      return vscode.FileSystemError.Unavailable(vscode.l10n.t('Cannot read {0}: {1}. Start the server from the MCP Servers view and try again.', ref.uri, e.message));
    }
    return vscode.FileSystemError.Unavailable(vscode.l10n.t('Cannot read {0}: {1}', ref.uri, e.message));
  }
  return vscode.FileSystemError.Unavailable(vscode.l10n.t('Cannot read {0}: {1}', ref.uri, e instanceof Error ? e.message : String(e)));
}

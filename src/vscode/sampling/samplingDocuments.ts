/**
 * Read-only documents under the `mcp-host-sampling:` scheme: the sampling log (all servers or one)
 * and snapshots of single requests/answers opened from the approval prompts.
 */
import * as vscode from 'vscode';
import { formatSamplingLog, type SamplingLog } from '../../core/sampling';
import { privateToken, showBeside, SnapshotStore } from '../readOnlySnapshots';

export const SAMPLING_SCHEME = 'mcp-host-sampling';

export class SamplingDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly snapshots = new SnapshotStore('snapshot-');
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  /**
   * The log's URIs, one random path per view (all servers: key ''), made when first shown: the
   * provider answers every extension, so `mcp-host-sampling:/log.md` must not name the transcripts.
   */
  private readonly logPaths = new Map<string, string>();

  constructor(private readonly log: SamplingLog) {
    this.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(SAMPLING_SCHEME, this),
      this._onDidChange,
      log.onDidChange(() => {
        for (const doc of vscode.workspace.textDocuments) {
          if (doc.uri.scheme === SAMPLING_SCHEME && this.logServer(doc.uri) !== undefined) this._onDidChange.fire(doc.uri);
        }
      }),
    );
  }

  private logUri(server = ''): vscode.Uri {
    let path = this.logPaths.get(server);
    if (!path) this.logPaths.set(server, path = `/log-${privateToken()}/${server ? `${server}.md` : 'log.md'}`);
    return vscode.Uri.from({ scheme: SAMPLING_SCHEME, path });
  }

  /** The server whose log `uri` shows ('' for all), or undefined when it is not a log URI this window made. */
  private logServer(uri: vscode.Uri): string | undefined {
    for (const [server, path] of this.logPaths) if (path === uri.path) return server;
    return undefined;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const server = this.logServer(uri);
    if (server !== undefined) return formatSamplingLog(this.log.entries, server || undefined);
    return this.snapshots.get(uri.path) ?? '(this snapshot is gone)';
  }

  /** Shows `content` in a read-only editor beside the current one, keeping focus where it is. */
  async showSnapshot(name: string, content: string): Promise<void> {
    await showBeside(vscode.Uri.from({ scheme: SAMPLING_SCHEME, path: this.snapshots.put(name, content) }));
  }

  async showLog(server?: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(this.logUri(server));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.snapshots.clear();
  }
}

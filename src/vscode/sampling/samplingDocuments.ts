/**
 * Read-only documents under the `mcp-host-sampling:` scheme: the sampling log (all servers or one)
 * and snapshots of single requests/answers opened from the approval prompts.
 */
import * as vscode from 'vscode';
import { formatSamplingLog, type SamplingLog } from '../../core/sampling';
import { showBeside, SnapshotStore } from '../readOnlySnapshots';

export const SAMPLING_SCHEME = 'mcp-host-sampling';

export class SamplingDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly snapshots = new SnapshotStore('snapshot-');
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(private readonly log: SamplingLog) {
    this.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(SAMPLING_SCHEME, this),
      this._onDidChange,
      log.onDidChange(() => {
        for (const doc of vscode.workspace.textDocuments) {
          if (doc.uri.scheme === SAMPLING_SCHEME && doc.uri.path.startsWith('/log')) this._onDidChange.fire(doc.uri);
        }
      }),
    );
  }

  static logUri(server?: string): vscode.Uri {
    return vscode.Uri.from({ scheme: SAMPLING_SCHEME, path: server ? `/log/${server}.md` : '/log.md' });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (uri.path === '/log.md') return formatSamplingLog(this.log.entries);
    const server = /^\/log\/(.+)\.md$/.exec(uri.path)?.[1];
    if (server !== undefined) return formatSamplingLog(this.log.entries, server);
    return this.snapshots.get(uri.path) ?? '(this snapshot is gone)';
  }

  /** Shows `content` in a read-only editor beside the current one, keeping focus where it is. */
  async showSnapshot(name: string, content: string): Promise<void> {
    await showBeside(vscode.Uri.from({ scheme: SAMPLING_SCHEME, path: this.snapshots.put(name, content) }));
  }

  async showLog(server?: string): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(SamplingDocuments.logUri(server));
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
    this.snapshots.clear();
  }
}

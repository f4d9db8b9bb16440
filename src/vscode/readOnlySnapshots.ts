/**
 * Read-only documents holding text shown beside a prompt (the full arguments of a tool call): the
 * user reads them in an editor without being able to edit them, and nothing in them is rendered.
 */
import * as vscode from 'vscode';

const KEEP = 50;

export class ReadOnlySnapshots implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly snapshots = new Map<string, string>();
  private readonly registration: vscode.Disposable;
  private next = 1;

  constructor(readonly scheme: string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.snapshots.get(uri.path) ?? vscode.l10n.t('(this snapshot is gone)');
  }

  /** Shows `content` in a read-only editor beside the current one, keeping focus where it is (on the prompt). */
  async show(name: string, content: string): Promise<vscode.TextEditor> {
    const path = `/${this.next++}/${name}`;
    this.snapshots.set(path, content);
    if (this.snapshots.size > KEEP) this.snapshots.delete(this.snapshots.keys().next().value!);
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: this.scheme, path }));
    return vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside });
  }

  dispose(): void {
    this.registration.dispose();
    this.snapshots.clear();
  }
}

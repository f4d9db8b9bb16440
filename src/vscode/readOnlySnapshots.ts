/**
 * Read-only documents holding text shown beside a prompt (the full arguments of a tool call): the
 * user reads them in an editor without being able to edit them, and nothing in them is rendered.
 *
 * A content provider answers every extension that opens a URI of its scheme, so each document's URI
 * carries a random token ({@link privateToken}) and only URIs this window handed to an editor resolve:
 * another extension cannot enumerate or guess them (`/1/args.json` once could).
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** 128 random bits, hex: the unguessable part of a private document's URI. */
export function privateToken(): string {
  return randomBytes(16).toString('hex');
}

const KEEP = 50;

/** The texts of the last {@link KEEP} snapshots by URI path (`/<prefix><n>/<name>`); older ones are gone. */
export class SnapshotStore {
  private readonly texts = new Map<string, string>();

  constructor(private readonly prefix = '') {}

  /** Keeps `content` and returns the path of its URI. */
  put(name: string, content: string): string {
    const path = `/${this.prefix}${privateToken()}/${name}`;
    this.texts.set(path, content);
    if (this.texts.size > KEEP) this.texts.delete(this.texts.keys().next().value!);
    return path;
  }

  get(path: string): string | undefined { return this.texts.get(path); }

  clear(): void { this.texts.clear(); }
}

/** Shows a snapshot's document beside the current editor, keeping focus where it is (on the prompt). */
export async function showBeside(uri: vscode.Uri): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(doc, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Beside });
}

export class ReadOnlySnapshots implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly snapshots = new SnapshotStore();
  private readonly registration: vscode.Disposable;

  constructor(readonly scheme: string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.snapshots.get(uri.path) ?? vscode.l10n.t('(this snapshot is gone)');
  }

  /** Shows `content` in a read-only editor beside the current one, keeping focus where it is (on the prompt). */
  show(name: string, content: string): Promise<vscode.TextEditor> {
    return showBeside(vscode.Uri.from({ scheme: this.scheme, path: this.snapshots.put(name, content) }));
  }

  dispose(): void {
    this.registration.dispose();
    this.snapshots.clear();
  }
}

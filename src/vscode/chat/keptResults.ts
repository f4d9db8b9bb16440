/**
 * Tool results too large for the model's context, kept whole: the user opens them as read-only
 * documents (`mcp-result:` URIs, shown as references in chat) and models page through them.
 */
import * as vscode from 'vscode';
import { pageOf, RESULT_SCHEME, ResultStore } from '../../core';

export class KeptResults implements vscode.TextDocumentContentProvider, vscode.Disposable {
  readonly store = new ResultStore();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, this);

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.store.get(uri.toString())?.text ?? vscode.l10n.t('(this tool result is no longer kept)');
  }

  /** One page for a model, or why there is none. */
  read(uri: string, offset?: number, length?: number): string {
    const kept = this.store.get(uri);
    return kept ? pageOf(kept.uri, kept.text, offset, length) : `No kept tool result is named ${uri} (results are kept for this session, oldest dropped first).`;
  }

  dispose(): void { this.registration.dispose(); }
}

/**
 * The extension's one URI handler (VS Code allows one per extension): `/install` links go to the
 * installer, everything else to the sign-in callback.
 */
import type * as vscode from 'vscode';

export class UriRouter implements vscode.UriHandler {
  private readonly routes = new Map<string, (uri: vscode.Uri) => unknown>();

  constructor(private readonly fallback: vscode.UriHandler) {}

  route(path: string, handler: (uri: vscode.Uri) => unknown): void { this.routes.set(path, handler); }

  handleUri(uri: vscode.Uri): void {
    const handler = this.routes.get(uri.path);
    if (handler) void handler(uri);
    else this.fallback.handleUri(uri);
  }
}

import * as vscode from 'vscode';

export function activate(_context: vscode.ExtensionContext): void {
  // Wired to the host core in src/vscode (see issue "Extension shell").
}

export function deactivate(): void {}

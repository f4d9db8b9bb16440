/** The one place where a VS Code CancellationToken becomes an AbortSignal for the core. */
import type * as vscode from 'vscode';

export function toAbortSignal(token: vscode.CancellationToken | undefined): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  if (!token) return { signal: ac.signal, dispose() {} };
  if (token.isCancellationRequested) ac.abort();
  const sub = token.onCancellationRequested(() => ac.abort());
  return { signal: ac.signal, dispose: () => sub.dispose() };
}

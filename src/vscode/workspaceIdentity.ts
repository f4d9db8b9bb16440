/** The open workspace as approvals, inputs and cached catalogues are bound to it. No core import: the early bundle uses it. */
import * as vscode from 'vscode';

/** The open workspace: its `.code-workspace` file, or its (first) folder. */
export function workspaceIdentity(): string {
  return (vscode.workspace.workspaceFile ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? '';
}

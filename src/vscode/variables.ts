/** What `${…}` variables in server declarations resolve against in VS Code (the host's and the activation side's alike). */
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { VariableContext } from '../core/config/types';

export function variableContext(resolveInput?: VariableContext['resolveInput']): VariableContext {
  return {
    get workspaceFolders() { return (vscode.workspace.workspaceFolders ?? []).map(f => ({ name: f.name, path: f.uri.fsPath })); },
    get trusted() { return vscode.workspace.isTrusted; },
    userHome: os.homedir(),
    env: process.env,
    resolveInput,
  };
}

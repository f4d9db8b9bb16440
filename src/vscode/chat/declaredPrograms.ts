/**
 * The program each `mcpHost.servers` entry runs, per settings layer (core `programIdentity`), read
 * straight from the layers: a user server shadowed by a workspace server of the same name is still
 * declared, so its approvals are kept for when the workspace closes.
 */
import * as vscode from 'vscode';
import { programIdentity, type DeclaredProgram, type ProgramIdentity, type ServerScope } from '../../core';
import { SECTION } from '../config';
import { workspaceIdentity } from '../inputs';

export function declaredProgram(server: string, scope: ServerScope): (DeclaredProgram & Pick<ProgramIdentity, 'workspace'>) | undefined {
  const info = vscode.workspace.getConfiguration(SECTION).inspect<Record<string, unknown>>('servers');
  const layer = scope === 'user' ? info?.globalValue : scope === 'workspace' ? info?.workspaceValue : info?.workspaceFolderValue;
  if (!layer || typeof layer !== 'object' || Array.isArray(layer) || !Object.prototype.hasOwnProperty.call(layer, server)) return undefined;
  const identity = programIdentity(layer[server], { scope, workspace: workspaceIdentity() });
  return identity && { scope, program: identity.id, ...(identity.workspace !== undefined ? { workspace: identity.workspace } : {}) };
}

/**
 * The program each `mcpHost.servers` entry runs, per settings layer (core `programIdentity`), read
 * straight from the layers: a user server shadowed by a workspace server of the same name is still
 * declared, so its approvals are kept for when the workspace closes. The env file's content is part
 * of the program, and so is the launch folder of a server without an absolute `cwd`: it is read (as a start reads it: bounded, never a FIFO) each time the identity is asked.
 */
import * as vscode from 'vscode';
import { catalogKeyInputs, programIdentity, type DeclaredProgram, type ProgramIdentity, type ServerScope } from '../../core';
import { SECTION } from '../config';
import { workspaceIdentity } from '../inputs';
import { variableContext } from '../variables';

/** `discovered`: the declaration of a discovered server (mcpHost.discovery) by host name; they are workspace-scoped. */
export async function declaredProgram(server: string, scope: ServerScope, discovered?: (server: string) => unknown): Promise<(DeclaredProgram & Pick<ProgramIdentity, 'workspace'>) | undefined> {
  const info = vscode.workspace.getConfiguration(SECTION).inspect<Record<string, unknown>>('servers');
  const layer = scope === 'user' ? info?.globalValue : scope === 'workspace' ? info?.workspaceValue : info?.workspaceFolderValue;
  const inSettings = !!layer && typeof layer === 'object' && !Array.isArray(layer) && Object.prototype.hasOwnProperty.call(layer, server);
  const declaration = inSettings ? layer[server] : scope === 'workspace' ? discovered?.(server) : undefined;
  if (declaration === undefined) return undefined;
  // The workspace is read with the declaration, before the file is: both describe the same moment.
  const workspace = workspaceIdentity();
  // The env file's text and the launch folder, read as the catalogue key reads them (the same program inputs).
  const identity = programIdentity(declaration, { scope, workspace }, await catalogKeyInputs(declaration, variableContext()));
  return identity && { scope, program: identity.id, ...(identity.workspace !== undefined ? { workspace: identity.workspace } : {}) };
}

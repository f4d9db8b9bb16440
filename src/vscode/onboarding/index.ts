/**
 * Onboarding commands: Add Server, Import Servers and the Get Started walkthrough. Their own small
 * command table (the ids are contributed in package.json like every other command).
 */
import * as vscode from 'vscode';
import { addServer } from './addServer';
import { editServer } from './editServer';
import type { OnboardingContext } from './declareAndStart';
import { importServers, type ImportArgs } from './importServers';

export const WALKTHROUGH_ID = 'mcp-host.mcp-host#mcpHost.gettingStarted';

/** `fileOf`: the file a discovered server comes from (Edit Server opens it rather than editing it). */
export function registerOnboarding(ctx: OnboardingContext, extension: vscode.ExtensionContext, fileOf: (name: string) => string | undefined = () => undefined): vscode.Disposable[] {
  // <user-data>/User/globalStorage/<extension id> → <user-data>/User: where this editor keeps the user mcp.json.
  const userDir = vscode.Uri.joinPath(extension.globalStorageUri, '..', '..');
  const table: Record<string, (...args: unknown[]) => unknown> = {
    'mcpHost.addServer': () => addServer(ctx),
    // From a server row (its node) or with a server name (the API, tests).
    'mcpHost.editServer': arg => editServer(ctx, typeof arg === 'string' ? arg : (arg as { name?: string } | undefined)?.name, fileOf),
    'mcpHost.importServers': arg => importServers(ctx, arg as ImportArgs | vscode.Uri | string | undefined, userDir),
    'mcpHost.openWalkthrough': () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false),
  };
  return Object.entries(table).map(([id, handler]) => vscode.commands.registerCommand(id, handler));
}

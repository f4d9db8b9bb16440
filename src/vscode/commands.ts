/**
 * Every command in one table, registered in a loop. Tree-item-only commands are hidden from the
 * palette in package.json (`"when": "false"` or a `view ==` clause); a test checks the table and
 * the manifest agree.
 */
import * as vscode from 'vscode';
import type { ServerConnection } from '../core';
import { findPropertyOffset } from '../core/onboarding';
import type { HostController } from './hostController';
import type { InputStore } from './inputs';
import type { ServerLogs } from './logs';
import type { ServerNode } from './views/serversTree';
import { brandingOf } from './views/branding';
import { openUrlForServer } from './safeUrl';
import { showError, showInfo } from './notify';

export interface CommandContext {
  readonly controller: HostController;
  readonly logs: ServerLogs;
  readonly inputs: InputStore;
}

type ServerArg = ServerNode | string | undefined;
type Handler = (ctx: CommandContext, ...args: unknown[]) => unknown;

export const commandTable: Record<string, Handler> = {
  'mcpHost.startServer': async (ctx, arg) => { const s = await pickServer(ctx, arg as ServerArg, vscode.l10n.t('Start MCP server')); if (s) await s.start(); },
  'mcpHost.stopServer': async (ctx, arg) => { const s = await pickServer(ctx, arg as ServerArg, vscode.l10n.t('Stop MCP server')); if (s) await s.stop(); },
  'mcpHost.restartServer': async (ctx, arg) => { const s = await pickServer(ctx, arg as ServerArg, vscode.l10n.t('Restart MCP server')); if (s) await s.restart(); },
  'mcpHost.showServerLog': async (ctx, arg) => {
    const name = typeof arg === 'string' ? arg : (arg as ServerNode | undefined)?.name ?? (await pickServer(ctx, undefined, vscode.l10n.t('Show log of MCP server')))?.name;
    if (name) ctx.logs.show(name);
  },
  'mcpHost.openServerDeclaration': (ctx, arg) => openDeclaration(ctx, typeof arg === 'string' ? arg : (arg as ServerNode | undefined)?.name),
  'mcpHost.openServerWebsite': (ctx, arg) => openWebsite(ctx, typeof arg === 'string' ? arg : (arg as ServerNode | undefined)?.name),
  'mcpHost.showServers': ctx => showServers(ctx),
  'mcpHost.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'mcpHost.servers', edit: true } }),
  'mcpHost.clearStoredInputs': async ctx => {
    const n = await ctx.inputs.clear();
    void showInfo(vscode.l10n.t('Cleared {0} stored MCP input value(s). Servers will ask again on their next start.', n));
  },
  'mcpHost.reloadServers': ctx => ctx.controller.reload(),
};

export function registerCommands(ctx: CommandContext): vscode.Disposable[] {
  return Object.entries(commandTable).map(([id, handler]) => vscode.commands.registerCommand(id, (...args: unknown[]) => handler(ctx, ...args)));
}

async function pickServer(ctx: CommandContext, arg: ServerArg, title: string): Promise<ServerConnection | undefined> {
  const host = ctx.controller.host;
  const name = typeof arg === 'string' ? arg : arg?.name;
  if (name) {
    const conn = host.get(name);
    if (!conn) void showError(vscode.l10n.t('No MCP server named "{0}" is configured.', name));
    return conn;
  }
  if (!host.servers.length) {
    void showInfo(vscode.l10n.t('No MCP servers are configured. Add one under "mcpHost.servers" in your settings.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(host.servers.map(s => ({ label: s.name, description: s.state, conn: s })), { title, placeHolder: vscode.l10n.t('Select a server') });
  return picked?.conn;
}

/**
 * The website a running server gave (serverInfo.websiteUrl), after the user saw the full URL and agreed.
 * Only a website the core accepted is offered; openUrlForServer checks it again before opening.
 */
async function openWebsite(ctx: CommandContext, name: string | undefined): Promise<void> {
  const conn = name ? ctx.controller.host.get(name) : undefined;
  if (!conn || !name) return;
  const website = brandingOf(conn).website;
  if (!website) {
    void showError(vscode.l10n.t('MCP server "{0}" gives no website MCP Host can open (only https links, or http to this computer).', name));
    return;
  }
  await openUrlForServer(website.href, { server: name, confirm: { message: vscode.l10n.t('Open the website of MCP server "{0}"?', name), button: vscode.l10n.t('Open Website') } });
}

async function showServers(ctx: CommandContext): Promise<void> {
  const host = ctx.controller.host;
  type Item = vscode.QuickPickItem & { conn?: ServerConnection; problem?: string };
  const items: Item[] = host.servers.map(s => ({
    label: `$(${s.needsTrust ? 'workspace-untrusted' : s.state === 'running' ? 'pass' : s.state === 'error' ? 'error' : s.state === 'starting' ? 'loading~spin' : 'circle-outline'}) ${s.name}`,
    description: s.state, detail: s.message, conn: s,
  }));
  for (const p of ctx.controller.problems.filter(x => x.severity === 'error')) items.push({ label: `$(error) ${p.server}`, description: vscode.l10n.t('invalid declaration'), detail: p.message, problem: p.server });
  for (const n of ctx.controller.untrusted) items.push({ label: `$(workspace-untrusted) ${n}`, description: vscode.l10n.t('not started: workspace not trusted') });
  if (!items.length) {
    await commandTable['mcpHost.openSettings'](ctx);
    return;
  }
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('MCP Servers'), placeHolder: vscode.l10n.t('Select a server to manage') });
  if (!picked) return;
  if (picked.problem) return openDeclaration(ctx, picked.problem);
  const conn = picked.conn;
  if (!conn) return vscode.commands.executeCommand('workbench.trust.manage') as Promise<void>;
  const actions: (vscode.QuickPickItem & { run: () => unknown })[] = [
    conn.state === 'running' || conn.state === 'starting'
      ? { label: `$(debug-stop) ${vscode.l10n.t('Stop')}`, run: () => conn.stop() }
      : { label: `$(play) ${vscode.l10n.t('Start')}`, run: () => conn.start() },
    { label: `$(debug-restart) ${vscode.l10n.t('Restart')}`, run: () => conn.restart() },
    { label: `$(output) ${vscode.l10n.t('Show Log')}`, run: () => ctx.logs.show(conn.name) },
    { label: `$(go-to-file) ${vscode.l10n.t('Open Declaration')}`, run: () => openDeclaration(ctx, conn.name) },
  ];
  const action = await vscode.window.showQuickPick(actions, { title: conn.name });
  await action?.run();
}

async function openDeclaration(ctx: CommandContext, name: string | undefined): Promise<void> {
  const origin = name === undefined ? undefined : ctx.controller.discovered.originOf(name);
  if (origin) {
    // Another host's file (mcpHost.discovery): the server's entry there.
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(origin.file));
    const text = editor.document.getText();
    const at = text.indexOf(JSON.stringify(origin.name));
    if (at >= 0) editor.selection = new vscode.Selection(editor.document.positionAt(at), editor.document.positionAt(at + JSON.stringify(origin.name).length));
    return;
  }
  const scope = name ? ctx.controller.scopeOf(name) ?? 'user' : 'user';
  if (scope === 'workspace' && vscode.workspace.workspaceFile) await vscode.commands.executeCommand('workbench.action.openWorkspaceSettingsFile');
  else if (scope !== 'user' && vscode.workspace.workspaceFolders?.length) {
    const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, '.vscode', 'settings.json');
    await vscode.window.showTextDocument(uri);
  } else {
    await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'mcpHost.servers' } });
  }
  const editor = vscode.window.activeTextEditor;
  if (!editor || !name) return;
  // The server's own key: its name may also appear earlier as a value (another server's args) or in a comment.
  const inWorkspaceFile = scope === 'workspace' && !!vscode.workspace.workspaceFile;
  const at = findPropertyOffset(editor.document.getText(), [...(inWorkspaceFile ? ['settings'] : []), 'mcpHost.servers', name]);
  if (at >= 0) {
    const range = new vscode.Range(editor.document.positionAt(at), editor.document.positionAt(at + JSON.stringify(name).length));
    editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
  }
}

/**
 * Resource commands in one table, registered in a loop like src/vscode/commands.ts. Tree commands
 * receive `(node, selectedNodes)` from menus (the view allows multi-select); from the palette they
 * fall back to the view's selection or a QuickPick. Tree-only ones are hidden from the palette in
 * package.json.
 */
import * as vscode from 'vscode';
import { pickText } from '../pickText';
import type { ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { McpHost, ServerConnection } from '../../core';
import { attachToChat, openResource, saveResources, type ResourceTarget } from './resourceActions';
import type { ResourceFileSystem } from './resourceFileSystem';
import type { ResourcesTreeData, ResourceTreeNode } from './resourcesTree';
import type { ResourcesView } from './resourcesView';
import { fillTemplate } from './templateFill';
import { quickPickAsk } from './templatePicker';
import { inputBoxText, showError, showInfo } from '../notify';

export interface ResourceCommandContext {
  readonly host: McpHost;
  readonly fs: ResourceFileSystem;
  readonly data: ResourcesTreeData;
  readonly view: ResourcesView;
  readonly treeView: vscode.TreeView<ResourceTreeNode>;
}

/** A resource by reference, for callers outside the tree (keybindings, other extensions, tests). */
export interface ResourceArg { readonly server: string; readonly uri: string }
/** A template by reference; `values` pre-fill the variables (each is still confirmed in its step). */
export interface TemplateArg { readonly server: string; readonly uriTemplate: string; readonly values?: Record<string, string> }

type Handler = (ctx: ResourceCommandContext, ...args: unknown[]) => unknown;

export const FILTERED_CONTEXT_KEY = 'mcpHost.resourcesFiltered';

export const resourceCommandTable: Record<string, Handler> = {
  'mcpHost.openResource': async (ctx, arg, selection) => {
    const targets = resolveTargets(ctx, arg, selection, false) ?? await pickResource(ctx);
    const opened: vscode.Uri[] = [];
    for (const t of targets ?? []) opened.push(...await openResource(ctx.fs, t));
    return opened;
  },
  'mcpHost.openResourceTemplate': async (ctx, arg) => {
    const picked = resolveTemplate(ctx, arg) ?? await pickTemplate(ctx);
    if (!picked) return [];
    const filled = await fillTemplate(picked.template.uriTemplate, quickPickAsk(picked.conn, picked.template), picked.values);
    if (!filled) return [];
    return openResource(ctx.fs, { server: picked.conn.name, uri: filled.uri, name: picked.template.name, mimeType: picked.template.mimeType });
  },
  'mcpHost.copyResourceUri': async (ctx, arg, selection) => {
    const nodes = selectedNodes(ctx, arg, selection);
    const text = nodes.map(n => n.kind === 'resource' ? n.item.uri : n.kind === 'template' ? n.item.uriTemplate : undefined).filter(Boolean).join('\n')
      || (isResourceArg(arg) ? arg.uri : '');
    if (text) await vscode.env.clipboard.writeText(text);
    return text;
  },
  'mcpHost.saveResource': async (ctx, arg, selection, target) => {
    const targets = resolveTargets(ctx, arg, selection, true) ?? await pickResource(ctx);
    return targets?.length ? saveResources(ctx.fs, targets, target instanceof vscode.Uri ? target : undefined) : [];
  },
  'mcpHost.attachResourcesToChat': async (ctx, arg, selection) => {
    const targets = resolveTargets(ctx, arg, selection, true);
    if (!targets?.length) {
      void showInfo(vscode.l10n.t('Select one or more resources in the MCP Resources view to attach them to chat.'));
      return [];
    }
    return attachToChat(ctx.fs, targets);
  },
  'mcpHost.filterResources': async (ctx, text) => {
    if (typeof text === 'string') return setFilter(ctx, text);
    await filterInput(ctx);
  },
  'mcpHost.clearResourceFilter': ctx => setFilter(ctx, ''),
  'mcpHost.loadMoreResources': (ctx, node) => {
    const server = (node as ResourceTreeNode | undefined)?.server ?? (typeof node === 'string' ? node : undefined);
    if (!server) return;
    ctx.data.loadMore(server);
    ctx.view.refresh(server);
  },
  'mcpHost.refreshResources': async ctx => {
    await Promise.all(ctx.host.servers.filter(s => s.state === 'running' && s.capabilities?.resources).map(s => s.reload(['resources', 'resourceTemplates'])
      .catch(e => s.logger.warn(`Refreshing resources failed: ${e instanceof Error ? e.message : String(e)}`))));
  },
};

export function registerResourceCommands(ctx: ResourceCommandContext): vscode.Disposable[] {
  return Object.entries(resourceCommandTable).map(([id, handler]) => vscode.commands.registerCommand(id, (...args: unknown[]) => handler(ctx, ...args)));
}

// ---- arguments ---------------------------------------------------------------------------------

function isNode(x: unknown): x is ResourceTreeNode {
  return typeof x === 'object' && x !== null && typeof (x as { kind?: unknown }).kind === 'string' && typeof (x as { server?: unknown }).server === 'string';
}
function isResourceArg(x: unknown): x is ResourceArg {
  return typeof x === 'object' && x !== null && !isNode(x) && typeof (x as ResourceArg).server === 'string' && typeof (x as ResourceArg).uri === 'string';
}

/** Menus pass (clicked, selection); palette invocations pass nothing (then the view's selection counts when `useSelection`). */
function selectedNodes(ctx: ResourceCommandContext, arg: unknown, selection: unknown): ResourceTreeNode[] {
  if (Array.isArray(selection) && selection.length && selection.every(isNode)) return selection;
  if (isNode(arg)) return [arg];
  if (arg === undefined) return [...ctx.treeView.selection];
  return [];
}

function resolveTargets(ctx: ResourceCommandContext, arg: unknown, selection: unknown, useSelection: boolean): ResourceTarget[] | undefined {
  if (Array.isArray(arg) && arg.every(isResourceArg)) return arg.map(a => withListing(ctx, a));
  if (isResourceArg(arg)) return [withListing(ctx, arg)];
  const nodes = arg === undefined && !useSelection ? [] : selectedNodes(ctx, arg, selection);
  const targets = nodes.flatMap(n => n.kind === 'resource' ? [{ server: n.server, uri: n.item.uri, name: n.item.name, mimeType: n.item.mimeType }] : []);
  return targets.length ? targets : undefined;
}

/** Adds the listing's name and MIME type to a bare reference when the server lists that URI. */
function withListing(ctx: ResourceCommandContext, a: ResourceArg): ResourceTarget {
  const listed = ctx.host.get(a.server)?.catalog.get('resources').find(r => r.uri === a.uri);
  return { server: a.server, uri: a.uri, name: listed?.name, mimeType: listed?.mimeType };
}

interface PickedTemplate { conn: ServerConnection; template: ResourceTemplate; values?: Record<string, string> }

function resolveTemplate(ctx: ResourceCommandContext, arg: unknown): PickedTemplate | undefined {
  if (isNode(arg) && arg.kind === 'template') {
    const conn = ctx.host.get(arg.server);
    return conn && { conn, template: arg.item };
  }
  const a = arg as TemplateArg | undefined;
  if (a && typeof a.server === 'string' && typeof a.uriTemplate === 'string') {
    const conn = ctx.host.get(a.server);
    if (!conn) { void showError(vscode.l10n.t('No MCP server named "{0}" is configured.', a.server)); return undefined; }
    const template = conn.catalog.get('resourceTemplates').find(t => t.uriTemplate === a.uriTemplate) ?? { name: a.uriTemplate, uriTemplate: a.uriTemplate };
    return { conn, template, values: a.values };
  }
  return undefined;
}

// ---- pickers -----------------------------------------------------------------------------------

async function pickResource(ctx: ResourceCommandContext): Promise<ResourceTarget[] | undefined> {
  type Item = vscode.QuickPickItem & { target: ResourceTarget };
  const items: (Item | vscode.QuickPickItem)[] = [];
  for (const conn of ctx.host.servers) {
    const list = conn.catalog.get('resources');
    if (!list.length) continue;
    items.push({ label: conn.name, kind: vscode.QuickPickItemKind.Separator });
    for (const r of list) items.push({ label: pickText(r.title || r.name), description: pickText(r.uri), detail: r.description ? pickText(r.description) : undefined, target: { server: conn.name, uri: r.uri, name: r.name, mimeType: r.mimeType } });
  }
  if (!items.length) {
    void showInfo(vscode.l10n.t('No MCP server offers resources right now.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Open MCP Resource'), placeHolder: vscode.l10n.t('Type to search resources by name or URI'), matchOnDescription: true });
  return picked && 'target' in picked ? [picked.target] : undefined;
}

async function pickTemplate(ctx: ResourceCommandContext): Promise<PickedTemplate | undefined> {
  type Item = vscode.QuickPickItem & { choice?: PickedTemplate };
  const items: Item[] = [];
  for (const conn of ctx.host.servers) {
    const list = conn.catalog.get('resourceTemplates');
    if (!list.length) continue;
    items.push({ label: conn.name, kind: vscode.QuickPickItemKind.Separator });
    for (const t of list) items.push({ label: pickText(t.title || t.name), description: pickText(t.uriTemplate), detail: t.description ? pickText(t.description) : undefined, choice: { conn, template: t } });
  }
  if (!items.length) {
    void showInfo(vscode.l10n.t('No MCP server offers resource templates right now.'));
    return undefined;
  }
  return (await vscode.window.showQuickPick(items, { title: vscode.l10n.t('Open MCP Resource Template'), matchOnDescription: true }))?.choice;
}

// ---- filter ------------------------------------------------------------------------------------

function setFilter(ctx: ResourceCommandContext, text: string): void {
  ctx.data.setFilter(text);
  ctx.treeView.description = ctx.data.filter ? vscode.l10n.t('Filter: {0}', ctx.data.filter) : undefined;
  void vscode.commands.executeCommand('setContext', FILTERED_CONTEXT_KEY, !!ctx.data.filter);
  ctx.view.refresh();
}

/** Filters as you type (debounced); Enter keeps the filter, Escape restores the previous one. */
async function filterInput(ctx: ResourceCommandContext): Promise<void> {
  const before = ctx.data.filter;
  const input = vscode.window.createInputBox();
  input.title = vscode.l10n.t('Filter MCP Resources');
  input.prompt = inputBoxText(vscode.l10n.t('Matches resource and template names, titles and URIs across all servers'));
  input.placeholder = vscode.l10n.t('e.g. readme or file:///docs');
  input.value = before;
  let timer: NodeJS.Timeout | undefined;
  const disposables: vscode.Disposable[] = [input];
  try {
    await new Promise<void>(resolve => {
      let accepted = false;
      disposables.push(
        input.onDidChangeValue(v => { clearTimeout(timer); timer = setTimeout(() => setFilter(ctx, v), 150); }),
        input.onDidAccept(() => { accepted = true; clearTimeout(timer); setFilter(ctx, input.value); input.hide(); }),
        input.onDidHide(() => { if (!accepted) { clearTimeout(timer); setFilter(ctx, before); } resolve(); }),
      );
      input.show();
    });
  } finally {
    clearTimeout(timer);
    for (const d of disposables) d.dispose();
  }
}

/**
 * The Resources view: tree items for ResourcesTreeData's nodes. Label = title or name, description =
 * MIME type and size, tooltip = description and URI; the icon is the resource's own MCP icon (made
 * safe by IconCache) or the file icon for its MIME type. Refreshes per server on catalog changes.
 */
import * as vscode from 'vscode';
import type { Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import { plainText, type McpHost } from '../../core';
import { iconHostOf, type IconCache, type ThemedIcon } from './icons';
import { fileNameFor, formatSize, listedKind } from './mime';
import { resourceFileUri } from './resourceFileSystem';
import type { ResourcesTreeData, ResourceTreeNode, ServerNode } from './resourcesTree';

export class ResourcesView implements vscode.TreeDataProvider<ResourceTreeNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<ResourceTreeNode | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly disposables: { dispose(): void }[] = [this._onDidChangeTreeData];
  private readonly pending = new Set<string>();
  private pendingRoot = false;
  private timer?: NodeJS.Timeout;

  constructor(private readonly host: McpHost, readonly data: ResourcesTreeData, private readonly icons: IconCache) {
    this.disposables.push(
      host.onDidChangeCatalog(e => { if (e.kind === 'resources' || e.kind === 'resourceTemplates') this.refresh(e.server); }),
      host.onDidChangeState(() => this.refresh()),
      host.onDidChangeServers(() => this.refresh()),
      icons.onDidResolve(() => this.refresh()),
    );
  }

  /** Repaints one server (its counts and children) or, without a name, everything; coalesced. */
  refresh(server?: string): void {
    if (server === undefined || !this.data.serverNode(server)) this.pendingRoot = true;
    else this.pending.add(server);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.pendingRoot) this._onDidChangeTreeData.fire(undefined);
      else for (const s of this.pending) this._onDidChangeTreeData.fire(this.data.serverNode(s));
      this.pendingRoot = false;
      this.pending.clear();
    }, 30);
  }

  getChildren(node?: ResourceTreeNode): ResourceTreeNode[] {
    return this.data.children(node);
  }

  getTreeItem(node: ResourceTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'server': return this.serverItem(node);
      case 'templates': {
        const item = new vscode.TreeItem(vscode.l10n.t('Resource Templates'), vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `${node.server}\u0000templates`;
        item.description = String(node.count);
        item.iconPath = new vscode.ThemeIcon('symbol-namespace');
        item.contextValue = 'resourceTemplates';
        return item;
      }
      case 'template': return this.templateItem(node.id, node.server, node.item, node);
      case 'resource': return this.resourceItem(node.id, node.server, node.item, node);
      case 'more': {
        const item = new vscode.TreeItem(vscode.l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
        item.id = `${node.server}\u0000more\u0000${node.shown}`;
        item.description = vscode.l10n.t('{0} of {1} shown', node.shown.toLocaleString(), node.total.toLocaleString());
        item.iconPath = new vscode.ThemeIcon('ellipsis');
        item.contextValue = 'loadMore';
        item.command = { command: 'mcpHost.loadMoreResources', title: vscode.l10n.t('Load more…'), arguments: [node] };
        return item;
      }
      case 'message': {
        const text = node.message === 'loading' ? vscode.l10n.t('Loading…') : node.message === 'noMatch' ? vscode.l10n.t('No resources match the filter') : vscode.l10n.t('No resources');
        const item = new vscode.TreeItem(text, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.server}\u0000message`;
        item.contextValue = 'message';
        return item;
      }
    }
  }

  private serverItem(node: ServerNode): vscode.TreeItem {
    const conn = node.conn;
    const item = new vscode.TreeItem(node.server, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `server\u0000${node.server}`;
    item.iconPath = this.iconOf(node.server, conn.serverInfo?.icons) ?? new vscode.ThemeIcon('server');
    const c = this.data.counts(node.server);
    if (conn.state === 'starting') item.description = vscode.l10n.t('loading…');
    else if (c && this.data.filter) item.description = vscode.l10n.t('{0} of {1} match', (c.resources + c.templates).toLocaleString(), (c.totalResources + c.totalTemplates).toLocaleString());
    else if (c) {
      item.description = [
        c.resources ? (c.resources === 1 ? vscode.l10n.t('1 resource') : vscode.l10n.t('{0} resources', c.resources.toLocaleString())) : '',
        c.templates ? (c.templates === 1 ? vscode.l10n.t('1 template') : vscode.l10n.t('{0} templates', c.templates.toLocaleString())) : '',
      ].filter(Boolean).join(' · ');
    }
    const info = conn.serverInfo;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${escapeMd(label(info?.title ?? info?.name ?? node.server))}**${info?.version ? ` ${escapeMd(label(info.version))}` : ''}`);
    if (info?.description) md.appendMarkdown(`\n\n${escapeMd(plainText(info.description))}`);
    item.tooltip = md;
    item.contextValue = `resourceServer:${conn.state}${conn.capabilities?.resources?.subscribe ? ':subscribe' : ''}`;
    return item;
  }

  private resourceItem(id: string, server: string, r: Resource, node: ResourceTreeNode): vscode.TreeItem {
    // Names and titles are the server's text: no escapes, controls or bidi characters in the tree.
    const item = new vscode.TreeItem(label(r.title || r.name || r.uri), vscode.TreeItemCollapsibleState.None);
    item.id = id;
    item.description = label([r.mimeType, formatSize(r.size)].filter(Boolean).join(' · ')) || undefined;
    item.tooltip = tooltip(r.title || r.name, r.description, r.uri, r.mimeType, r.size, r.annotations);
    const own = this.iconOf(server, r.icons);
    // The file-icon theme picks the icon from the file name, whose extension comes from the MIME type.
    item.resourceUri = resourceFileUri(server, r.uri, 0, fileNameFor(r.uri, r.name, r.mimeType));
    item.iconPath = own ?? vscode.ThemeIcon.File;
    item.contextValue = `resource:${listedKind(r.mimeType)}`;
    item.command = { command: 'mcpHost.openResource', title: vscode.l10n.t('Open Resource'), arguments: [node] };
    return item;
  }

  private templateItem(id: string, server: string, t: ResourceTemplate, node: ResourceTreeNode): vscode.TreeItem {
    const item = new vscode.TreeItem(label(t.title || t.name), vscode.TreeItemCollapsibleState.None);
    item.id = id;
    item.description = label(t.uriTemplate);
    item.tooltip = tooltip(t.title || t.name, t.description, t.uriTemplate, t.mimeType, undefined, t.annotations);
    item.iconPath = this.iconOf(server, t.icons) ?? new vscode.ThemeIcon('symbol-snippet');
    item.contextValue = 'resourceTemplate';
    item.command = { command: 'mcpHost.openResourceTemplate', title: vscode.l10n.t('Open Resource Template'), arguments: [node] };
    return item;
  }

  /** A server's icons may come only from its own host (see icons.ts). */
  private iconOf(server: string, icons: Resource['icons']): { light: vscode.Uri; dark: vscode.Uri } | undefined {
    const declaration = this.host.get(server)?.declaration;
    return this.icon(this.icons.get(icons, declaration && iconHostOf(declaration)));
  }

  private icon(i: ThemedIcon | undefined): { light: vscode.Uri; dark: vscode.Uri } | undefined {
    return i && { light: vscode.Uri.parse(i.light), dark: vscode.Uri.parse(i.dark) };
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

function tooltip(title: string, description: string | undefined, uri: string, mime: string | undefined, size: number | undefined, annotations: Resource['annotations']): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escapeMd(label(title))}**\n\n`);
  if (description) md.appendMarkdown(`${escapeMd(plainText(description))}\n\n`);
  md.appendMarkdown(`\`${plainText(uri, { singleLine: true }).replace(/`/g, "'")}\``);
  const facts = [mime, formatSize(size), annotations?.audience?.length ? vscode.l10n.t('for {0}', annotations.audience.join(', ')) : undefined,
    annotations?.priority !== undefined ? vscode.l10n.t('priority {0}', annotations.priority) : undefined,
    annotations?.lastModified ? vscode.l10n.t('modified {0}', annotations.lastModified) : undefined].filter(Boolean);
  if (facts.length) md.appendMarkdown(`\n\n${escapeMd(plainText(facts.join(' · ')))}`);
  return md;
}

/** Server-provided text on one line, without escapes, controls or bidi characters. */
function label(s: string): string { return plainText(s, { singleLine: true, maxLength: 200 }); }

function escapeMd(s: string): string { return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&'); }

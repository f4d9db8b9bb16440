/** The Servers view: state icon, transport and counts (or the error), tooltip with server details. */
import * as vscode from 'vscode';
import { appResourceUri, offersSkills, plainText, toolVisibility, type CachedCatalog, type ServerConnection } from '../../core';
import type { HostController } from '../hostController';
import { catalogCounts, catalogNodes, serverNodes, type ServerNode } from './serversTree';
import { toolTreeItem } from '../tools/toolTreeItem';
import { promptTreeItem } from '../prompts/promptTreeItem';
import { discoveryTreeItem } from './discoveryItems';
import { skillNodes, skillTreeItem } from './skillItems';
import { sourceChildren } from './discoveryNodes';
import type { OfferLines } from '../native/offeredIn';
import { hostLabel } from '../safeUrl';
import { brandingOf } from './branding';
import type { ServerIconFiles } from './serverIconFiles';

export class ServersView implements vscode.TreeDataProvider<ServerNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly subscription: vscode.Disposable;
  private refreshTimer?: NodeJS.Timeout;

  /** `icons`: where a running server's own icon is written; without it every row keeps its state icon. */
  constructor(private readonly controller: HostController, private readonly offers?: OfferLines, private readonly icons?: ServerIconFiles) {
    // Coalesce bursts (catalog refreshes of many servers) into one repaint.
    const repaint = () => {
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => this._onDidChangeTreeData.fire(), 30);
    };
    const sub = controller.onDidChange(repaint);
    const offered = offers?.onDidChange(repaint);
    const written = icons?.onDidWrite(repaint);
    this.subscription = { dispose: () => { sub.dispose(); offered?.dispose(); written?.dispose(); } };
  }

  getChildren(node?: ServerNode): ServerNode[] | Promise<ServerNode[]> {
    if (node?.kind === 'server') {
      const catalog = catalogNodes(node.conn, this.controller.host.cachedCatalog(node.name));
      return offersSkills(node.conn) ? skillNodes(this.controller.host, node.conn).then(skills => [...skills, ...catalog]) : catalog;
    }
    if (node?.kind === 'source') return sourceChildren(this.controller, node.source);
    return node ? [] : serverNodes(this.controller);
  }

  getTreeItem(node: ServerNode): vscode.TreeItem {
    if (node.kind === 'prompt') return cachedMark(promptTreeItem(node.server, node.prompt), node.cached);
    if (node.kind === 'tool') return cachedMark(toolTreeItem(node.server, node.tool), node.cached);
    if (node.kind === 'skill') return skillTreeItem(node.skill);
    if (node.kind === 'source' || node.kind === 'withheld' || node.kind === 'sourceFile') return discoveryTreeItem(this.controller, node);
    const origin = this.controller.discovered.originOf(node.name);
    // A discovered server is shown by the name its file gives it, under its source's node.
    const item = new vscode.TreeItem(origin?.name ?? node.name, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.kind}:${node.name}`;
    if (node.kind === 'problem') {
      item.iconPath = new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
      item.description = node.problems[0].message;
      // A problem's message quotes the declaration (a workspace's text): shown literally, as the row's tooltip below is.
      item.tooltip = new vscode.MarkdownString(node.problems.map(p => `- ${p.field ? `${escape(plainText(p.field, { singleLine: true }))}: ` : ''}${escape(plainText(p.message))}`).join('\n'));
      item.contextValue = 'problem';
      item.command = { command: 'mcpHost.openServerDeclaration', title: vscode.l10n.t('Open Declaration'), arguments: [node] };
      return item;
    }
    if (node.kind === 'untrusted') {
      item.iconPath = new vscode.ThemeIcon('workspace-untrusted');
      item.description = vscode.l10n.t('Not started: this workspace is not trusted');
      item.tooltip = vscode.l10n.t('Servers declared in workspace settings start only in a trusted workspace. Click to manage Workspace Trust.');
      item.contextValue = 'untrusted';
      item.command = { command: 'workbench.trust.manage', title: vscode.l10n.t('Manage Workspace Trust') };
      return item;
    }
    const conn = node.conn;
    if (conn.needsTrust) return waitingForTrustItem(item, conn);
    const cached = this.controller.host.cachedCatalog(conn.name);
    const branding = brandingOf(conn);
    // The server's own picture only while it runs (files MCP Host wrote from checked bytes); otherwise, and until the file is written, the state icon.
    const ownIcon = conn.state === 'running' && !conn.needsSignIn && branding.icons ? this.icons?.uris(branding.icons) : undefined;
    item.iconPath = ownIcon ?? stateIcon(conn);
    const described = conn.sandboxed ? `${describe(conn, cached)} · ${vscode.l10n.t('sandboxed')}` : describe(conn, cached);
    // The picture replaces the state icon (the green dot, the sandbox shield): the row still says it runs.
    item.description = plainText(ownIcon ? `${stateLabel(conn)} · ${described}` : described, { singleLine: true });
    const scope = this.controller.scopeOf(conn.name);
    item.tooltip = tooltip(conn, origin ? origin.file : scope && `${scope} ${vscode.l10n.t('settings')}`, this.offers?.line(conn));
    // `:needsSignIn` / `:signedIn` (OAuth) select the Sign In / Sign Out actions in package.json menus;
    // `:website`, always last, offers Open Website (menus match it with `(:website)?$`).
    item.contextValue = `server:${conn.state}${conn.needsSignIn ? ':needsSignIn' : conn.authStatus === 'signedIn' ? ':signedIn' : ''}${branding.website ? ':website' : ''}`;
    const counts = catalogCounts(conn, cached);
    if (counts.prompts || counts.tools || (conn.state === 'running' && offersSkills(conn))) item.collapsibleState = vscode.TreeItemCollapsibleState.Collapsed;
    return item;
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    this.subscription.dispose();
    this._onDidChangeTreeData.dispose();
  }
}

/** A user server whose declaration depends on the untrusted workspace folders: like a withheld workspace server. */
function waitingForTrustItem(item: vscode.TreeItem, conn: ServerConnection): vscode.TreeItem {
  item.iconPath = new vscode.ThemeIcon('workspace-untrusted');
  item.description = vscode.l10n.t('Not started: waiting for Workspace Trust');
  const fields = conn.trustRequirements.map(r => `- \`${r.field}\` ${escape(r.reason)}`).join('\n');
  item.tooltip = new vscode.MarkdownString(`${vscode.l10n.t('Not started: this declaration depends on the workspace folder, and the workspace is not trusted. It starts as soon as you trust the workspace. Click to manage Workspace Trust.')}\n\n${fields}`);
  // `:needsTrust` keeps the Start/Stop actions (package.json menus) off: starting would only wait again.
  item.contextValue = `server:${conn.state}:needsTrust`;
  item.command = { command: 'workbench.trust.manage', title: vscode.l10n.t('Manage Workspace Trust') };
  return item;
}

function stateIcon(conn: ServerConnection): vscode.ThemeIcon {
  if (conn.needsSignIn) return new vscode.ThemeIcon('account', new vscode.ThemeColor('list.warningForeground'));
  if (conn.sandboxed && conn.state === 'running') return new vscode.ThemeIcon('shield', new vscode.ThemeColor('testing.iconPassed'));
  switch (conn.state) {
    case 'running': return new vscode.ThemeIcon('circle-filled', new vscode.ThemeColor('testing.iconPassed'));
    case 'starting': return new vscode.ThemeIcon('loading~spin');
    case 'error': return new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'));
    default: return new vscode.ThemeIcon('circle-outline');
  }
}

/** A tool or prompt of a server that is not running, from the catalogue cache: shown, not yet listed by a running server. */
function cachedMark(item: vscode.TreeItem, cached: true | undefined): vscode.TreeItem {
  if (!cached) return item;
  item.description = [item.description, vscode.l10n.t('cached')].filter(Boolean).join(' · ');
  item.id = `${item.id ?? ''}:cached`;
  return item;
}

function describe(conn: ServerConnection, cached?: CachedCatalog): string {
  const transport = conn.transportKind ?? conn.declaration.type;
  switch (conn.state) {
    case 'running': { const c = countsText(conn); return c ? `${transport} · ${c}` : transport; }
    case 'starting': {
      const recovery = conn.recovery === 'reconnecting' ? vscode.l10n.t('reconnecting…') : conn.recovery === 'restarting' ? vscode.l10n.t('restarting…') : undefined;
      if (!recovery) return conn.message ?? vscode.l10n.t('starting…');
      return conn.message ? `${recovery} ${conn.message}` : recovery;
    }
    case 'error': {
      if (conn.needsSignIn && conn.message === 'needs sign-in') return vscode.l10n.t('needs sign-in');
      // The last thing a server that would not start wrote is usually why (`missing API_KEY`): first, where the row has room.
      const last = conn.stderrTail.at(-1);
      return last ? vscode.l10n.t('stderr: {0} — {1}', last, conn.message ?? vscode.l10n.t('error')) : conn.message ?? vscode.l10n.t('error');
    }
    default: {
      const state = conn.declaration.disabled ? vscode.l10n.t('disabled') : conn.dormant ? vscode.l10n.t('starts when used') : vscode.l10n.t('stopped');
      const c = countsText(conn, cached);
      return c ? `${state} · ${vscode.l10n.t('{0} (cached)', c)}` : state;
    }
  }
}

/** "1 tool, 12 resources": separate singular and plural strings, so each language words both. */
export function countsText(conn: ServerConnection, cached?: CachedCatalog): string {
  const c = catalogCounts(conn, cached);
  return [
    c.tools ? (c.tools === 1 ? vscode.l10n.t('1 tool') : vscode.l10n.t('{0} tools', c.tools.toLocaleString())) : '',
    c.resources ? (c.resources === 1 ? vscode.l10n.t('1 resource') : vscode.l10n.t('{0} resources', c.resources.toLocaleString())) : '',
    c.prompts ? (c.prompts === 1 ? vscode.l10n.t('1 prompt') : vscode.l10n.t('{0} prompts', c.prompts.toLocaleString())) : '',
  ].filter(Boolean).join(', ');
}

function stateLabel(conn: ServerConnection): string {
  switch (conn.state) {
    case 'running': return vscode.l10n.t('running');
    case 'starting': return conn.recovery === 'reconnecting' ? vscode.l10n.t('reconnecting…') : conn.recovery === 'restarting' ? vscode.l10n.t('restarting…') : vscode.l10n.t('starting…');
    case 'error': return vscode.l10n.t('error');
    default: return conn.dormant ? vscode.l10n.t('starts when used') : vscode.l10n.t('stopped');
  }
}

function tooltip(conn: ServerConnection, declaredIn: string | undefined, offered: string | undefined): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  const info = conn.serverInfo;
  md.appendMarkdown(`**${escape(label(info?.title ?? info?.name ?? conn.name))}**${info?.version ? ` ${escape(label(info.version))}` : ''}\n\n`);
  md.appendMarkdown(`${vscode.l10n.t('State')}: ${stateLabel(conn)}${conn.message ? ` — ${escape(plainText(conn.message))}` : ''}\n\n`);
  const stderr = conn.state === 'running' ? [] : conn.stderrTail;
  if (stderr.length) md.appendMarkdown(`${vscode.l10n.t('Its last stderr lines:')}\n\n${stderr.map(l => `- ${escape(l)}`).join('\n')}\n\n`);
  md.appendMarkdown(`${vscode.l10n.t('Transport')}: ${conn.transportKind ?? conn.declaration.type}`);
  if (conn.protocolVersion) md.appendMarkdown(` · ${vscode.l10n.t('Protocol')}: ${conn.protocolVersion}`);
  if (declaredIn) md.appendMarkdown(` · ${vscode.l10n.t('Declared in')}: ${escape(declaredIn)}`);
  md.appendMarkdown('\n\n');
  // Only the host, as text: the URL itself is opened by the Open Website command, after a confirmation showing it in full.
  const website = brandingOf(conn).website;
  if (website) md.appendMarkdown(`${escape(vscode.l10n.t('Website: {0}', label(hostLabel(website))))}\n\n`);
  // No codicon here: the row's tooltip draws none at all, so a server's own `$(…)` can never pass for ours.
  if (offered) md.appendMarkdown(`${escape(offered)}\n\n`);
  if (conn.sandboxed) md.appendMarkdown(`$(shield) ${vscode.l10n.t('Sandboxed: writes only inside its roots and its data folder, cannot read secret folders, reaches only allowed hosts.')}\n\n`);
  // Tools only the app itself calls are not listed: no model or user runs them.
  const withApps = conn.catalog.get('tools').filter(t => appResourceUri(t) && toolVisibility(t).model).map(t => escape(label(t.name)));
  if (withApps.length) md.appendMarkdown(`$(window) ${vscode.l10n.t('Tools with an app: {0}', withApps.slice(0, 20).join(', ') + (withApps.length > 20 ? ', …' : ''))}\n\n`);
  if (conn.instructions) md.appendMarkdown(`---\n\n${escape(plainText(conn.instructions, { maxLength: 1500 }))}`);
  return md;
}

/** Server-provided text on one line, without escapes, controls or bidi characters. */
function label(s: string): string { return plainText(s, { singleLine: true, maxLength: 200 }); }

/**
 * Server text in the tooltip, shown literally: Markdown syntax escaped, and `$(icon)` syntax (the tooltip
 * renders theme icons for our own) written `\$(icon)`, the one form VS Code's renderer leaves as text —
 * escaping its parentheses instead would let Markdown unescape them into an icon again.
 */
function escape(s: string): string {
  let out = '', last = 0;
  for (const m of s.matchAll(ICON)) {
    out += markdown(s.slice(last, m.index)) + `\\$(${m[1]})`;
    last = m.index + m[0].length;
  }
  return out + markdown(s.slice(last));
}

const ICON = /\$\(([A-Za-z0-9-]+(?:~[A-Za-z0-9-]*)?)\)/g;
function markdown(s: string): string { return s.replace(/[\\`*_{}[\]()#+\-.!|<>$~]/g, '\\$&'); }

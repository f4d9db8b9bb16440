/**
 * The Servers view's part for `mcpHost.discovery`: one node per enabled source, holding the servers of
 * its files that run here, those that do not (and why), and the files or entries it could not use.
 */
import * as vscode from 'vscode';
import { DISCOVERY_SOURCES, type ConfigProblem, type DiscoverySource, type WithheldReason } from '../../core';
import type { HostController } from '../hostController';
import type { ServerNode } from './serverNode';

export const isDiscovered = (controller: HostController, name: string): boolean => controller.discovered.originOf(name) !== undefined;

export function sourceNodes(controller: HostController): ServerNode[] {
  const { enabled } = controller.discovered.discovered;
  return DISCOVERY_SOURCES.filter(s => enabled.has(s)).map(source => ({ kind: 'source', name: sourceLabel(source), source }));
}

export function sourceChildren(controller: HostController, source: DiscoverySource): ServerNode[] {
  const state = controller.discovered;
  const nodes: ServerNode[] = [];
  for (const conn of controller.host.servers) if (state.originOf(conn.name)?.source === source) nodes.push({ kind: 'server', name: conn.name, conn });
  const problems = new Map<string, ConfigProblem[]>();
  for (const p of controller.problems) {
    if (p.severity !== 'error' || state.originOf(p.server)?.source !== source) continue;
    problems.set(p.server, [...problems.get(p.server) ?? [], p]);
  }
  for (const [name, list] of problems) nodes.push({ kind: 'problem', name, problems: list });
  for (const w of state.plan.withheld) {
    if (w.server.source === source && w.why.kind !== 'nameTaken') nodes.push({ kind: 'withheld', name: w.server.key, label: w.server.name, why: w.why });
  }
  for (const f of state.discovered.files) {
    if (f.file.source !== source) continue;
    if (f.state.kind === 'error') nodes.push({ kind: 'sourceFile', name: f.file.path, message: f.state.message });
    if (f.state.kind === 'read') for (const s of f.state.skipped) nodes.push({ kind: 'sourceFile', name: f.file.path, server: s.name, message: s.reason });
  }
  return nodes;
}

/** How many servers of `source` run here, for its node's description. */
export function sourceSummary(controller: HostController, source: DiscoverySource): string {
  const state = controller.discovered;
  const files = state.discovered.files.filter(f => f.file.source === source);
  if (!files.some(f => f.state.kind !== 'missing')) return vscode.l10n.t('no configuration file found');
  const running = Object.keys(state.plan.run).filter(k => state.originOf(k)?.source === source).length;
  return running === 1 ? vscode.l10n.t('1 server') : vscode.l10n.t('{0} servers', running.toLocaleString());
}

export function withheldText(why: WithheldReason): string {
  switch (why.kind) {
    case 'duplicate': return vscode.l10n.t('Not started: runs already as "{0}"', why.of);
    case 'editorRuns': return vscode.l10n.t('Not started: VS Code\'s own MCP host runs it (set this source to "run" to start it here too)');
    case 'untrusted': return vscode.l10n.t('Not started: this workspace is not trusted');
    case 'nameTaken': return vscode.l10n.t('Not started: mcpHost.servers declares this name');
  }
}

/** Product names stay as they are; the part after them says which of the product's files it is. */
export function sourceLabel(source: DiscoverySource): string {
  switch (source) {
    case 'claudeDesktop': return 'Claude Desktop';
    case 'claudeCodeUser': return vscode.l10n.t('Claude Code (user)');
    case 'claudeCodeWorkspace': return vscode.l10n.t('Claude Code (workspace .mcp.json)');
    case 'cursorUser': return vscode.l10n.t('Cursor (user)');
    case 'cursorWorkspace': return vscode.l10n.t('Cursor (workspace)');
    case 'windsurf': return 'Windsurf';
    case 'vscodeUser': return vscode.l10n.t('VS Code (user mcp.json)');
    case 'vscodeWorkspace': return vscode.l10n.t('VS Code (workspace mcp.json)');
    case 'cline': return 'Cline';
    case 'roo': return vscode.l10n.t('Roo Code (user)');
    case 'rooWorkspace': return vscode.l10n.t('Roo Code (workspace)');
    case 'codex': return 'Codex';
  }
}

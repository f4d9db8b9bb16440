/** Tree items of the discovery part of the Servers view (see discoveryNodes.ts). */
import * as vscode from 'vscode';
import { plainText } from '../../core';
import type { HostController } from '../hostController';
import { sourceSummary, withheldText } from './discoveryNodes';
import type { ServerNode } from './serverNode';

type DiscoveryNode = Extract<ServerNode, { kind: 'source' | 'withheld' | 'sourceFile' }>;

export function discoveryTreeItem(controller: HostController, node: DiscoveryNode): vscode.TreeItem {
  switch (node.kind) {
    case 'source': {
      const item = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `source:${node.source}`;
      item.iconPath = new vscode.ThemeIcon('references');
      item.description = sourceSummary(controller, node.source);
      item.tooltip = new vscode.MarkdownString(controller.discovered.discovered.files.filter(f => f.file.source === node.source).map(f => `- \`${f.file.path.replace(/`/g, "'")}\``).join('\n'));
      item.contextValue = 'discoverySource';
      return item;
    }
    case 'withheld': {
      // Names and reasons come from another program's file: one clean line each.
      const item = new vscode.TreeItem(label(node.label), vscode.TreeItemCollapsibleState.None);
      item.id = `withheld:${node.name}`;
      item.iconPath = new vscode.ThemeIcon(node.why.kind === 'untrusted' ? 'workspace-untrusted' : 'circle-slash');
      item.description = label(withheldText(node.why));
      item.tooltip = controller.discovered.originOf(node.name)?.file;
      item.contextValue = `discovered:${node.why.kind}`;
      if (node.why.kind === 'untrusted') item.command = { command: 'workbench.trust.manage', title: vscode.l10n.t('Manage Workspace Trust') };
      return item;
    }
    case 'sourceFile': {
      const item = new vscode.TreeItem(label(node.server ?? node.name), vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      item.description = label(node.message);
      item.tooltip = node.name;
      // No click-to-open: a refused file may be a link the repository points at one of the user's files.
      item.contextValue = 'discoveryFile';
      return item;
    }
  }
}

function label(s: string): string { return plainText(s, { singleLine: true, maxLength: 200 }); }

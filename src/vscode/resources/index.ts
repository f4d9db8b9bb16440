/**
 * Wires the Resources feature: the `mcp-host-resource:` file system, subscriptions that follow open tabs,
 * the Resources view (multi-select) and its commands. extension.ts calls this once.
 */
import * as vscode from 'vscode';
import type { McpHost } from '../../core';
import { registerResourceCommands } from './commands';
import { IconCache } from './icons';
import { ResourceFileSystem } from './resourceFileSystem';
import { RESOURCE_SCHEME } from './resourceUri';
import { ResourcesTreeData } from './resourcesTree';
import { ResourcesView } from './resourcesView';
import { ResourceSubscriptions } from './subscriptions';
import { RESOURCES_VIEW_ID, type LateContributions } from '../lazy/contract';

export interface ResourcesFeature extends vscode.Disposable {
  readonly view: ResourcesView;
  readonly fs: ResourceFileSystem;
}

/** `late`: the view itself was created at activation (multi-select, collapse-all: see extension.ts). */
export function registerResources(host: McpHost, late: Pick<LateContributions, 'treeView'>): ResourcesFeature {
  const fs = new ResourceFileSystem(host);
  const icons = new IconCache();
  const data = new ResourcesTreeData(host);
  const view = new ResourcesView(host, data, icons);
  const treeView = late.treeView(RESOURCES_VIEW_ID, view);
  const disposables: vscode.Disposable[] = [
    vscode.workspace.registerFileSystemProvider(RESOURCE_SCHEME, fs, { isCaseSensitive: true, isReadonly: new vscode.MarkdownString(vscode.l10n.t('MCP resources are read-only. Use **Save to Workspace** to keep a copy.')) }),
    fs,
    new ResourceSubscriptions(host, fs),
    view,
    treeView,
    icons,
    ...registerResourceCommands({ host, fs, data, view, treeView }),
  ];
  return { view, fs, dispose: () => { for (const d of disposables.reverse()) d.dispose(); } };
}

/** The discovery part of the Servers view as the user sees it: source nodes and their children's items. */
import type * as vscode from 'vscode';
import type { TestApi } from './mcpHost';

export interface SeenItem { label: string; description: string; contextValue: string; tooltip: string }

const seen = (i: vscode.TreeItem): SeenItem => ({
  label: typeof i.label === 'string' ? i.label : i.label?.label ?? '',
  description: typeof i.description === 'string' ? i.description : '',
  contextValue: i.contextValue ?? '',
  tooltip: typeof i.tooltip === 'string' ? i.tooltip : (i.tooltip as vscode.MarkdownString | undefined)?.value ?? '',
});

/** The top-level source nodes (contextValue `discoverySource`) by label, each with its children's items. */
export async function sourceItems(a: TestApi): Promise<Map<string, { item: SeenItem; children: SeenItem[] }>> {
  const out = new Map<string, { item: SeenItem; children: SeenItem[] }>();
  for (const node of (await a.serversView.getChildren()) ?? []) {
    const item = seen(await a.serversView.getTreeItem(node));
    if (item.contextValue !== 'discoverySource') continue;
    const children = await Promise.all(((await a.serversView.getChildren(node)) ?? []).map(async c => seen(await a.serversView.getTreeItem(c))));
    out.set(item.label, { item, children });
  }
  return out;
}

/** Processes whose command line holds `marker` (Linux: /proc), to prove that nothing was spawned. */
export async function processesWith(marker: string): Promise<number[]> {
  const fs = await import('node:fs/promises');
  const pids: number[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(marker)) pids.push(Number(entry));
  }
  return pids;
}

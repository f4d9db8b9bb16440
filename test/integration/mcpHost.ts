/** Helpers for tests of MCP Host itself: its API, server declarations for our fixtures, tree items. */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../src/vscode/api';
import type { McpHostTestHooks } from '../hooks/testHooks';
import type { ServerConnection, ServerState } from '../../src/core';
import { activateMcpHost, setSetting, waitFor } from './helpers';

const repo = path.resolve(__dirname, '../../..');
export const fixture = (name: string) => path.join(repo, 'out/test/fixtures/servers', `${name}.js`);
export const everythingBin = path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemBin = path.join(repo, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

export function nodeServer(script: string, ...args: string[]) {
  return { command: process.execPath, args: [script, ...args] };
}

/** The public API with the development build's test hooks (`testing`) merged in: `api.host`, `api.reload()` … */
export type TestApi = McpHostApi & McpHostTestHooks & { readonly testing: McpHostTestHooks };

export async function api(): Promise<TestApi> {
  const exports = (await activateMcpHost<McpHostApi & { testing?: Promise<McpHostTestHooks> }>()).exports;
  if (!exports.testing) throw new Error('MCP Host exports no test hooks: the integration runs need the development bundle (npm run build), not --production');
  // The hooks come with the host bundle, which loads after activation (src/extension.ts).
  const testing = await exports.testing;
  // A prototype link, not a spread: the API's getters (toolActivity) stay live.
  // `testing` is a getter on the exports (which one cannot assign over), hence defined, not assigned.
  return Object.assign(Object.create(exports, { testing: { value: testing, enumerable: true } }) as TestApi, testing);
}

/** Sets `mcpHost.servers` (user settings) and waits until every enabled server has settled. */
export async function declareServers(servers: Record<string, unknown> | undefined): Promise<TestApi> {
  const a = await api();
  await setSetting('mcpHost.servers', servers);
  await a.reload();
  return a;
}

export async function waitState(conn: ServerConnection, state: ServerState, ms = 15_000): Promise<void> {
  await waitFor(() => conn.state === state, ms, `${conn.name} to be ${state} (is ${conn.state}: ${conn.message ?? ''})`);
}

/** The Servers view's items as the user sees them (label, description, contextValue). */
export async function serverItems(a: TestApi): Promise<{ label: string; description: string; contextValue: string; tooltip: string }[]> {
  const nodes = (await a.serversView.getChildren()) ?? [];
  const items = await Promise.all(nodes.map(n => a.serversView.getTreeItem(n)));
  return items.map(i => ({
    label: typeof i.label === 'string' ? i.label : i.label?.label ?? '',
    description: typeof i.description === 'string' ? i.description : '',
    contextValue: i.contextValue ?? '',
    tooltip: typeof i.tooltip === 'string' ? i.tooltip : (i.tooltip as vscode.MarkdownString | undefined)?.value ?? '',
  }));
}

export function textOf(result: { content?: unknown[] }): string {
  return (result.content ?? []).map(c => (c as { text?: string }).text ?? '').join('');
}

/** Every log file of this extension host (all of MCP Host's channels), path → text, read from disk. */
export async function readExtensionLogs(a: TestApi): Promise<Map<string, string>> {
  const dir = path.dirname(vscode.Uri.parse(a.logUri).fsPath);
  const out = new Map<string, string>();
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) out.set(path.join(entry.parentPath, entry.name), await fs.readFile(path.join(entry.parentPath, entry.name), 'utf8').catch(() => ''));
  }
  return out;
}

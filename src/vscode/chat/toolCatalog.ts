/** The enabled MCP tools of running servers (and the cached ones of servers that start when used) not excluded from chat, with their model-facing names, and their search index (tools an MCP App keeps for itself are never offered). */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { modelToolDescription, nameTools, ToolIndex, toolBudget, toolVisibility, type McpHost, type ToolBudget } from '../../core';
import { readSetting } from '../settingsReader';
import { chatExcludedServers, disabledPatterns, isToolEnabled } from './toolSettings';

export interface CatalogTool {
  readonly server: string;
  readonly tool: Tool;
  /** `<server>_<tool>`, valid for the language-model API and ≤ 64 characters. */
  readonly name: string;
}

export function enabledTools(host: McpHost): CatalogTool[] {
  // Settings are read once per call: this runs for every chat request, over every tool.
  const disabled = disabledPatterns();
  const excluded = new Set(chatExcludedServers());
  // Tools an MCP App keeps for itself (`_meta.ui.visibility: ["app"]`) are never offered to models.
  // A dormant server's cached tools are offered too: the model's call starts it, and the call goes by what it lists then.
  const owned = host.tools.filter(o => (o.cached || host.get(o.server)?.state === 'running') && !excluded.has(o.server) && toolVisibility(o.item).model && isToolEnabled(o.server, o.item.name, disabled));
  const named = nameTools(owned.map(o => ({ server: o.server, tool: o.item.name })));
  return owned.map((o, i) => ({ server: o.server, tool: o.item, name: named[i].name }));
}

let cached: { tools: readonly CatalogTool[]; index: ToolIndex<CatalogTool> } | undefined;

/** The search index of `tools`, rebuilt only when the catalogue changed (same tool objects, same names: same index). */
export function catalogIndex(tools: readonly CatalogTool[]): ToolIndex<CatalogTool> {
  const prev = cached?.tools;
  if (prev && prev.length === tools.length && tools.every((t, i) => t.tool === prev[i].tool && t.name === prev[i].name && t.server === prev[i].server)) return cached!.index;
  cached = { tools, index: new ToolIndex(tools) };
  return cached.index;
}

/** `mcpHost.chat.maxTools` / `mcpHost.chat.maxToolSchemaTokens` applied to a model's input limit. */
export function chatToolBudget(maxInputTokens: number): ToolBudget {
  return toolBudget(maxInputTokens, { maxTools: readSetting<number>('chat.maxTools'), maxSchemaTokens: readSetting<number>('chat.maxToolSchemaTokens') });
}

export function toChatTool(t: CatalogTool): vscode.LanguageModelChatTool {
  return { name: t.name, description: modelToolDescription(t.server, t.tool), inputSchema: t.tool.inputSchema };
}

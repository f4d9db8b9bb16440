/** The enabled MCP tools of running servers that models may see, with their model-facing names. */
import type * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { nameTools, toolVisibility, type McpHost } from '../../core';
import { disabledPatterns, isToolEnabled } from './toolSettings';

export interface CatalogTool {
  readonly server: string;
  readonly tool: Tool;
  /** `<server>_<tool>`, valid for the language-model API and ≤ 64 characters. */
  readonly name: string;
}

export function enabledTools(host: McpHost): CatalogTool[] {
  // Settings are read once per call: this runs for every chat request, over every tool.
  const disabled = disabledPatterns();
  // Tools an MCP App keeps for itself (`_meta.ui.visibility: ["app"]`) are never offered to models.
  const owned = host.tools.filter(o => host.get(o.server)?.state === 'running' && toolVisibility(o.item).model && isToolEnabled(o.server, o.item.name, disabled));
  const named = nameTools(owned.map(o => ({ server: o.server, tool: o.item.name })));
  return owned.map((o, i) => ({ server: o.server, tool: o.item, name: named[i].name }));
}

export function toChatTool(t: CatalogTool): vscode.LanguageModelChatTool {
  const description = [t.tool.title, t.tool.description].filter(Boolean).join(': ') || `${t.tool.name} (MCP server ${t.server})`;
  return { name: t.name, description: `[${t.server}] ${description}`, inputSchema: t.tool.inputSchema };
}

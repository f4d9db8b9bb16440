/** How a tool shows under its server in the Servers view (run it with the inline button or the context menu). */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { plainText } from '../../core/text';

export const TOOL_CONTEXT_VALUE = 'tool';

export function toolTreeItem(server: string, tool: Tool): vscode.TreeItem {
  // Names, titles and descriptions are the server's text: cleaned, and escaped in the tooltip's Markdown.
  const item = new vscode.TreeItem(label(tool.title ?? tool.annotations?.title ?? tool.name), vscode.TreeItemCollapsibleState.None);
  item.id = `tool:${server}/${tool.name}`;
  item.iconPath = new vscode.ThemeIcon('tools');
  const title = tool.title ?? tool.annotations?.title;
  item.description = title && title !== tool.name ? label(tool.name) : tool.description ? label(tool.description) : undefined;
  item.contextValue = TOOL_CONTEXT_VALUE;
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escape(label(title ?? tool.name))}** \`${label(tool.name).replace(/`/g, '')}\``);
  if (tool.description) md.appendMarkdown(`\n\n${escape(plainText(tool.description, { maxLength: 2000 }))}`);
  item.tooltip = md;
  return item;
}

function label(s: string): string { return plainText(s, { singleLine: true, maxLength: 200 }); }

function escape(s: string): string { return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&'); }

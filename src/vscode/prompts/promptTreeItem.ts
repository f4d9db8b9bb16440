/** How a prompt shows under its server in the Servers view (run it with the inline button or the context menu). */
import * as vscode from 'vscode';
import type { Prompt } from '@modelcontextprotocol/client';
import { argumentTitle, promptCommandId } from '../../core/prompts';
import { plainText } from '../../core/text';
import { inlineCode } from '../chat/markdownText';

export const PROMPT_CONTEXT_VALUE = 'prompt';

export function promptTreeItem(server: string, prompt: Prompt): vscode.TreeItem {
  // Names and titles are the server's text: no escapes, controls or bidi characters in the tree.
  const item = new vscode.TreeItem(label(prompt.title ?? prompt.name), vscode.TreeItemCollapsibleState.None);
  item.id = `prompt:${server}/${prompt.name}`;
  item.iconPath = new vscode.ThemeIcon('comment-discussion');
  const description = prompt.title && prompt.title !== prompt.name ? prompt.name : prompt.description;
  item.description = description === undefined ? undefined : label(description);
  item.contextValue = PROMPT_CONTEXT_VALUE;
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${escape(label(prompt.title ?? prompt.name))}**`);
  if (prompt.description) md.appendMarkdown(`\n\n${escape(plainText(prompt.description))}`);
  const args = prompt.arguments ?? [];
  if (args.length) {
    md.appendMarkdown(`\n\n${vscode.l10n.t('Arguments')}:\n`);
    for (const a of args) md.appendMarkdown(`\n- ${inlineCode(label(a.name))}${argumentTitle(a) !== a.name ? ` ${escape(label(argumentTitle(a)))}` : ''}${a.required ? ` (${vscode.l10n.t('required')})` : ''}${a.description ? ` — ${escape(label(a.description))}` : ''}`);
  }
  md.appendMarkdown(`\n\n${vscode.l10n.t('Command')}: \`${promptCommandId(server, prompt.name)}\``);
  item.tooltip = md;
  return item;
}

function label(s: string): string { return plainText(s, { singleLine: true, maxLength: 200 }); }

function escape(s: string): string { return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&'); }

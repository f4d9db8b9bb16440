/**
 * A server's skills in the Servers view (Skills extension, SEP-2640): its listing only (name and
 * description, cleaned), never a file of the skill, which is read when an `@mcp` turn loads it.
 */
import * as vscode from 'vscode';
import { plainText, type McpHost, type ServerConnection, type SkillEntry } from '../../core';
import type { ServerNode } from './serverNode';

/** The skill nodes of a running server; none when listing fails (the server's log says why). */
export async function skillNodes(host: McpHost, conn: ServerConnection): Promise<ServerNode[]> {
  try {
    const { skills } = await host.skills.list(conn);
    return skills.map(skill => ({ kind: 'skill' as const, name: skill.name, server: conn.name, skill }));
  } catch {
    return [];
  }
}

export function skillTreeItem(skill: SkillEntry): vscode.TreeItem {
  const item = new vscode.TreeItem(plainText(skill.name, { singleLine: true, maxLength: 64 }), vscode.TreeItemCollapsibleState.None);
  item.id = `skill:${skill.server}:${skill.uri}`;
  item.iconPath = new vscode.ThemeIcon('book');
  item.description = plainText(skill.description, { singleLine: true, maxLength: 120 });
  // Plain text (no Markdown): the description is the server's.
  item.tooltip = `${vscode.l10n.t('Skill of {0}; an @mcp request loads it when its description fits (verified first).', skill.server)}\n\n${plainText(skill.description, { maxLength: 1024 })}`;
  item.contextValue = 'skill';
  return item;
}

/** Tool approval and enablement settings (`server/tool` or `server/*` patterns), read and persisted. */
import * as vscode from 'vscode';
import { matchesToolPattern, type ApprovalSettings } from '../../core';
import { SECTION } from '../config';

const cfg = () => vscode.workspace.getConfiguration(SECTION);
const list = (key: string) => (cfg().get<unknown[]>(key) ?? []).filter((x): x is string => typeof x === 'string');

export function approvalSettings(): ApprovalSettings {
  return { autoApprove: list('tools.autoApprove'), trustedServers: list('trustedServers') };
}

export function isToolEnabled(server: string, tool: string): boolean {
  return !matchesToolPattern(list('tools.disabled'), server, tool);
}

/** Adds a pattern to a user-level list setting (approvals chosen in a dialog are the user's own). */
export async function addPattern(key: 'tools.autoApprove' | 'tools.disabled', pattern: string): Promise<void> {
  const current = list(key);
  if (!current.includes(pattern)) await cfg().update(key, [...current, pattern], vscode.ConfigurationTarget.Global);
}

export async function setDisabled(patterns: string[]): Promise<void> {
  await cfg().update('tools.disabled', patterns.length ? patterns : undefined, vscode.ConfigurationTarget.Global);
}

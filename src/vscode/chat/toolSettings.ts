/** Tool approval and enablement settings (`server/tool` or `server/*` patterns), read and persisted. */
import * as vscode from 'vscode';
import { matchesToolPattern, type ApprovalSettings } from '../../core';
import { SECTION } from '../config';

const cfg = () => vscode.workspace.getConfiguration(SECTION);
const list = (key: string) => (cfg().get<unknown[]>(key) ?? []).filter((x): x is string => typeof x === 'string');

export function approvalSettings(): ApprovalSettings {
  return { autoApprove: list('tools.autoApprove'), trustedServers: list('trustedServers') };
}

/** Whether a tool may be offered; pass `disabled` (from {@link disabledPatterns}) when checking many tools. */
export function isToolEnabled(server: string, tool: string, disabled: readonly string[] = disabledPatterns()): boolean {
  return !matchesToolPattern(disabled, server, tool);
}

export function disabledPatterns(): string[] { return list('tools.disabled'); }

/** Adds a pattern to a user-level list setting (approvals chosen in a dialog are the user's own). */
export async function addPattern(key: 'tools.autoApprove' | 'tools.disabled', pattern: string): Promise<void> {
  const current = list(key);
  if (!current.includes(pattern)) await cfg().update(key, [...current, pattern], vscode.ConfigurationTarget.Global);
}

export async function setDisabled(patterns: string[]): Promise<void> {
  await cfg().update('tools.disabled', patterns.length ? patterns : undefined, vscode.ConfigurationTarget.Global);
}

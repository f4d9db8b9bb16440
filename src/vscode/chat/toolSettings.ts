/**
 * Tool settings: `tools.autoApprove` / `trustedServers` (read by the core's ToolApprovals, for
 * user-declared servers only) and `tools.disabled` (`server/tool` or `server/*` patterns).
 */
import * as vscode from 'vscode';
import { matchesToolPattern, type ApprovalSettings } from '../../core';
import { SECTION } from '../config';

const cfg = () => vscode.workspace.getConfiguration(SECTION);
const list = (key: string) => (cfg().get<unknown[]>(key) ?? []).filter((x): x is string => typeof x === 'string');

export function approvalSettings(): ApprovalSettings {
  return { autoApprove: list('tools.autoApprove'), trustedServers: list('trustedServers'), autoApproveSandboxed: cfg().get<boolean>('sandbox.autoApproveTools') === true };
}

/** Whether a tool may be offered; pass `disabled` (from {@link disabledPatterns}) when checking many tools. */
export function isToolEnabled(server: string, tool: string, disabled: readonly string[] = disabledPatterns()): boolean {
  return !matchesToolPattern(disabled, server, tool);
}

export function disabledPatterns(): string[] { return list('tools.disabled'); }

/** Every tool of `server` is disabled (`server/*`, or all servers): models get nothing from it, resources included. */
export function isServerDisabledForModels(server: string): boolean {
  const disabled = disabledPatterns();
  return disabled.includes(`${server}/*`) || disabled.includes('*/*');
}

export async function setDisabled(patterns: string[]): Promise<void> {
  await cfg().update('tools.disabled', patterns.length ? patterns : undefined, vscode.ConfigurationTarget.Global);
}

/**
 * Tool settings: `tools.autoApprove` / `trustedServers` (read by the core's ToolApprovals, for
 * user-declared servers only) and `tools.disabled` (`server/tool` or `server/*` patterns).
 */
import * as vscode from 'vscode';
import { matchesToolPattern, parseToolSets, type ApprovalSettings, type ToolSets } from '../../core';
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

/** `mcpHost.chat.excludedServers`: running servers whose tools and resources language models never get. */
export function chatExcludedServers(): string[] { return list('chat.excludedServers'); }

/** The valid named tool sets of `mcpHost.toolSets` (invalid entries are left out). */
export function toolSets(): ToolSets { return parseToolSets(cfg().get('toolSets')).sets; }

/** Every tool of `server` is disabled (`server/*`, or all servers) or it is excluded from chat: models get nothing from it, resources included. */
export function isServerDisabledForModels(server: string): boolean {
  const disabled = disabledPatterns();
  return disabled.includes(`${server}/*`) || disabled.includes('*/*') || chatExcludedServers().includes(server);
}

export async function setDisabled(patterns: string[]): Promise<void> {
  await cfg().update('tools.disabled', patterns.length ? patterns : undefined, vscode.ConfigurationTarget.Global);
}

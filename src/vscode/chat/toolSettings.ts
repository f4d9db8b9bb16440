/**
 * Tool settings: `tools.autoApprove` / `trustedServers` (read by the core's ToolApprovals, for
 * user-declared servers only) and `tools.disabled` (`server/tool` or `server/*` patterns).
 */
import * as vscode from 'vscode';
import { matchesToolPattern, parseToolSets, type ApprovalSettings, type ToolSets } from '../../core';
import { readSamplingSettings } from '../sampling/samplingSettings';
import { SECTION } from '../config';
import { readSetting, readStrings as list, readUserValue } from '../settingsReader';

export function approvalSettings(): ApprovalSettings {
  return {
    autoApprove: list('tools.autoApprove'), trustedServers: list('trustedServers'), autoApproveSandboxed: readSetting('sandbox.autoApproveTools') === true,
    samplingAllowed: readSamplingSettings().allowedServers,
  };
}

/** Whether a tool may be offered; pass `disabled` (from {@link disabledPatterns}) when checking many tools. */
export function isToolEnabled(server: string, tool: string, disabled: readonly string[] = disabledPatterns()): boolean {
  return !matchesToolPattern(disabled, server, tool);
}

/** The user's disabled tools together with those the workspace disables (it may add, never remove). */
export function disabledPatterns(): string[] { return list('tools.disabled'); }

/** Only the user's own `tools.disabled` (what **Configure Tools** edits). */
export function userDisabledPatterns(): string[] {
  const value = readUserValue<unknown[]>('tools.disabled');
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
}

/** `mcpHost.chat.excludedServers`: running servers whose tools and resources language models never get. */
export function chatExcludedServers(): string[] { return list('chat.excludedServers'); }

/** The valid named tool sets of `mcpHost.toolSets` (invalid entries are left out). */
export function toolSets(): ToolSets { return parseToolSets(readSetting('toolSets')).sets; }

/** Every tool of `server` is disabled (`server/*`, or all servers) or it is excluded from chat: models get nothing from it, resources included. */
export function isServerDisabledForModels(server: string): boolean {
  const disabled = disabledPatterns();
  return disabled.includes(`${server}/*`) || disabled.includes('*/*') || chatExcludedServers().includes(server);
}

export async function setDisabled(patterns: string[]): Promise<void> {
  await vscode.workspace.getConfiguration(SECTION).update('tools.disabled', patterns.length ? patterns : undefined, vscode.ConfigurationTarget.Global);
}

/**
 * The one reader of `mcpHost.*` values: each setting scope by scope (`inspect()`), merged by the core's
 * rule for that setting (core/config/settingsPolicy.ts), so a workspace can add restrictions but never
 * lift the user's. `getConfiguration().get()` is not used anywhere else for reading: VS Code replaces a
 * user's array by a workspace's, and application-scoped values are dropped from workspace settings only
 * when VS Code knows the scope, which this reader does not rely on.
 */
import * as vscode from 'vscode';
// The policy module itself, not the core index: early.js reads settings too and must not pull in the SDK.
import { effectiveSetting } from '../core/config/settingsPolicy';
import { isAutostart, type Autostart } from '../core/autostart/policy';

export const SECTION = 'mcpHost';

/**
 * Each value as last read, until the settings, the folders or the trust change. A tool call reads a dozen
 * settings (the gateway's policy, the approval settings), and each read builds configuration objects for
 * every folder: ~0.1–0.3 ms apiece in the extension host. Kept only once {@link keepSettingsUntilChanged}
 * has registered the listeners that clear it, which each bundle does first thing, before any listener of
 * its own: none of ours can read a value kept from before a change.
 */
let known: Map<string, { readonly value: unknown }> | undefined;

/** Starts keeping values (see `known`); the returned disposable stops it. Idempotent. */
export function keepSettingsUntilChanged(): vscode.Disposable {
  if (known) return new vscode.Disposable(() => undefined);
  const kept = new Map<string, { readonly value: unknown }>();
  const forget = () => kept.clear();
  const subs = [vscode.workspace.onDidChangeConfiguration(forget), vscode.workspace.onDidChangeWorkspaceFolders(forget), vscode.workspace.onDidGrantWorkspaceTrust(forget)];
  known = kept;
  return new vscode.Disposable(() => { known = undefined; for (const d of subs) d.dispose(); });
}

/** The value MCP Host uses for `mcpHost.<key>`. */
export function readSetting<T = unknown>(key: string): T | undefined {
  let hit = known?.get(key);
  if (!hit) {
    const info = vscode.workspace.getConfiguration(SECTION).inspect(key);
    const folderValues = [info?.workspaceFolderValue, ...(vscode.workspace.workspaceFolders ?? []).map(f => vscode.workspace.getConfiguration(SECTION, f.uri).inspect(key)?.workspaceFolderValue)];
    hit = { value: effectiveSetting(key, { defaultValue: info?.defaultValue, userValue: info?.globalValue, workspaceValue: info?.workspaceValue, folderValues }, vscode.workspace.isTrusted) };
    known?.set(key, hit);
  }
  // A copy: a caller that changes what it got changes nobody else's value.
  return (hit.value !== null && typeof hit.value === 'object' ? structuredClone(hit.value) : hit.value) as T | undefined;
}

/** Only the user's own value of `mcpHost.<key>` (what a command that edits user settings starts from). */
export function readUserValue<T = unknown>(key: string): T | undefined {
  return vscode.workspace.getConfiguration(SECTION).inspect<T>(key)?.globalValue;
}

/**
 * `mcpHost.policy.<key>` as VS Code hands it out: a value locked by VS Code's policy (desktop: Group
 * Policy, a macOS profile, /etc/vscode/policy.json) reaches extensions only through `get()`. Used only for
 * the policy settings, whose sources can only narrow (vscode/policy.ts): a workspace value seen here
 * narrows too, never widens.
 */
export function readPolicySetting(key: string): unknown {
  return vscode.workspace.getConfiguration(SECTION).get(`policy.${key}`);
}

/** The strings of a list setting (other entries are left out). */
export function readStrings(key: string): string[] {
  const value = readSetting<unknown>(key);
  return Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : [];
}

/** `mcpHost.autostart`, `onDemand` when unset or not one of the choices (the host and the early start read it alike). */
export function readAutostart(): Autostart {
  const v = readSetting('autostart');
  return isAutostart(v) ? v : 'onDemand';
}

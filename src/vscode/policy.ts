/**
 * The policy MCP Host enforces in this window (core/policy), from every source an administrator has:
 * VS Code's Linux policy file (desktop VS Code locks the settings from it; code-server does not read it,
 * so MCP Host reads it itself), any files named in `MCP_HOST_POLICY_FILE`, the `mcpHost.policy.*`
 * values VS Code hands out (a locked setting's value reaches extensions only through `get()`), and the
 * user's own `mcpHost.policy.*` settings. Every source can only narrow what the others allow.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
// The policy modules themselves, not the core index: early.js reads the policy too and must not pull in the SDK.
import { mergePolicies, type PolicySource } from '../core/policy/merge';
import { policyFiles, policyValues, readPolicyFiles } from '../core/policy/policyFile';
import type { ServerPolicy } from '../core/policy/types';
import { readPolicySetting, readSetting, SECTION } from './settingsReader';

const KEYS = { access: 'access', allow: 'allow', deny: 'deny', requireSandbox: 'requireSandbox', registryUrl: 'registryUrl', authorizationServers: 'authorizationServers' } as const;

export function readPolicy(): ServerPolicy {
  const sources: PolicySource[] = readPolicyFiles();
  const settings = (read: (key: string) => unknown, label: string) => {
    const raw = Object.fromEntries(Object.values(KEYS).map(k => [k, read(`policy.${k}`)]));
    const values = policyValues(raw, KEYS);
    sources.push(typeof values === 'string'
      ? { label: `${label} (${values}; every server is refused until it is fixed)`, values: { access: 'none' } }
      : { label, values });
  };
  // A policy-locked value (desktop VS Code) reaches extensions only through get(); it can only narrow, like every source.
  settings(key => readPolicySetting(key.replace(/^policy\./, '')), 'VS Code policy (mcpHost.policy.*)');
  settings(key => readSetting(key), 'your settings (mcpHost.policy.*)');
  return mergePolicies(sources);
}

/** The policy, re-read when a policy file or a `mcpHost.policy.*` setting changes. */
export class WindowPolicy extends vscode.Disposable {
  private value: ServerPolicy = readPolicy();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChange = this.emitter.event;

  constructor() {
    super(() => { for (const d of this.disposables) d.dispose(); this.emitter.dispose(); });
    const refresh = () => { this.value = readPolicy(); this.emitter.fire(); };
    this.disposables.push(vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration(`${SECTION}.policy`)) refresh(); }));
    for (const file of policyFiles()) {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
      this.disposables.push(w, w.onDidChange(refresh), w.onDidCreate(refresh), w.onDidDelete(refresh));
    }
  }

  get current(): ServerPolicy { return this.value; }
}

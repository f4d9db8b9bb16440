/**
 * Writes new server declarations where Add Server and Import put them: secret values into
 * SecretStorage first (through the InputStore), then `mcpHost.inputs`, then `mcpHost.servers`, so the
 * host — which reloads on the settings change — finds every value when it starts the servers.
 * Only the chosen scope's own value is read and rewritten: user servers are never copied into the
 * workspace or the other way round.
 */
import * as vscode from 'vscode';
import type { McpHost, ServerState } from '../../core';
import { mergeInputs, mergeServers, type InputDefinition, type SecretValue } from '../../core/onboarding';
import { declarationTarget, inputReferences } from '../../core';
import { SECTION } from '../config';
import type { InputStore } from '../inputs';

export type Target = 'user' | 'workspace';

export function configurationTarget(target: Target): vscode.ConfigurationTarget {
  return target === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
}

export function hasWorkspace(): boolean {
  return !!vscode.workspace.workspaceFolders?.length || !!vscode.workspace.workspaceFile;
}

/** Server names declared in user and workspace (and folder) settings, with where. */
export function declaredServers(): Map<string, { target: Target | 'folder'; declaration: unknown }> {
  const info = vscode.workspace.getConfiguration(SECTION).inspect<Record<string, unknown>>('servers');
  const out = new Map<string, { target: Target | 'folder'; declaration: unknown }>();
  const layers: [Target | 'folder', unknown][] = [['user', info?.globalValue], ['workspace', info?.workspaceValue], ['folder', info?.workspaceFolderValue]];
  for (const [target, value] of layers) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [name, declaration] of Object.entries(value)) out.set(name, { target, declaration });
    }
  }
  return out;
}

/** `mcpHost.inputs` of every scope (ids must stay unique across them). */
export function declaredInputs(): unknown[] {
  const info = vscode.workspace.getConfiguration(SECTION).inspect<unknown[]>('inputs');
  return [info?.globalValue, info?.workspaceValue, info?.workspaceFolderValue].flatMap(v => Array.isArray(v) ? v : []);
}

export interface Additions {
  readonly servers: Readonly<Record<string, unknown>>;
  readonly inputs: readonly InputDefinition[];
  readonly secrets: readonly SecretValue[];
}

/** `folder`: write into that folder's settings (a multi-root workspace's `.vscode/settings.json`) instead of `target`'s. */
export async function writeAdditions(target: Target, additions: Additions, store: InputStore, folder?: vscode.WorkspaceFolder): Promise<void> {
  // Each value is bound to the fields of the new declarations that reference it, nothing else.
  const scope = target === 'user' ? 'user' : 'workspace';
  const referrers = Object.entries(additions.servers).flatMap(([server, declaration]) => {
    const to = declarationTarget(declaration);
    return inputReferences(declaration).map(r => ({ ...r, server, scope, ...(to ? { target: to } : {}) } as const));
  });
  for (const s of additions.secrets) await store.store(referrers.filter(r => r.id === s.id), s.value);
  const config = () => vscode.workspace.getConfiguration(SECTION, folder?.uri);
  const scoped = <T>(key: string) => {
    const info = config().inspect<T>(key);
    return folder ? info?.workspaceFolderValue : target === 'user' ? info?.globalValue : info?.workspaceValue;
  };
  const to = folder ? vscode.ConfigurationTarget.WorkspaceFolder : configurationTarget(target);
  if (additions.inputs.length) {
    await config().update('inputs', mergeInputs(scoped<unknown[]>('inputs'), additions.inputs), to);
  }
  await config().update('servers', mergeServers(scoped<Record<string, unknown>>('servers'), additions.servers), to);
}

/** `npx -y pkg` or the URL: what a declaration runs, for previews (secrets are `${input:…}` by then). */
export function describeDeclaration(declaration: unknown): string {
  const d = (declaration ?? {}) as { command?: unknown; args?: unknown; url?: unknown };
  if (typeof d.url === 'string') return d.url;
  const args = Array.isArray(d.args) ? d.args.map(a => String(a)) : [];
  return [String(d.command ?? ''), ...args].map(a => /\s/.test(a) ? JSON.stringify(a) : a).join(' ');
}

/**
 * Applies the settings (serialised with the host's own reload on the change event) and waits until
 * the server's start settled: `reload` resolves after every start of the apply has settled.
 */
export async function waitForStart(host: McpHost, reload: () => Promise<unknown>, name: string, timeoutMs = 120_000): Promise<{ state: ServerState; message?: string } | undefined> {
  await reload();
  const conn = host.get(name);
  if (conn?.state === 'starting') {
    // The first state it leaves `starting` for (or the time limit), told by the connection itself.
    await new Promise<void>(resolve => {
      const timer = setTimeout(done, timeoutMs);
      const listener = conn.onDidChangeState(e => { if (e.state !== 'starting') done(); });
      function done() { clearTimeout(timer); listener.dispose(); resolve(); }
    });
  }
  const now = host.get(name) ?? conn;
  return now && { state: now.state, message: now.message };
}

/**
 * The records of servers MCP Host installed from the MCP registry (core/policy/registryInstalls.ts),
 * which a policy with access `registryOnly` admits. Kept in the extension's own storage, never in
 * settings: a user install in globalState, a workspace install in that workspace's workspaceState, so
 * neither a hand-written declaration, a workspace's files, another program's config nor another
 * extension can add one, and a workspace's copy of a user install has no record.
 */
import type * as vscode from 'vscode';
import type { RegistryInstall } from '../../core/policy/registryInstalls';
import type { DeclarationScope } from '../config';

const KEY = 'mcpHost.registryInstalls';
/** A bound on what is kept: the oldest records go first. */
const MAX_RECORDS = 500;

export class RegistryInstallRecords {
  constructor(private readonly state: { readonly globalState: vscode.Memento; readonly workspaceState: vscode.Memento }) {}

  /** Written by an install from the registry, after the consent and before the declaration is. */
  async record(name: string, target: 'user' | 'workspace', install: RegistryInstall): Promise<void> {
    const memento = target === 'user' ? this.state.globalState : this.state.workspaceState;
    const all = { ...records(memento) };
    delete all[name];
    all[name] = install;
    const names = Object.keys(all);
    for (const old of names.slice(0, Math.max(0, names.length - MAX_RECORDS))) delete all[old];
    await memento.update(KEY, all);
  }

  /** The record for `name` as declared in `scope`; a folder's, a discovered or an unknown server has none. */
  lookup(name: string, scope: DeclarationScope | 'discovered' | undefined): RegistryInstall | undefined {
    if (scope !== 'user' && scope !== 'workspace') return undefined;
    const all = records(scope === 'user' ? this.state.globalState : this.state.workspaceState);
    return Object.hasOwn(all, name) ? all[name] : undefined;
  }
}

function records(memento: vscode.Memento): Readonly<Record<string, RegistryInstall>> {
  const v = memento.get<unknown>(KEY);
  if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter((e): e is [string, RegistryInstall] => isRecord(e[1])));
}

function isRecord(v: unknown): v is RegistryInstall {
  if (!v || typeof v !== 'object') return false;
  const r = v as Partial<RegistryInstall>;
  return typeof r.registryUrl === 'string' && typeof r.entry === 'string' && typeof r.fingerprint === 'string' && !!r.runs && typeof r.runs === 'object';
}

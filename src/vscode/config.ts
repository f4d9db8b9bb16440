/**
 * Reads our settings: servers with where they were declared (user vs workspace, for Workspace
 * Trust), input definitions, and user roots. Values are validated by the core, not here.
 */
import * as vscode from 'vscode';
import type { InputDefinition } from '../core/onboarding/inputs';
import { readSetting, readStrings } from './settingsReader';

export { SECTION } from './settingsReader';

export type DeclarationScope = 'user' | 'workspace' | 'folder';

export interface ScopedServers {
  /** Raw declarations the host may run, keyed by name (later scopes override earlier ones). */
  readonly allowed: Record<string, unknown>;
  /** Names declared by the workspace but withheld because it is not trusted. */
  readonly untrusted: readonly string[];
  readonly scopes: ReadonlyMap<string, DeclarationScope>;
}

/**
 * `mcpHost.servers` is deliberately not a restricted configuration: VS Code would then hide the
 * workspace's value entirely in Restricted Mode, and we want to list those servers as "not started:
 * workspace not trusted" instead of silently ignoring them. The trust check is done here.
 */
export function readServers(): ScopedServers {
  const info = vscode.workspace.getConfiguration('mcpHost').inspect<Record<string, unknown>>('servers');
  const trusted = vscode.workspace.isTrusted;
  const allowed: Record<string, unknown> = {};
  const untrusted: string[] = [];
  const scopes = new Map<string, DeclarationScope>();
  const layers: [DeclarationScope, unknown][] = [
    ['user', info?.globalValue],
    ['workspace', info?.workspaceValue],
    ['folder', info?.workspaceFolderValue],
  ];
  for (const [scope, value] of layers) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      // The core reports the wrong shape; pass it through once so the user sees why.
      if (value !== undefined && scope === 'user') Object.assign(allowed, { '': value });
      continue;
    }
    for (const [name, decl] of Object.entries(value as Record<string, unknown>)) {
      if (scope !== 'user' && !trusted) {
        untrusted.push(name);
        continue;
      }
      allowed[name] = decl;
      scopes.set(name, scope);
    }
  }
  return { allowed, untrusted: untrusted.filter(n => !(n in allowed)), scopes };
}

export type { InputDefinition } from '../core/onboarding/inputs';

/** The user's input definitions, then those a trusted workspace adds under ids of its own (settingsPolicy). */
export function readInputs(): InputDefinition[] {
  const raw = readSetting<unknown[]>('inputs') ?? [];
  return raw.filter((x): x is InputDefinition => !!x && typeof x === 'object' && typeof (x as InputDefinition).id === 'string');
}

/** `mcpHost.roots`: the user's, plus those a trusted workspace adds. */
export function readUserRoots(): string[] {
  return readStrings('roots').filter(x => x.trim() !== '');
}

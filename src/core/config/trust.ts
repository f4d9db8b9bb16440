/**
 * Workspace Trust at server start. While the open folders are not trusted, nothing from them may
 * shape how a server starts: `npx -y pkg` run inside a cloned repository runs the repository's
 * `node_modules/.bin/pkg`, `python -m mod` imports its `mod.py`, a relative command or `cwd` points
 * into it. So an untrusted start runs in the user's home, and a declaration that names the folders
 * (a `${workspaceFolder…}` variable, a relative `cwd`/`envFile`/command path) waits for trust.
 */
import * as path from 'node:path';
import type { AuthDeclaration } from './authTypes';
import { folderNamedBy } from './variables';
import type { ServerDeclaration } from './types';

/** One reason a declaration needs a trusted workspace: the field and what in it depends on the folders. */
export interface TrustRequirement {
  readonly field: string;
  readonly reason: string;
}

/** The declaration cannot start before the workspace is trusted; nothing was started or asked. */
export class WorkspaceTrustRequiredError extends Error {
  constructor(readonly requirements: readonly TrustRequirement[]) {
    super(`waits for Workspace Trust: ${requirements.map(r => `${r.field} ${r.reason}`).join('; ')}`);
  }
}

// Every form VS Code knows: ${workspaceFolder}, ${workspaceFolder:name}, ${workspaceFolderBasename}.
const WORKSPACE_VARIABLE = /\$\{(workspaceFolder(?:Basename)?(?::[^}]*)?)\}/;
const WORKSPACE_VARIABLES = new RegExp(WORKSPACE_VARIABLE.source, 'g');

/** The workspace variable `value` uses (`workspaceFolder:app`), if any. */
export function workspaceVariableIn(value: string): string | undefined {
  return WORKSPACE_VARIABLE.exec(value)?.[1];
}

/** The fields of a declaration that may hold variables, by name. */
function variableFields(decl: ServerDeclaration): [string, string | null | undefined][] {
  return decl.type === 'stdio'
    ? [
      ['command', decl.command],
      ...decl.args.map((a, i): [string, string] => [`args[${i}]`, a]),
      ['cwd', decl.cwd],
      ['envFile', decl.envFile],
      ...Object.entries(decl.env).map(([k, v]): [string, string | null] => [`env.${k}`, v]),
    ]
    : [['url', decl.url], ...Object.entries(decl.headers).map(([k, v]): [string, string] => [`headers.${k}`, v]), ...authFields(decl.auth)];
}

/** The `auth` fields config/resolve.ts substitutes (`resolveAuth`): a variable there is as much the program's as a header's. */
function authFields(auth: AuthDeclaration | undefined): [string, string | undefined][] {
  if (!auth) return [];
  const e = auth.enterprise;
  return [
    ['auth.clientId', auth.clientId], ['auth.clientSecret', auth.clientSecret], ['auth.privateKey', auth.privateKey],
    ...(e ? [['auth.enterprise.idp.clientSecret', e.idp.clientSecret], ['auth.enterprise.idToken', typeof e.idToken === 'string' ? e.idToken : undefined]] as [string, string | undefined][] : []),
  ];
}

/** Fields that name a workspace folder through a variable; checked before anything is resolved or asked. */
export function workspaceVariableUses(decl: ServerDeclaration): TrustRequirement[] {
  const out: TrustRequirement[] = [];
  for (const [field, value] of variableFields(decl)) {
    const m = value ? WORKSPACE_VARIABLE.exec(value) : null;
    if (m) out.push({ field, reason: `uses \${${m[1]}}` });
  }
  return out;
}

/**
 * What every workspace variable the declaration uses stands for in `folders` (`''` for a folder that is
 * not open), in order of use: the same text is another program when one of them moves, so a running
 * server restarts with it (McpHost.runningKey). Empty when the declaration names no folder.
 */
export function workspaceVariableValues(decl: ServerDeclaration, folders: readonly WorkspaceFolderRef[]): string[] {
  return folderValuesIn(variableFields(decl).map(([, v]) => v), folders);
}

/** {@link workspaceVariableValues} of any strings (a raw declaration's, see tools/programIdentity.ts). */
export function folderValuesIn(values: readonly (string | null | undefined)[], folders: readonly WorkspaceFolderRef[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    for (const m of value?.matchAll(WORKSPACE_VARIABLES) ?? []) {
      const v = m[1];
      const folder = folderNamedBy(v, folders);
      out.push(`${v}=${v === 'workspaceFolderBasename' ? folder?.name ?? '' : folder?.path ?? ''}`);
    }
  }
  return out;
}

interface WorkspaceFolderRef { readonly name: string; readonly path: string }

/**
 * A path (after substitution) that the start would resolve against the workspace folder: a relative
 * `cwd` or `envFile`, or a command with a path separator that is not absolute (`./bin/server`). A bare
 * command name (`npx`) is looked up on PATH instead. The message quotes the declared text, never the
 * substituted value (which may hold an `${env:…}` or `${input:…}` value).
 */
export function relativePathUse(field: 'command' | 'cwd' | 'envFile', declared: string, resolved: string): TrustRequirement | undefined {
  if (path.isAbsolute(resolved)) return undefined;
  if (field === 'command' && !/[\\/]/.test(resolved)) return undefined;
  return { field, reason: `"${declared}" is a path relative to the workspace folder` };
}

/**
 * The identity of the program a server declaration runs, which every stored approval is bound to.
 *
 * A server name says nothing about what runs: an install link, a registry entry, a bundle, an import
 * or a hand edit can put a different program under a name the user once approved. So an approval
 * names the program: for a local server its command, arguments, working folder, environment and env
 * file (each can change what runs: `NODE_OPTIONS`, a bundle's folder); for a remote one its URL, its
 * header values and its `auth` (another token or tenant header is another account's server). Plus
 * where it was declared (user, or which workspace), and, for a user declaration whose program
 * depends on the open folder (`${workspaceFolder}`, a relative `cwd`, `envFile` or command path),
 * which workspace that was. A local user declaration without an absolute `cwd` runs in the launch
 * folder (the first trusted workspace folder, else the home folder): `npx` resolves that folder's
 * `node_modules/.bin` first, `python -m` imports from it, `node server.js` reads it, so the same text
 * runs a cloned repository's code there. Its approvals are bound to the workspace and, when the caller
 * read it, to the launch folder itself (trusting a window moves it from the home folder to the
 * repository). And, when the caller read it (config/envFileContent.ts), what the env file holds, which changes what runs with no change to the declaration. What does not change the
 * program is left out (timeouts, roots, sandbox and dev options, `disabled`). Only a SHA-256
 * of it is ever stored, so a secret written into an argument, the URL or the env file is not kept in plain form.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { folderValuesIn, relativePathUse, workspaceVariableIn } from '../config/trust';
import { canonicalJson } from './canonicalJson';

/** Where a declaration lives: its scope and, for `workspace`/`folder`, the open workspace (its file or first folder URI). */
export interface DeclarationPlace {
  readonly scope: 'user' | 'workspace' | 'folder';
  /** The open workspace's identity; ignored for a user declaration that does not depend on it. */
  readonly workspace?: string;
}

export interface ProgramIdentity {
  /** SHA-256 (hex) of the program and its place. */
  readonly id: string;
  /** The workspace the identity is bound to, when it is bound to one. */
  readonly workspace?: string;
}

/** What the declaration's text does not hold but the program depends on, as the caller read it. */
export interface ProgramInputs {
  /** {@link envFileContent} of the declaration: its env file's text, or why it has none. */
  readonly envFileText?: string;
  /** Where a missing or relative `cwd` starts (config/envFileContent.ts `launchBase`): part of the program of a declaration {@link runsInLaunchBase}. */
  readonly launchBase?: string;
  /**
   * The open folders, by name and path: a `${workspaceFolder…}` variable names one of them, and the
   * same text runs another program when that folder moves or another folder comes first.
   */
  readonly workspaceFolders?: readonly { readonly name: string; readonly path: string }[];
}

/** The identity of a raw `mcpHost.servers` entry declared at `place`; undefined when it is not a declaration at all. */
export function programIdentity(declaration: unknown, place: DeclarationPlace, inputs: ProgramInputs = {}): ProgramIdentity | undefined {
  if (!declaration || typeof declaration !== 'object' || Array.isArray(declaration)) return undefined;
  const d = declaration as Record<string, unknown>;
  const remote = isRemote(d);
  const declared = remote
    // The headers and auth say whose credentials reach which account (a changed `Authorization` or
    // tenant header is another party's server behind the same URL): their values count, as a hash only.
    ? { remote: typeof d.url === 'string' ? d.url.trim() : d.url, headers: d.headers, auth: d.auth }
    : { command: d.command, args: d.args, cwd: d.cwd, env: d.env, envFile: d.envFile };
  // The env file's text is the file's, not the declaration's: it says nothing of the workspace.
  const withEnvFile = remote || d.envFile === undefined ? declared : { ...declared, envFileText: inputs.envFileText };
  const runsIn = runsInLaunchBase(d);
  const inLaunchBase = runsIn ? { ...withEnvFile, runsIn: inputs.launchBase ?? '' } : withEnvFile;
  // Only when the caller read the folders and the text names one: other identities stay as they were.
  const folders = inputs.workspaceFolders && folderValuesIn(stringsIn(declared), inputs.workspaceFolders);
  const program = folders?.length ? { ...inLaunchBase, folders } : inLaunchBase;
  const bound = place.scope !== 'user' || runsIn || dependsOnWorkspace(declared);
  const workspace = bound ? place.workspace ?? '' : undefined;
  const id = createHash('sha256').update(canonicalJson({ program, scope: place.scope, workspace })).digest('hex');
  return workspace === undefined ? { id } : { id, workspace };
}

/**
 * A local declaration whose working folder is the launch folder, or may be relative to it. Only an
 * absolute `cwd`, or one rooted by a variable that is always an absolute path (`${userHome}`,
 * `${workspaceFolder}`, `${workspaceFolder:name}`, `${/}`, `${pathSeparator}`), is not: an `${env:…}` or
 * `${input:…}` value may be relative (`tools`) or empty, and resolve.ts resolves it against the launch folder.
 */
export function runsInLaunchBase(d: Record<string, unknown>, platform: NodeJS.Platform = process.platform): boolean {
  if (isRemote(d)) return false;
  return d.cwd === undefined || (typeof d.cwd === 'string' && !isFixedFolder(d.cwd, platform));
}

/**
 * A `cwd` that names the same folder in every workspace. On Windows a path that starts with one separator
 * (`\tools`, or `${/}tools`) is on the *current drive*, the launch folder's: only a drive letter or a UNC
 * share fixes it.
 */
export function isFixedFolder(cwd: string, platform: NodeJS.Platform = process.platform): boolean {
  if (platform === 'win32') return WINDOWS_ROOTED_VARIABLE.test(cwd) || /^(?:[A-Za-z]:[\\/]|[\\/]{2}[^\\/])/.test(cwd);
  return POSIX_ROOTED_VARIABLE.test(cwd) || path.posix.isAbsolute(cwd);
}

const WINDOWS_ROOTED_VARIABLE = /^\$\{(?:userHome|workspaceFolder(?::[^}]+)?)\}/;
const POSIX_ROOTED_VARIABLE = /^\$\{(?:userHome|workspaceFolder(?::[^}]+)?|\/|pathSeparator)\}/;

/** The transport as parse.ts picks it: an explicit `"type": "stdio"` runs its command and ignores a `url`. */
function isRemote(d: Record<string, unknown>): boolean {
  return d.type === undefined ? typeof d.url === 'string' : d.type !== 'stdio';
}

/** Whether the same text runs a different program in another workspace (see config/trust.ts). */
function dependsOnWorkspace(program: Record<string, unknown>): boolean {
  if (stringsIn(program).some(s => workspaceVariableIn(s) !== undefined)) return true;
  // A path that starts with a variable (`${userHome}/…`) is rooted by it, not by the folder.
  const relative = (field: 'command' | 'cwd' | 'envFile') => {
    const v = program[field];
    return typeof v === 'string' && v !== '' && !v.startsWith('${') && !path.isAbsolute(v) && relativePathUse(field, v, v) !== undefined;
  };
  return relative('command') || relative('cwd') || relative('envFile');
}

/** Every string in `value`, however deep (object keys aside), in order. */
function stringsIn(value: unknown): string[] {
  const strings: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') strings.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(value);
  return strings;
}

/**
 * The sandbox port for VS Code: srt's CLI run by the extension host's own Node, VS Code's own
 * ripgrep, and the extension's storage as the protected folder. Settings are read at each start.
 *
 * srt is not bundled: besides its JS it carries prebuilt binaries (seccomp helper per CPU, Windows
 * helper; ~17 MB). It is found, in order, at `mcpHost.sandbox.runtimePath`, in the extension's own
 * node_modules (development builds, or a .vsix that ships it), or as `srt` on PATH
 * (`npm install -g @anthropic-ai/sandbox-runtime`), whose link leads to the package's dist/cli.js.
 */
import { existsSync, realpathSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SandboxPort } from '../core';
import { readSetting, readStrings as strings, readUserValue } from './settingsReader';
import { isInside } from '../core/fsPaths';
import { declarerScope } from '../core/sandbox/declarer';
import { workspaceIdentity } from './workspaceIdentity';

/** `mcpHost.sandbox.all`: every local server runs sandboxed. */
export const sandboxAll = (): boolean => readSetting('sandbox.all') === true;

/**
 * `isUserServer`: only user-declared servers may widen their sandbox or be allowed unsandboxed (a workspace
 * server writes its own declaration and could take a user server's name).
 */
export function createSandboxPort(context: vscode.ExtensionContext, isUserServer: (server: string) => boolean, discoveredFrom: (server: string) => { source: string; file: string } | undefined = () => undefined): SandboxPort {
  const storageDir = context.globalStorageUri.fsPath;
  let ripgrep: string | undefined | null = null; // looked up on the first sandboxed start, not at activation
  return {
    // In desktop VS Code this is Electron: it runs scripts as Node only when asked to.
    runtime: process.execPath,
    runtimeEnv: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : undefined,
    get cli() {
      const configured = readSetting<string>('sandbox.runtimePath');
      if (typeof configured === 'string' && configured.trim()) return configured.trim();
      const shipped = path.join(context.extensionPath, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'cli.js');
      return existsSync(shipped) ? shipped : srtOnPath() ?? shipped;
    },
    storageDir,
    // Everything this extension keeps on disk (OAuth client data, logs, prompts' snapshots, other servers' rules).
    // and VS Code's user data (settings.json, state.vscdb holding SecretStorage) around our global storage.
    protectedPaths: [...new Set([storageDir, context.logUri.fsPath, ...context.storageUri ? [context.storageUri.fsPath] : [], ...userDataDir(storageDir)])],
    get ripgrep() { return ripgrep === null ? (ripgrep = vscodeRipgrep()) : ripgrep; },
    sandboxAll,
    defaultAllowedDomains: () => strings('sandbox.allowedDomains'),
    mayWiden: isUserServer,
    // A workspace's server of a user server's name, or of another workspace's, gets a data folder of its own;
    // so does a discovered server, apart from a settings server a workspace names like it (`github@claudeDesktop`).
    storageScope: server => declarerScope({ discovered: discoveredFrom(server), user: isUserServer(server), workspace: workspaceIdentity() }),
    mayWrite: (_server, folder) => writableRootSources().some(w => isInside(folder, w)),
    allowUnsandboxed: server => isUserServer(server) && strings('sandbox.allowUnsandboxed').includes(server),
  };
}

/** `<user data>/User/globalStorage/<extension>` → `<user data>`; nothing when the layout is another. */
function userDataDir(storageDir: string): string[] {
  const globalStorage = path.dirname(storageDir);
  return path.basename(globalStorage) === 'globalStorage' && path.basename(path.dirname(globalStorage)) === 'User'
    ? [path.dirname(path.dirname(globalStorage))] : [];
}

/**
 * Where roots may be writable for sandboxed servers: the workspace folders that lie inside what the
 * user opened (the folder, or the folder holding the `.code-workspace` file; an untitled workspace's
 * folders were added by the user) and `mcpHost.roots` from user settings. A workspace file listing
 * `../../..` or `$HOME`, or a workspace's own `mcpHost.roots`, offers read-only roots at most.
 */
function writableRootSources(): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => path.resolve(f.uri.fsPath));
  const file = vscode.workspace.workspaceFile;
  const opened = file?.scheme === 'file' ? path.dirname(file.fsPath) : undefined;
  const inside = opened === undefined ? folders : folders.filter(f => isInside(f, opened));
  const home = os.homedir();
  const user = userSettingsRoots().map(raw => path.resolve(raw.replace(/^~(?=$|[\\/])/, home).replace(/\$\{userHome\}/g, home)));
  return [...inside, ...user];
}

/** `mcpHost.roots` as the user wrote it in user settings (a workspace's value never widens the sandbox). */
function userSettingsRoots(): string[] {
  const value = readUserValue<unknown[]>('roots') ?? [];
  return value.filter((x): x is string => typeof x === 'string' && x.trim() !== '');
}

/** `srt` of a global npm install: absolute PATH entries only (a relative one would resolve against a folder). */
function srtOnPath(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    const link = path.join(dir, 'srt');
    if (!existsSync(link)) continue;
    try {
      const real = realpathSync(link);
      if (path.basename(real) === 'cli.js') return real;
    } catch { /* a broken link: keep looking */ }
  }
  return undefined;
}

/** The ripgrep VS Code ships (desktop: `@vscode/ripgrep`, unpacked from the asar; code-server: `ripgrep-universal`). */
function vscodeRipgrep(): string | undefined {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const root = vscode.env.appRoot;
  const candidates = [
    path.join(root, 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
    path.join(root, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe),
    path.join(root, 'node_modules', '@vscode', 'ripgrep-universal', 'bin', `${process.platform}-${process.arch}`, exe),
  ];
  return candidates.find(c => existsSync(c));
}

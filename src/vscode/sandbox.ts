/**
 * The sandbox port for VS Code: srt's CLI (the copy that comes with the extension, or the user's
 * `mcpHost.sandbox.runtimePath`) run by the extension host's own Node, VS Code's own ripgrep, and
 * the extension's storage as the protected folder. Settings are read at each start.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SandboxPort } from '../core';
import { SECTION } from './config';

const cfg = () => vscode.workspace.getConfiguration(SECTION);
const strings = (key: string) => (cfg().get<unknown[]>(key) ?? []).filter((x): x is string => typeof x === 'string');

/** `isUserServer`: `allowUnsandboxed` names user-declared servers only (a workspace server could take the name). */
export function createSandboxPort(context: vscode.ExtensionContext, isUserServer: (server: string) => boolean): SandboxPort {
  const storageDir = context.globalStorageUri.fsPath;
  return {
    // In desktop VS Code this is Electron: it runs scripts as Node only when asked to.
    runtime: process.execPath,
    runtimeEnv: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : undefined,
    get cli() {
      const configured = cfg().get<string>('sandbox.runtimePath')?.trim();
      return configured || path.join(context.extensionPath, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'dist', 'cli.js');
    },
    storageDir,
    // Everything this extension keeps on disk (OAuth client data, logs, prompts' snapshots, other servers' rules).
    protectedPaths: [...new Set([storageDir, context.logUri.fsPath, ...context.storageUri ? [context.storageUri.fsPath] : []])],
    ripgrep: vscodeRipgrep(),
    sandboxAll: () => cfg().get<boolean>('sandbox.all') === true,
    defaultAllowedDomains: () => strings('sandbox.allowedDomains'),
    allowUnsandboxed: server => isUserServer(server) && strings('sandbox.allowUnsandboxed').includes(server),
  };
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

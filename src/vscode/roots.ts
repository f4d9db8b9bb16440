/**
 * Roots = every workspace folder + the user's extra folders (`mcpHost.roots`). Extra folders that
 * do not exist or are not directories are reported, not sent.
 */
import { statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Root } from '@modelcontextprotocol/client';
import { Disposable, Emitter, type RootsPort } from '../core';
import { readUserRoots, SECTION } from './config';

export class WorkspaceRoots extends Disposable implements RootsPort {
  private readonly _onDidChangeRoots = this._register(new Emitter<void>());
  readonly onDidChangeRoots = this._onDidChangeRoots.event;
  private _problems: string[] = [];

  constructor(private readonly onProblem: (message: string) => void) {
    super();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this._onDidChangeRoots.fire()));
    this._register(vscode.workspace.onDidChangeConfiguration(e => {
      if (e.affectsConfiguration(`${SECTION}.roots`)) this._onDidChangeRoots.fire();
    }));
  }

  get problems(): readonly string[] { return this._problems; }

  getRoots(): Root[] {
    // `Uri.file().toString()` gives the same drive-letter casing VS Code uses for ${workspaceFolder}.
    const roots: Root[] = (vscode.workspace.workspaceFolders ?? []).map(f => ({ uri: f.uri.toString(), name: f.name }));
    const problems: string[] = [];
    for (const raw of readUserRoots()) {
      const p = path.resolve(raw.replace(/^~(?=$|[\\/])/, os.homedir()).replace(/\$\{userHome\}/g, os.homedir()));
      let isDir = false;
      try { isDir = statSync(p).isDirectory(); } catch { /* reported below */ }
      if (!isDir) { problems.push(vscode.l10n.t('Root "{0}" in mcpHost.roots is not an existing folder; it is not sent to servers.', raw)); continue; }
      const uri = vscode.Uri.file(p).toString();
      if (!roots.some(r => r.uri === uri)) roots.push({ uri, name: path.basename(p) });
    }
    if (problems.join() !== this._problems.join()) {
      this._problems = problems;
      for (const m of problems) this.onProblem(m);
    }
    return roots;
  }
}

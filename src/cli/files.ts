/**
 * The files the CLI reads declarations from: the ones the user names with `-c` (a path, or an app's
 * own file by name), else the workspace's `.vscode/settings.json` and `.vscode/mcp.json`. A workspace
 * file is the cloned repository's: it must lie inside the folder once every symlink is followed, or a
 * repository could point the CLI at any file of the user's (and read it into an error message).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { configLocations, type SourceKind } from '../core/light';
import type { DeclarationFile } from './declarations';

export class UsageError extends Error {}

const APP_FILES: Record<string, SourceKind> = { 'claude-desktop': 'claudeDesktop', cursor: 'cursorUser' };

/** Whether `target` is `folder` or lies under it (both already real paths). */
const inside = (target: string, folder: string) => {
  const rel = path.relative(folder, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

function workspaceFiles(workspace: string): DeclarationFile[] {
  let root: string;
  try { root = fs.realpathSync(workspace); } catch (e) { throw new UsageError(`cannot open the workspace folder ${workspace}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
  const files: DeclarationFile[] = [];
  for (const name of ['settings.json', 'mcp.json']) {
    const file = path.join(workspace, '.vscode', name);
    if (!fs.existsSync(file)) continue;
    let real: string, text: string;
    try { real = fs.realpathSync(file); } catch (e) { throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
    if (!inside(real, root)) throw new UsageError(`refused ${file}: it is a link to a file outside the workspace folder (${root}); a workspace's declarations must be its own files`);
    try { text = fs.readFileSync(real, 'utf8'); } catch (e) { throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
    files.push({ path: file, text, discovered: true });
  }
  return files;
}

/** The declaration files of this run; `discovered` marks the workspace's own (untrusted until confirmed). */
export function readFiles(configs: readonly string[], workspace: string): DeclarationFile[] {
  if (!configs.length) return workspaceFiles(workspace);
  return configs.map(c => {
    let file = path.resolve(c);
    const kind = APP_FILES[c];
    // The app's own file, never one of that name in the working directory (a repository could plant
    // one); a local file so named is given as ./claude-desktop.
    if (kind) {
      const found = configLocations({ platform: process.platform, home: os.homedir(), env: process.env, workspaceFolders: [] })
        .find(l => l.kind === kind && fs.existsSync(l.path));
      if (!found) throw new UsageError(`no ${c} configuration file found`);
      file = found.path;
    }
    try { return { path: file, text: fs.readFileSync(file, 'utf8') }; }
    catch (e) { throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`); }
  });
}

/**
 * Where other MCP hosts keep their configuration, per platform. Pure: the embedder passes the
 * platform, home and environment, and checks which files exist.
 */
import * as path from 'node:path';

export type SourceKind = 'claudeDesktop' | 'claudeCode' | 'cursorUser' | 'cursorWorkspace' | 'vscodeUser' | 'vscodeWorkspace';

export interface ConfigLocation {
  readonly kind: SourceKind;
  /** Absolute path of the file (it may not exist). */
  readonly path: string;
  /** The workspace folder name for per-folder files. */
  readonly folder?: string;
}

export interface LocationContext {
  readonly platform: NodeJS.Platform;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly workspaceFolders: readonly { readonly name: string; readonly path: string }[];
  /**
   * The running editor's user folder (`…/User`), whose `mcp.json` is VS Code's user MCP configuration;
   * the standard VS Code and VS Code Insiders user folders are listed too.
   */
  readonly editorUserDir?: string;
}

/** Every known location, most specific first (workspace files, then the user's). Duplicates removed. */
export function configLocations(ctx: LocationContext): ConfigLocation[] {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  const out: ConfigLocation[] = [];
  for (const f of ctx.workspaceFolders) {
    out.push({ kind: 'vscodeWorkspace', path: p.join(f.path, '.vscode', 'mcp.json'), folder: f.name });
    out.push({ kind: 'cursorWorkspace', path: p.join(f.path, '.cursor', 'mcp.json'), folder: f.name });
    out.push({ kind: 'claudeCode', path: p.join(f.path, '.mcp.json'), folder: f.name });
  }
  const appData = appDataDir(ctx);
  out.push({ kind: 'claudeDesktop', path: p.join(appData, 'Claude', 'claude_desktop_config.json') });
  // Claude Desktop on Linux is unofficial; its builds use ~/.config even when XDG_CONFIG_HOME is set.
  if (ctx.platform === 'linux') out.push({ kind: 'claudeDesktop', path: p.join(ctx.home, '.config', 'Claude', 'claude_desktop_config.json') });
  out.push({ kind: 'cursorUser', path: p.join(ctx.home, '.cursor', 'mcp.json') });
  if (ctx.editorUserDir) out.push({ kind: 'vscodeUser', path: p.join(ctx.editorUserDir, 'mcp.json') });
  for (const product of ['Code', 'Code - Insiders']) out.push({ kind: 'vscodeUser', path: p.join(appData, product, 'User', 'mcp.json') });
  const seen = new Set<string>();
  return out.filter(l => !seen.has(l.path) && !!seen.add(l.path));
}

/** Where desktop applications keep their per-user data (`%APPDATA%`, `~/Library/Application Support`, `$XDG_CONFIG_HOME`). */
export function appDataDir(ctx: Pick<LocationContext, 'platform' | 'home' | 'env'>): string {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  return ctx.platform === 'win32' ? ctx.env.APPDATA ?? p.join(ctx.home, 'AppData', 'Roaming')
    : ctx.platform === 'darwin' ? p.join(ctx.home, 'Library', 'Application Support')
    : ctx.env.XDG_CONFIG_HOME || p.join(ctx.home, '.config');
}

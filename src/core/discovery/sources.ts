/**
 * The other hosts whose configuration files MCP Host can follow live (`mcpHost.discovery`), and where
 * each keeps them. A workspace source is a file of the opened folders: a cloned repository writes it,
 * so it obeys Workspace Trust like workspace settings. A user source is a file of the user's home that
 * another program writes; neither kind is the user's own declaration to MCP Host.
 */
import * as path from 'node:path';
import { appDataDir, type LocationContext } from '../onboarding/sources';

export const DISCOVERY_SOURCES = [
  'claudeDesktop', 'claudeCodeUser', 'claudeCodeWorkspace', 'cursorUser', 'cursorWorkspace', 'windsurf',
  'vscodeUser', 'vscodeWorkspace', 'cline', 'roo', 'rooWorkspace', 'codex',
] as const;

export type DiscoverySource = typeof DISCOVERY_SOURCES[number];

/**
 * How a file lists its servers: `mcpServers`/`servers` JSON (with comments), Claude Code's user file
 * (`mcpServers` plus `projects[<folder>].mcpServers`), Codex's TOML (`[mcp_servers.<name>]`).
 */
export type DiscoveryFormat = 'json' | 'claudeUser' | 'codexToml';

export interface DiscoveryFile {
  readonly source: DiscoverySource;
  readonly path: string;
  readonly format: DiscoveryFormat;
  /** The workspace folder the file belongs to (workspace sources only): the file must stay inside it. */
  readonly folder?: { readonly name: string; readonly path: string };
}

/** Sources whose servers VS Code's own MCP host runs already: listed here, started only when the user asks for it. */
export const EDITOR_SOURCES: ReadonlySet<DiscoverySource> = new Set(['vscodeUser', 'vscodeWorkspace']);

export const isWorkspaceSource = (s: DiscoverySource): boolean => s.endsWith('Workspace');

/** Every file of the `enabled` sources, user sources first, in {@link DISCOVERY_SOURCES} order. Duplicates removed. */
export function discoveryFiles(ctx: LocationContext, enabled: ReadonlySet<DiscoverySource>): DiscoveryFile[] {
  const p = ctx.platform === 'win32' ? path.win32 : path.posix;
  const appData = appDataDir(ctx);
  const editorUserDirs = [...ctx.editorUserDir ? [ctx.editorUserDir] : [], ...['Code', 'Code - Insiders'].map(product => p.join(appData, product, 'User'))];
  const user: Partial<Record<DiscoverySource, [string, DiscoveryFormat][]>> = {
    claudeDesktop: [
      [p.join(appData, 'Claude', 'claude_desktop_config.json'), 'json'],
      // Claude Desktop on Linux is unofficial; its builds use ~/.config even when XDG_CONFIG_HOME is set.
      ...ctx.platform === 'linux' ? [[p.join(ctx.home, '.config', 'Claude', 'claude_desktop_config.json'), 'json'] as [string, DiscoveryFormat]] : [],
    ],
    claudeCodeUser: [[p.join(ctx.home, '.claude.json'), 'claudeUser']],
    cursorUser: [[p.join(ctx.home, '.cursor', 'mcp.json'), 'json']],
    windsurf: [[p.join(ctx.home, '.codeium', 'windsurf', 'mcp_config.json'), 'json']],
    vscodeUser: editorUserDirs.map(d => [p.join(d, 'mcp.json'), 'json']),
    cline: editorUserDirs.map(d => [p.join(d, 'globalStorage', 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'), 'json']),
    roo: editorUserDirs.map(d => [p.join(d, 'globalStorage', 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'), 'json']),
    codex: [[p.join(ctx.env.CODEX_HOME || p.join(ctx.home, '.codex'), 'config.toml'), 'codexToml']],
  };
  const workspace: Partial<Record<DiscoverySource, string[]>> = {
    claudeCodeWorkspace: ['.mcp.json'],
    cursorWorkspace: ['.cursor', 'mcp.json'],
    vscodeWorkspace: ['.vscode', 'mcp.json'],
    rooWorkspace: ['.roo', 'mcp.json'],
  };
  const out: DiscoveryFile[] = [];
  for (const source of DISCOVERY_SOURCES) {
    if (!enabled.has(source) || isWorkspaceSource(source)) continue;
    for (const [file, format] of user[source] ?? []) out.push({ source, path: file, format });
  }
  for (const source of DISCOVERY_SOURCES) {
    const parts = workspace[source];
    if (!enabled.has(source) || !parts) continue;
    for (const folder of ctx.workspaceFolders) out.push({ source, path: p.join(folder.path, ...parts), format: 'json', folder });
  }
  const seen = new Set<string>();
  return out.filter(f => !seen.has(f.path) && !!seen.add(f.path));
}

/**
 * The sources `mcpHost.discovery` enables, and those whose servers run even though VS Code's own host
 * runs them (`"run"`). The value comes from user settings only (settingsPolicy); anything else is off.
 */
export function enabledSources(value: unknown): { enabled: Set<DiscoverySource>; runHere: Set<DiscoverySource> } {
  const enabled = new Set<DiscoverySource>();
  const runHere = new Set<DiscoverySource>();
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { enabled, runHere };
  for (const source of DISCOVERY_SOURCES) {
    const v = (value as Record<string, unknown>)[source];
    if (v === true || v === 'run') enabled.add(source);
    if (v === 'run' && EDITOR_SOURCES.has(source)) runHere.add(source);
  }
  return { enabled, runHere };
}

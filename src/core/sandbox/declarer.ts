/**
 * Who declared a server, as `SandboxPort.storageScope` names it: each (declarer, name) has its own data
 * folder (its npm cache, its XDG cache) and rules files. A discovered server is named by the file it came
 * from, so a settings server that a workspace names like it (`github@claudeDesktop`) shares nothing with it.
 */
export interface Declarer {
  /** The other program's file the server comes from (mcpHost.discovery), if it is a discovered one. */
  readonly discovered?: { readonly source: string; readonly file: string };
  /** Declared in the user's settings. */
  readonly user: boolean;
  /** The workspace's identity (its folder or workspace file). */
  readonly workspace: string;
}

export function declarerScope(d: Declarer): string {
  if (d.discovered) return `discovered:${d.discovered.source}:${d.discovered.file}`;
  return d.user ? 'user' : `workspace:${d.workspace}`;
}

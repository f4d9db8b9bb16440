/** What the reload run's test files declare, so that one adding its server keeps the others'. */
import * as vscode from 'vscode';

/** The server catalogReload.test.ts declared before the reload (checked after it), if any. */
export function catalogReloadServers(): Record<string, unknown> {
  const all = vscode.workspace.getConfiguration('mcpHost').get<Record<string, unknown>>('servers') ?? {};
  return 'catalogued' in all ? { catalogued: all.catalogued } : {};
}

/** The tools one @mcp request may use: everything enabled, narrowed by `#server`/`#toolSet` words or `/use`. */
import * as vscode from 'vscode';
import { inScope, parseScope, type McpHost } from '../../core';
import { enabledTools, type CatalogTool } from './toolCatalog';
import { chatExcludedServers, toolSets } from './toolSettings';
import { markdownText } from './markdownText';

export interface ScopedRequest {
  readonly tools: CatalogTool[];
  /** The request without its scope words (what the tools are ranked against). */
  readonly prompt: string;
  /** The servers in scope (also those without tools: their skills are offered). */
  readonly servers: readonly string[];
}

/** The request's tools, or undefined after telling the user why the request cannot run (a `/use` naming nothing known). */
export function scopedTools(host: McpHost, request: vscode.ChatRequest, stream: vscode.ChatResponseStream): ScopedRequest | undefined {
  const all = enabledTools(host);
  const sets = toolSets();
  const use = request.command === 'use';
  const scope = parseScope(request.prompt, host.servers.map(c => c.name), sets, use);
  if (use && (scope.unknown.length || !scope.names.length)) {
    // Names are a workspace's and the user's typing: each one a code span that cannot be closed from inside.
    const known = [...host.servers.map(c => c.name), ...Object.keys(sets)].map(n => markdownText(n, 100)).join(', ');
    stream.markdown(scope.unknown.length
      ? vscode.l10n.t('No MCP server or tool set is named {0}. Known: {1}.', scope.unknown.map(n => markdownText(n, 100)).join(', '), known || '—')
      : vscode.l10n.t('Name the servers or tool sets to use, e.g. `/use github,jira fix the login bug`. Known: {0}.', known || '—'));
    return undefined;
  }
  const excluded = new Set(chatExcludedServers());
  const running = host.servers.filter(c => c.state === 'running' && !excluded.has(c.name)).map(c => c.name);
  if (!scope.patterns) return { tools: all, prompt: request.prompt, servers: running };
  const tools = all.filter(t => inScope(scope, t.server, t.tool.name));
  stream.markdown(vscode.l10n.t('_Using only the tools of {0} ({1})._\n\n', scope.names.map(n => markdownText(n, 100)).join(', '), tools.length));
  return { tools, prompt: scope.prompt, servers: running.filter(s => tools.some(t => t.server === s) || scope.names.includes(s)) };
}

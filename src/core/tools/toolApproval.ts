/**
 * Whether a tool call needs the user's confirmation. Patterns are `server/tool` or `server/*`.
 * `readOnlyHint` is an annotation the server chooses, so it only counts for servers the user
 * marked trusted.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

export interface ApprovalSettings {
  readonly autoApprove: readonly string[];
  readonly trustedServers: readonly string[];
}

export function matchesToolPattern(patterns: readonly string[], server: string, tool: string): boolean {
  return patterns.some(p => p === `${server}/${tool}` || p === `${server}/*` || p === '*/*');
}

export type ApprovalReason = 'tool' | 'server' | 'readOnly';

/** `undefined` = ask the user; otherwise why no confirmation is needed. */
export function preApproval(settings: ApprovalSettings, server: string, tool: Tool): ApprovalReason | undefined {
  if (matchesToolPattern(settings.autoApprove, server, tool.name)) return settings.autoApprove.includes(`${server}/${tool.name}`) ? 'tool' : 'server';
  if (tool.annotations?.readOnlyHint === true && settings.trustedServers.includes(server)) return 'readOnly';
  return undefined;
}

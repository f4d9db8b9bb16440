/**
 * What the gateway offers of one server and why it refuses a call: the same choices the chat and
 * the language-model wrappers apply (a tool disabled by `tools.disabled`, a server in
 * `chat.excludedServers`, a tool an MCP App keeps for itself), so no route reaches more than @mcp.
 */
import type { Tool } from '@modelcontextprotocol/client';
import { toolVisibility } from '../apps/appTools';
import { matchesToolPattern } from '../tools/toolApproval';
import type { GatewayPolicy } from './types';

export const OPEN_POLICY: GatewayPolicy = { disabledTools: [], excludedServers: [] };

export function serverRefusal(policy: GatewayPolicy, server: string): string | undefined {
  if (policy.excludedServers.includes(server)) return `The user excluded the MCP server "${server}" from chat.`;
  return undefined;
}

/** Why `tool` of `server` may not run for a model (undefined: it may). */
export function toolRefusal(policy: GatewayPolicy, server: string, tool: string, definition: Tool | undefined): string | undefined {
  const excluded = serverRefusal(policy, server);
  if (excluded) return excluded;
  if (matchesToolPattern(policy.disabledTools, server, tool)) return `The user disabled the tool "${tool}" of MCP server "${server}".`;
  if (!definition) return `MCP server "${server}" has no tool "${tool}".`;
  if (!toolVisibility(definition).model) return `The tool "${tool}" of MCP server "${server}" is only for its MCP App.`;
  return undefined;
}

/** Tools of `server` a model may be offered. */
export function offeredTools(policy: GatewayPolicy, server: string, tools: readonly Tool[]): Tool[] {
  return tools.filter(t => toolRefusal(policy, server, t.name, t) === undefined);
}

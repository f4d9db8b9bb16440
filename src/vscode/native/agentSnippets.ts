/**
 * What a terminal agent needs to reach MCP Host's gateway, in each agent's own configuration format:
 * one Streamable HTTP server per MCP Host server, at the agent's base URL, with its bearer token.
 */
export type AgentKind = 'claude' | 'codex' | 'copilot' | 'other';

export interface AgentConnection {
  /** The agent's base (each server is at `base + encodeURIComponent(name)`). */
  readonly base: string;
  readonly token: string;
  readonly servers: readonly string[];
}

export interface Snippet { readonly language: string; readonly content: string }

const urlOf = (c: AgentConnection, server: string) => `${c.base}${encodeURIComponent(server)}`;
/** A name each agent accepts as a server key (letters, digits, `-`, `_`). */
const keyOf = (server: string) => server.replace(/[^A-Za-z0-9_-]+/g, '_') || 'server';
const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const tomlString = (s: string) => JSON.stringify(s);

export function agentSnippet(kind: AgentKind, c: AgentConnection): Snippet {
  const header = `Bearer ${c.token}`;
  switch (kind) {
    case 'claude':
      // `claude mcp add` writes the server into Claude Code's own configuration.
      return { language: 'shellscript', content: c.servers.map(s => `claude mcp add --transport http ${shellQuote(keyOf(s))} ${shellQuote(urlOf(c, s))} --header ${shellQuote(`Authorization: ${header}`)}`).join('\n') + '\n' };
    case 'codex':
      // ~/.codex/config.toml
      return { language: 'toml', content: c.servers.map(s => `[mcp_servers.${keyOf(s)}]\nurl = ${tomlString(urlOf(c, s))}\nhttp_headers = { Authorization = ${tomlString(header)} }\n`).join('\n') };
    case 'copilot':
      // ~/.copilot/mcp-config.json, or a file passed with `copilot --additional-mcp-config`.
      return { language: 'json', content: `${JSON.stringify({ mcpServers: Object.fromEntries(c.servers.map(s => [keyOf(s), { type: 'http', url: urlOf(c, s), headers: { Authorization: header }, tools: ['*'] }])) }, null, 2)}\n` };
    case 'other':
      return { language: 'json', content: `${JSON.stringify({ servers: Object.fromEntries(c.servers.map(s => [s, { type: 'http', url: urlOf(c, s), headers: { Authorization: header } }])) }, null, 2)}\n` };
  }
}

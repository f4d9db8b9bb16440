/**
 * The gateway's contract: MCP Host's servers served again as native MCP servers over Streamable HTTP
 * on 127.0.0.1, one endpoint per (client, server), each behind an unguessable path and a bearer token
 * of that client's own. VS Code's built-in MCP client (a window) and terminal agents are the clients.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { IDisposable, Event } from '../events';
import type { Logger } from '../logger';
import type { McpHost } from '../host';
import type { ResultStore } from '../tools/resultBudget';

/** Who is calling: a VS Code window (its built-in MCP client) or a terminal agent the user connected. */
export interface GatewayClientInfo { readonly id: string; readonly label: string; readonly kind: 'window' | 'agent' }

/** One `tools/call` that reached the gateway, as the consent callback sees it. */
export interface GatewayCall {
  readonly client: GatewayClientInfo;
  readonly server: string;
  readonly tool: string;
  readonly arguments: unknown;
  readonly annotations?: unknown;
  /** Asked for through the gateway's `call_tool` (listBounds.ts): the client's own confirmation named only `call_tool`. */
  readonly relayed?: boolean;
}

/** The user's choices that decide what models get, the same that @mcp and the wrappers apply. */
export interface GatewayPolicy {
  /** `mcpHost.tools.disabled` patterns (`server/tool`, `server/*`). */
  readonly disabledTools: readonly string[];
  /** `mcpHost.chat.excludedServers`: servers whose tools, resources and prompts models never get. */
  readonly excludedServers: readonly string[];
  /** `mcpHost.chat.maxResultTokens` (a number, or server → number with `*`); absent: the default budget. */
  readonly maxResultTokens?: unknown;
}

export interface GatewayOptions {
  /** The running host (its servers, catalogues and connections). */
  readonly host: McpHost;
  /** Never logs a token or a secret path. */
  readonly logger: Logger;
  /** Default 0 (any free port); always bound to 127.0.0.1. */
  readonly port?: number;
  /**
   * Whether an agent's call may run: the host's per-tool approvals apply here. Window clients are
   * not asked again (VS Code's own confirmation names the server and tool). Absent: agents' calls are refused.
   */
  readonly approve?: (call: GatewayCall) => Promise<boolean>;
  /**
   * Whether a window's call may run. Its client (VS Code's built-in MCP client) confirms calls itself
   * unless the tool it was shown says `readOnlyHint`; the embedder knows what each window was shown
   * (`presentTools`) and asks only where the client did not. Absent: a window's calls run.
   */
  readonly windowConsent?: (call: GatewayCall, tool: Tool | undefined) => Promise<boolean>;
  /**
   * The result gate (`mcpHost.tools.reviewResults`, core/tools/resultReview.ts): whether the client's
   * model may read what a tool returned (its text, cleaned). The gateway holds the result until this
   * answers, at most `reviewTimeoutMs`; no answer in time, an error or a cancelled call: blocked, and
   * the client gets `BLOCKED_RESULT` only. Absent: results go through.
   */
  readonly reviewResult?: (call: GatewayCall, tool: Tool | undefined, text: string, signal: AbortSignal) => Promise<boolean>;
  /**
   * Values removed from what a client gets back (tool results and error texts): the secrets the embedder
   * resolved for its servers, which a server may echo (the CLI's serve redacts as a cold `mcp-host call` does).
   * Absent, or undefined for a client: nothing is removed for it.
   */
  readonly secrets?: (client: GatewayClientInfo) => Iterable<string> | undefined;
  /** How long a result is held for `reviewResult`; default `DEFAULT_REVIEW_TIMEOUT_MS`. */
  readonly reviewTimeoutMs?: number;
  /** The tools a client's `tools/list` shows (after the policy's filter); absent: as the host lists them. */
  readonly presentTools?: (client: GatewayClientInfo, server: string, tools: readonly Tool[]) => Promise<Tool[]>;
  /** Read on every request, so a settings change applies at once; absent: nothing disabled or excluded. */
  readonly policy?: () => GatewayPolicy;
  /** Where results over the budget are kept whole (VS Code shares the store `mcpHost_readResource` reads). */
  readonly results?: ResultStore;
  /** Largest request body accepted (bytes); default 4 MiB. */
  readonly maxRequestBodyBytes?: number;
  /** Bounds on 2025-era sessions (per client, in total, idle time); defaults in `DEFAULT_SESSION_LIMITS`. */
  readonly sessionLimits?: Partial<SessionLimits>;
}

/** Bounds on a gateway's 2025-era sessions (2026-07-28 clients keep none). */
export interface SessionLimits {
  /** Sessions one client may hold at once. */
  readonly perClient: number;
  /** Sessions of all clients together. */
  readonly total: number;
  /** A session with nothing in flight (no request, no open stream) for this long is closed. */
  readonly idleMs: number;
}

/** Where a client reaches one server: the URL and the headers to send (the bearer token). */
export interface GatewayEndpoint { readonly url: string; readonly headers: Record<string, string> }

export interface GatewayAgent {
  readonly id: string;
  readonly label: string;
  readonly servers: readonly string[];
  readonly lastCall?: { readonly server: string; readonly tool: string; readonly at: number };
}

export interface Gateway extends IDisposable {
  /** `http://127.0.0.1:<port>` (no path: every endpoint has a secret path of its client's). */
  readonly origin: string;
  /** The endpoint that exposes one MCP Host server as one native MCP server, for a client. */
  endpoint(server: string, client: GatewayClientInfo): GatewayEndpoint;
  /**
   * A token of its own for a terminal agent, reaching only `servers`. `url` is the agent's base: each
   * server is at `url + encodeURIComponent(server)`. Revoking ends its sessions at once.
   */
  issueAgentToken(label: string, servers: readonly string[]): { id: string; token: string; url: string };
  /** Revokes an agent (or a window client): its token is refused from now on and its sessions end. */
  revoke(id: string): void;
  readonly agents: readonly GatewayAgent[];
  readonly onDidChangeAgents: Event<void>;
  /** The policy changed (a setting): clients are told to list again. */
  policyChanged(): void;
}

/**
 * The MCP sessions of the gateway, in both eras a client may speak. 2025-11-25 clients (VS Code's
 * built-in client) keep a session (`Mcp-Session-Id`) with a listening GET stream, which is where
 * `list_changed` and resource updates go; 2026-07-28 clients are served per request by the SDK's
 * `createMcpHandler` and get change events on their `subscriptions/listen` streams. Each session
 * belongs to one (client, server): another client's session id is not found, and closing a client
 * (revoke, a closed window) ends all of its sessions at once.
 *
 * Sessions are bounded: a client that opens sessions and never sends `DELETE` (many do; the SDK's
 * `close()` does not) would otherwise keep a `Server` and a transport alive for each until the window
 * closes. A session with nothing in flight (no request, no open stream) expires after `idleMs`; a new
 * session over a client's bound replaces that client's least recently used idle one (the client's own
 * leak never costs another client a session); when every one is in use, or the gateway's total is
 * reached, the `initialize` gets a JSON-RPC error that says so.
 */
import { randomUUID } from 'node:crypto';
import { createMcpHandler, WebStandardStreamableHTTPServerTransport, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import type { CatalogKind } from '../catalog/serverCatalog';
import type { SessionLimits } from './types';

interface LegacySession {
  readonly clientId: string;
  readonly server: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly mcp: Server;
  readonly subscriptions: Set<string>;
  /** Requests and streams of this session still open. */
  busy: number;
  /** When the last of them ended (or the session began). */
  lastSeen: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { perClient: 128, total: 512, idleMs: 15 * 60_000 };

interface ModernEndpoint { readonly clientId: string; readonly server: string; readonly handler: McpHttpHandler }

/** The request's body as the gateway parsed it (absent when it is no JSON: the SDK then answers the parse error). */
export interface ParsedBody { readonly parsedBody?: unknown }

/** Builds the proxy `Server` of one (client, server); `subscribed` tracks its resource subscriptions. */
export type ProxyFactory = (subscribed: (uri: string, on: boolean) => void) => Server;

export class GatewaySessions {
  private readonly legacy = new Map<string, LegacySession>();
  private readonly modern = new Map<string, ModernEndpoint>();
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(
    private readonly maxRequestBodySize: number,
    private readonly onError: (e: Error) => void,
    private readonly limits: SessionLimits = DEFAULT_SESSION_LIMITS,
  ) {
    this.sweeper = setInterval(() => this.expireIdle(), Math.max(10, Math.min(limits.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  /**
   * Serves a 2025-era request: within its session, or an `initialize` that opens one. The request's
   * signal aborts when its HTTP exchange ends (answered, stream closed, or the client gone): until
   * then the session counts as in use.
   */
  async serveLegacy(request: Request, parsed: ParsedBody, clientId: string, clientLabel: string, server: string, factory: ProxyFactory): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const s = this.legacy.get(id);
      if (!s || s.clientId !== clientId || s.server !== server) return jsonRpcError(404, 'Session not found.');
      this.track(s, request.signal);
      return s.transport.handleRequest(request, parsed);
    }
    const full = this.makeRoom(clientId, clientLabel);
    if (full) return jsonRpcError(429, full);
    const subscriptions = new Set<string>();
    const mcp = factory((uri, on) => { if (on) subscriptions.add(uri); else subscriptions.delete(uri); });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: sid => {
        const s: LegacySession = { clientId, server, transport, mcp, subscriptions, busy: 0, lastSeen: Date.now() };
        this.legacy.set(sid, s);
        this.track(s, request.signal);
      },
      onsessionclosed: sid => { this.drop(sid); },
      maxRequestBodySize: this.maxRequestBodySize,
    });
    transport.onerror = e => this.onError(e);
    await mcp.connect(transport);
    const response = await transport.handleRequest(request, parsed);
    // Anything but a successful `initialize` leaves no session behind.
    if (!transport.sessionId || !this.legacy.has(transport.sessionId)) await mcp.close().catch(() => undefined);
    return response;
  }

  /** Counts the session in use until `signal` (its HTTP exchange) ends. */
  private track(s: LegacySession, signal: AbortSignal): void {
    if (signal.aborted) { s.lastSeen = Date.now(); return; }
    s.busy++;
    signal.addEventListener('abort', () => { s.busy--; s.lastSeen = Date.now(); }, { once: true });
  }

  /** Frees a place for a new session of `clientId`; the refusal's message when there is none. */
  private makeRoom(clientId: string, clientLabel: string): string | undefined {
    this.expireIdle();
    const own = [...this.legacy].filter(([, s]) => s.clientId === clientId);
    if (own.length < this.limits.perClient && this.legacy.size < this.limits.total) return undefined;
    const idle = own.filter(([, s]) => s.busy === 0).sort(([, a], [, b]) => a.lastSeen - b.lastSeen)[0];
    if (idle) { this.drop(idle[0]); return undefined; }
    return own.length >= this.limits.perClient
      ? `${clientLabel} has ${own.length} MCP sessions open and in use, the most MCP Host allows one client. Close sessions it no longer needs (HTTP DELETE with their Mcp-Session-Id) and connect again.`
      : `MCP Host's gateway has ${this.legacy.size} MCP sessions open, the most it serves at once. Close sessions no longer needed (HTTP DELETE with their Mcp-Session-Id) and connect again.`;
  }

  /** Closes every session that has had nothing in flight for the idle time. */
  private expireIdle(): void {
    const before = Date.now() - this.limits.idleMs;
    for (const [sid, s] of this.legacy) if (s.busy === 0 && s.lastSeen <= before) this.drop(sid);
  }

  /** Serves a 2026-07-28 request on the (client, server)'s per-request handler. */
  serveModern(request: Request, parsed: ParsedBody, clientId: string, server: string, factory: ProxyFactory): Promise<Response> {
    const key = `${clientId}\0${server}`;
    let endpoint = this.modern.get(key);
    if (!endpoint) {
      const handler = createMcpHandler(() => factory(() => undefined), { legacy: 'reject', maxRequestBodySize: this.maxRequestBodySize, onerror: e => this.onError(e) });
      endpoint = { clientId, server, handler };
      this.modern.set(key, endpoint);
    }
    return endpoint.handler.fetch(request, parsed);
  }

  /** A catalogue of `server` changed: every client of it is told to list again. */
  catalogChanged(server: string, kind: CatalogKind): void {
    for (const s of this.legacy.values()) {
      if (s.server !== server) continue;
      const sent = kind === 'tools' ? s.mcp.sendToolListChanged() : kind === 'prompts' ? s.mcp.sendPromptListChanged() : s.mcp.sendResourceListChanged();
      void sent.catch(() => undefined);
    }
    for (const m of this.modern.values()) {
      if (m.server !== server) continue;
      if (kind === 'tools') m.handler.notify.toolsChanged();
      else if (kind === 'prompts') m.handler.notify.promptsChanged();
      else m.handler.notify.resourcesChanged();
    }
  }

  resourceUpdated(server: string, uri: string): void {
    for (const s of this.legacy.values()) {
      if (s.server === server && s.subscriptions.has(uri)) void s.mcp.sendResourceUpdated({ uri }).catch(() => undefined);
    }
    for (const m of this.modern.values()) if (m.server === server) m.handler.notify.resourceUpdated(uri);
  }

  /** Every server's lists changed (a setting): all clients list again. */
  allChanged(): void {
    const servers = new Set([...this.legacy.values(), ...this.modern.values()].map(s => s.server));
    for (const server of servers) for (const kind of ['tools', 'prompts', 'resources'] as const) this.catalogChanged(server, kind);
  }

  /** Ends every session of `clientId` (its streams close; later requests of it are refused upstream). */
  async closeClient(clientId: string): Promise<void> {
    const work: Promise<unknown>[] = [];
    for (const [sid, s] of this.legacy) if (s.clientId === clientId) { this.legacy.delete(sid); work.push(s.mcp.close()); }
    for (const [key, m] of this.modern) if (m.clientId === clientId) { this.modern.delete(key); work.push(m.handler.close()); }
    await Promise.all(work.map(w => w.catch(() => undefined)));
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const ids = new Set([...this.legacy.values(), ...this.modern.values()].map(s => s.clientId));
    await Promise.all([...ids].map(id => this.closeClient(id)));
  }

  get size(): number { return this.legacy.size; }

  private drop(sid: string): void {
    const s = this.legacy.get(sid);
    if (!s) return;
    this.legacy.delete(sid);
    void s.mcp.close().catch(() => undefined);
  }
}

function jsonRpcError(status: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: status === 429 ? -32000 : -32001, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}

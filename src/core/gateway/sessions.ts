/**
 * The MCP sessions of the gateway, in both eras a client may speak. 2025-11-25 clients (VS Code's
 * built-in client) keep a session (`Mcp-Session-Id`) with a listening GET stream, which is where
 * `list_changed` and resource updates go; 2026-07-28 clients are served per request by the SDK's
 * `createMcpHandler` and get change events on their `subscriptions/listen` streams. Each session
 * belongs to one (client, server): another client's session id is not found, and closing a client
 * (revoke, a closed window) ends all of its sessions at once.
 */
import { randomUUID } from 'node:crypto';
import { createMcpHandler, WebStandardStreamableHTTPServerTransport, type McpHttpHandler, type Server } from '@modelcontextprotocol/server';
import type { CatalogKind } from '../catalog/serverCatalog';

interface LegacySession {
  readonly clientId: string;
  readonly server: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly mcp: Server;
  readonly subscriptions: Set<string>;
}

interface ModernEndpoint { readonly clientId: string; readonly server: string; readonly handler: McpHttpHandler }

/** Builds the proxy `Server` of one (client, server); `subscribed` tracks its resource subscriptions. */
export type ProxyFactory = (subscribed: (uri: string, on: boolean) => void) => Server;

export class GatewaySessions {
  private readonly legacy = new Map<string, LegacySession>();
  private readonly modern = new Map<string, ModernEndpoint>();

  constructor(private readonly maxRequestBodySize: number, private readonly onError: (e: Error) => void) {}

  /** Serves a 2025-era request: within its session, or an `initialize` that opens one. */
  async serveLegacy(request: Request, clientId: string, server: string, factory: ProxyFactory): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const s = this.legacy.get(id);
      if (!s || s.clientId !== clientId || s.server !== server) return jsonRpcError(404, 'Session not found.');
      return s.transport.handleRequest(request);
    }
    const subscriptions = new Set<string>();
    const mcp = factory((uri, on) => { if (on) subscriptions.add(uri); else subscriptions.delete(uri); });
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: sid => { this.legacy.set(sid, { clientId, server, transport, mcp, subscriptions }); },
      onsessionclosed: sid => { this.drop(sid); },
      maxRequestBodySize: this.maxRequestBodySize,
    });
    transport.onerror = e => this.onError(e);
    await mcp.connect(transport);
    const response = await transport.handleRequest(request);
    // Anything but a successful `initialize` leaves no session behind.
    if (!transport.sessionId || !this.legacy.has(transport.sessionId)) await mcp.close().catch(() => undefined);
    return response;
  }

  /** Serves a 2026-07-28 request on the (client, server)'s per-request handler. */
  serveModern(request: Request, clientId: string, server: string, factory: ProxyFactory): Promise<Response> {
    const key = `${clientId}\0${server}`;
    let endpoint = this.modern.get(key);
    if (!endpoint) {
      const handler = createMcpHandler(() => factory(() => undefined), { legacy: 'reject', maxRequestBodySize: this.maxRequestBodySize, onerror: e => this.onError(e) });
      endpoint = { clientId, server, handler };
      this.modern.set(key, endpoint);
    }
    return endpoint.handler.fetch(request);
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
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }), { status, headers: { 'content-type': 'application/json' } });
}

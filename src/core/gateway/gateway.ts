/**
 * The gateway: one HTTP server on 127.0.0.1 that serves each MCP Host server as a native MCP server
 * to the clients it knows (windows, agents), at `/<client's secret path>/<server>` with the client's
 * bearer token. Every request passes the guard (no web page, no foreign Host, bounded body) and the
 * client's credentials before any MCP is read; then it is served in the era the client speaks.
 *
 * Consent: a window's client is VS Code's built-in MCP client, which confirms every tool call itself
 * naming server and tool, so the gateway does not ask again; an agent's call is the host's to approve
 * (`approve`), and without an approver it is refused.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { Emitter, type IDisposable } from '../events';
import { ResultStore } from '../tools/resultBudget';
import { DEFAULT_REVIEW_TIMEOUT_MS } from '../tools/resultReview';
import { GatewayClients, type GatewayClient } from './clients';
import { refuseRequest } from './httpGuard';
import { readBody, sendRefusal, sendWebResponse, toWebRequest } from './httpAdapter';
import { holdIdleConnections, LISTEN_BACKLOG } from './keepAlive';
import { createProxyServer } from './proxyServer';
import { DEFAULT_SESSION_LIMITS, GatewaySessions } from './sessions';
import { OPEN_POLICY } from './toolFilter';
import type { Gateway, GatewayAgent, GatewayCall, GatewayClientInfo, GatewayEndpoint, GatewayOptions } from './types';

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const http = createServer();
  holdIdleConnections(http);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen({ port: options.port ?? 0, host: '127.0.0.1', backlog: LISTEN_BACKLOG }, () => { http.off('error', reject); resolve(); });
  });
  return new McpGateway(options, http);
}

class McpGateway implements Gateway {
  private readonly clients = new GatewayClients();
  private readonly sessions: GatewaySessions;
  private readonly results: ResultStore;
  private readonly maxBody: number;
  private readonly port: number;
  private readonly listeners: IDisposable[] = [];
  private readonly _onDidChangeAgents = new Emitter<void>();
  readonly onDidChangeAgents = this._onDidChangeAgents.event;
  readonly origin: string;
  private disposed = false;

  constructor(private readonly options: GatewayOptions, private readonly http: HttpServer) {
    this.port = (http.address() as AddressInfo).port;
    this.origin = `http://127.0.0.1:${this.port}`;
    this.maxBody = options.maxRequestBodyBytes ?? DEFAULT_MAX_BODY;
    this.results = options.results ?? new ResultStore();
    this.sessions = new GatewaySessions(this.maxBody, e => options.logger.debug(`Gateway: ${e.message}`), { ...DEFAULT_SESSION_LIMITS, ...options.sessionLimits });
    http.on('request', (req: IncomingMessage, res: ServerResponse) => { void this.serve(req, res); });
    const { host } = options;
    this.listeners.push(
      host.onDidChangeCatalog(e => this.sessions.catalogChanged(e.server, e.kind)),
      host.onDidUpdateResource(e => this.sessions.resourceUpdated(e.server, e.uri)),
      host.onDidChangeState(e => {
        // Running or not decides whether the lists are empty: clients list again on every such change.
        if (e.state === 'running' || e.previous === 'running') for (const kind of ['tools', 'prompts', 'resources'] as const) this.sessions.catalogChanged(e.server, kind);
      }),
    );
    options.logger.info(`Gateway listening on 127.0.0.1:${this.port}.`);
  }

  endpoint(server: string, client: GatewayClientInfo): GatewayEndpoint {
    this.assertOpen();
    const c = this.clients.ensure(client);
    return { url: `${this.origin}/${c.path}/${encodeURIComponent(server)}`, headers: { Authorization: `Bearer ${c.token}` } };
  }

  issueAgentToken(label: string, servers: readonly string[]): { id: string; token: string; url: string } {
    this.assertOpen();
    const id = `agent-${randomUUID()}`;
    const c = this.clients.ensure({ id, label, kind: 'agent' }, servers);
    this._onDidChangeAgents.fire();
    return { id, token: c.token, url: `${this.origin}/${c.path}/` };
  }

  revoke(id: string): void {
    const c = this.clients.remove(id);
    if (!c) return;
    void this.sessions.closeClient(id);
    if (c.info.kind === 'agent') this._onDidChangeAgents.fire();
  }

  get agents(): readonly GatewayAgent[] {
    return this.clients.all().filter(c => c.info.kind === 'agent').map(c => ({
      id: c.info.id, label: c.info.label, servers: [...(c.servers ?? [])], ...(c.lastCall ? { lastCall: { ...c.lastCall } } : {}),
    }));
  }

  policyChanged(): void { this.sessions.allChanged(); }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    // Credentials go first: a request arriving while the sessions close is refused.
    this.clients.clear();
    for (const l of this.listeners) l.dispose();
    void this.sessions.closeAll();
    this.http.close();
    this.http.closeAllConnections();
    this._onDidChangeAgents.dispose();
  }

  private assertOpen(): void {
    if (this.disposed) throw new Error('The MCP Host gateway has been closed.');
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const refused = this.disposed ? { status: 503, message: 'The gateway is closed.' } : refuseRequest(req, this.port, this.maxBody);
      if (refused) return sendRefusal(res, refused.status, refused.message);
      const route = parseRoute(req.url ?? '/');
      const client = route && this.clients.authenticate(route.path, req.headers.authorization);
      // One answer for an unknown path and a wrong token: neither tells a prober which part was right.
      if (!route || !client) return sendRefusal(res, 401, 'Unauthorized.');
      const server = route.server;
      if ((client.servers && !client.servers.includes(server)) || !this.options.host.get(server)) {
        return sendRefusal(res, 404, `No MCP server named "${server}" is offered here.`);
      }
      const aborted = new AbortController();
      res.on('close', () => aborted.abort());
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const body = hasBody ? await readBody(req, this.maxBody) : undefined;
      if (hasBody && body === undefined) return sendRefusal(res, 413, 'Request body too large.');
      const request = toWebRequest(req, this.origin, aborted.signal, body?.text);
      const parsed = body?.json ? { parsedBody: body.json.value } : {};
      const factory = (subscribed: (uri: string, on: boolean) => void) => createProxyServer({
        host: this.options.host, server, client: client.info, subscribed,
        policy: this.options.policy ?? (() => OPEN_POLICY),
        results: this.results,
        consent: call => this.consent(call),
        ...(this.options.reviewResult ? { review: (call: GatewayCall, text: string, signal: AbortSignal) => this.review(call, text, signal) } : {}),
        ...(this.options.presentTools ? { present: (tools: readonly Tool[]) => this.options.presentTools!(client.info, server, tools) } : {}),
        onCall: (s, tool) => this.called(client, s, tool),
        ...(this.options.secrets ? { secrets: () => this.options.secrets!(client.info) } : {}),
      });
      const legacy = await isLegacyRequest(request, parsed.parsedBody, { maxRequestBodySize: this.maxBody });
      const response = legacy
        ? await this.sessions.serveLegacy(request, parsed, client.info.id, client.info.label, server, factory)
        : await this.sessions.serveModern(request, parsed, client.info.id, server, factory);
      await sendWebResponse(res, response);
    } catch (e) {
      this.options.logger.debug(`Gateway request failed: ${e instanceof Error ? e.message : String(e)}`);
      if (!res.headersSent) sendRefusal(res, 400, 'Bad request.');
      else res.end();
    }
  }

  private async consent(call: GatewayCall): Promise<boolean> {
    const { approve, windowConsent } = this.options;
    try {
      if (call.client.kind === 'window') return windowConsent ? await windowConsent(call, this.options.host.get(call.server)?.tool(call.tool)) : true;
      return approve ? await approve(call) : false;
    } catch { return false; }
  }

  /** The result gate, bounded: the embedder's answer, or blocked when it does not come in time, fails, or the call ends. */
  private async review(call: GatewayCall, text: string, signal: AbortSignal): Promise<boolean> {
    const gate = this.options.reviewResult!;
    const stop = new AbortController();
    const ended = AbortSignal.any([signal, stop.signal]);
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        gate(call, this.options.host.get(call.server)?.tool(call.tool), text, ended).then(ok => ok === true, () => false),
        new Promise<boolean>(resolve => {
          timer = setTimeout(() => resolve(false), this.options.reviewTimeoutMs ?? DEFAULT_REVIEW_TIMEOUT_MS);
          ended.addEventListener('abort', () => resolve(false), { once: true });
        }),
      ]);
    } finally {
      clearTimeout(timer);
      stop.abort(); // the prompt of an unanswered review is closed
    }
  }

  private called(client: GatewayClient, server: string, tool: string): void {
    client.lastCall = { server, tool, at: Date.now() };
    if (client.info.kind === 'agent') this._onDidChangeAgents.fire();
  }
}

/** `/<path>/<server>` → its parts (the server name percent-encoded); anything else is no route. */
function parseRoute(url: string): { path: string; server: string } | undefined {
  const pathname = url.split('?')[0];
  const m = /^\/([A-Za-z0-9_-]{43})\/([^/]+)$/.exec(pathname);
  if (!m) return undefined;
  try { return { path: m[1], server: decodeURIComponent(m[2]) }; } catch { return undefined; }
}

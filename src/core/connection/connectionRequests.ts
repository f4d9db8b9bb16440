/**
 * What a user reaches through a connection while it runs: the running client's facts (server info,
 * capabilities, transport, pid) and the requests sent through it. The state machine that makes and
 * ends the running client is {@link ServerConnection}, which extends this.
 */
import type { CallToolResult, Client, CompleteRequest, CompleteResult, GetPromptResult, Implementation, ReadResourceResult, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import { specTypeSchemas } from '@modelcontextprotocol/client';
import { ConnectionState } from './connectionState';
import type { ServerRef } from '../ports';
import { listMethod, type CatalogKind, type ServerCatalog } from '../catalog/serverCatalog';
import { cacheContext } from './catalogRequests';
import type { TaskFollower } from './extensionTasks';
import { sendRequest, type CallOptions, type RequestTarget, type ResultSchema, type ToolCallOptions } from './requestPath';
import { throughCache, type ResponseCache } from './responseCache';
import type { RunningClient } from './start/wireClient';
import type { ToolCalls } from './toolCalls';
import { UseTracker } from './useTracker';

export abstract class ConnectionRequests extends ConnectionState {
  abstract readonly catalog: ServerCatalog;
  protected abstract readonly requests: RequestTarget & TaskFollower;
  protected abstract readonly tools: ToolCalls;
  protected abstract readonly cache: ResponseCache;

  protected running?: RunningClient;
  /** The last running client's transport kind and protocol survive a crash (the restart countdown names them). */
  protected lastRunning?: Pick<RunningClient, 'kind' | 'protocolVersion'>;

  /** What uses this server now and when it was last used (`mcpHost.idleStop`). */
  readonly uses = new UseTracker();

  protected get client(): Client | undefined { return this.running?.client; }
  get serverInfo(): Implementation | undefined { return this.client?.getServerVersion(); }
  get capabilities(): ServerCapabilities | undefined { return this.client?.getServerCapabilities(); }
  get instructions(): string | undefined { return this.client?.getInstructions(); }
  get protocolVersion(): string | undefined { return this.lastRunning?.protocolVersion; }
  /** The transport actually in use (`http` may have fallen back to `sse`). */
  get transportKind(): 'stdio' | 'http' | 'sse' | undefined { return this.lastRunning?.kind; }
  /** Process id of a stdio server while it runs. */
  get pid(): number | undefined { return this.running?.pid; }
  /** Loopback port of the Node inspector of a running `dev.debug` server (announced on its stderr). */
  get inspectorPort(): number | undefined { return this.running?.inspectorPort; }
  /** The values a copy of what this server sent must not keep: `${input:…}` values, OAuth tokens (core/catalog/catalogCache). */
  get redactions(): readonly string[] { return this.secrets; }
  get ref(): ServerRef { return { name: this.name, title: this.serverInfo?.title }; }

  // ---- requests -------------------------------------------------------------------------------

  /** Sends a request with the server's timeout, cancellation and progress; errors name the server. */
  request<T>(method: string, params: Record<string, unknown> | undefined, schema: ResultSchema, opts: CallOptions = {}): Promise<T> {
    return this.uses.track(sendRequest<T>(this.requests, method, params, schema, opts));
  }

  /**
   * Calls a tool. On 2026-era servers any call may come back as a task (tasks extension); on
   * 2025-era ones, tools whose `execution.taskSupport` is `required` (or `optional` with
   * `preferTask`) run as tasks when the server supports task-augmented `tools/call`. Either way task
   * status goes to `onTaskStatus`, and aborting the signal sends `tasks/cancel`.
   */
  callTool(name: string, args: Record<string, unknown> = {}, opts: ToolCallOptions = {}): Promise<CallToolResult> {
    // The tool's definition (task support, output schema) is known only once a restart has listed it again.
    // A running server's call skips the wait (and its tick): the hot path of every tool call.
    return this.uses.track(this.state === 'running' ? this.tools.send(name, args, opts) : this.ready(opts, 'tools/call').then(() => this.tools.send(name, args, opts)));
  }

  protected supportsToolTasks(): boolean {
    return !!(this.capabilities as { tasks?: { requests?: { tools?: { call?: object } } } } | undefined)?.tasks?.requests?.tools?.call;
  }

  /** Answered from the response cache while a read of `uri` is fresh (its `ttlMs`, capped; 2026-07-28 servers). */
  async readResource(uri: string, opts?: CallOptions): Promise<ReadResourceResult> {
    await this.ready(opts, 'resources/read');
    return throughCache(this.cache, 'resources/read', uri, cacheContext({ client: () => this.client, secrets: () => this.secrets }),
      () => this.request<ReadResourceResult>('resources/read', { uri }, specTypeSchemas.ReadResourceResult, opts));
  }

  /**
   * Lists `kinds` again from the server, past the response cache: what the user's Refresh does
   * (spec: a client "MAY re-fetch before the TTL expires if they have reason to believe the data
   * has changed"; a person asking for it is such a reason).
   */
  reload(kinds: readonly CatalogKind[]): Promise<void> {
    for (const kind of kinds) this.cache.invalidate(listMethod(kind));
    return Promise.all(kinds.map(k => this.catalog.refresh(k))).then(() => undefined);
  }

  getPrompt(name: string, args: Record<string, string> = {}, opts?: CallOptions): Promise<GetPromptResult> {
    return this.request('prompts/get', { name, arguments: args }, specTypeSchemas.GetPromptResult, opts);
  }

  complete(params: CompleteRequest['params'], opts?: CallOptions): Promise<CompleteResult> {
    return this.request('completion/complete', params, specTypeSchemas.CompleteResult, opts);
  }

  async ping(opts?: CallOptions): Promise<void> { await this.request('ping', undefined, specTypeSchemas.EmptyResult, opts); }
  async subscribe(uri: string): Promise<void> {
    await this.ready({}, 'resources/subscribe');
    const listens = this.running?.listens;
    if (listens) await listens.subscribe(uri);
    else await this.request('resources/subscribe', { uri }, specTypeSchemas.EmptyResult);
    this.uses.subscription(uri, true);
  }

  async unsubscribe(uri: string): Promise<void> {
    this.uses.subscription(uri, false);
    const listens = this.running?.listens;
    if (listens) await listens.unsubscribe(uri);
    else await this.request('resources/unsubscribe', { uri }, specTypeSchemas.EmptyResult);
  }

  tool(name: string): Tool | undefined { return this.tools.get(name); }
}

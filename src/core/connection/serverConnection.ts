/**
 * One MCP server: an SDK `Client` over its transport, as an explicit state machine
 * `stopped → starting → running → error | stopped`, with bounded automatic restarts, per-request
 * timeouts, catalogs and logging. Failures stay inside this object; the host keeps going.
 */
import { createHash } from 'node:crypto';
import type { Client, RequestOptions, Transport } from '@modelcontextprotocol/client';
import { ProtocolErrorCode, SdkError, SdkErrorCode, SdkHttpError, specTypeSchemas, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  type CallToolResult, type CompleteRequest, type CompleteResult, type GetPromptResult, type Implementation,
  type ReadResourceResult, type ServerCapabilities, type Tool,
} from '@modelcontextprotocol/client';
import type { ServerDeclaration, TransportType } from '../config/types';
import { resolveDeclaration, ResolveError } from '../config/resolve';
import { WorkspaceTrustRequiredError, type TrustRequirement } from '../config/trust';
import { Disposable, Emitter, type Event } from '../events';
import { nullLogger, redact, toMcpLevel, type Logger } from '../logger';
import type { HostPorts, ServerRef } from '../ports';
import { listMethod, ServerCatalog, type CatalogKind } from '../catalog/serverCatalog';
import { plainText } from '../text/plainText';
import { OutputValidators } from '../catalog/outputValidators';
import { BudgetExceededError, ServerBudget, type ServerLimits } from '../budgets';
import { CONNECTION_CLOSED, describeExit, describeNetworkError, errorText, formatDuration, REQUEST_TIMEOUT, summarizeRefusal, ServerError, toServerError } from './errors';
import { defaultRestartOptions, RestartPolicy, type RestartOptions } from './restartPolicy';
import { createHttpTransport, createStdioTransport } from './transports';
import { LaunchError, StdioTransport, type StdioLaunch } from './stdioTransport';
import type { StartedProcess } from './earlyProcesses';
import { TracingTransport } from './tracingTransport';
import { rootPaths, sandboxLaunch, SandboxUnavailableError } from '../sandbox';
import { listenForInspector, withInspector, type InspectorPick } from '../dev/inspector';
import { callToolAsTask, callToolOrTask, sendRequest, sendWith, withAuthRetry, type CallOptions, type RequestTarget, type ResultSchema, type ToolCallOptions } from './requestPath';
import { answerTaskInput, createHostClient, fetchCatalogPage, loadCatalogs } from './clientSetup';
import type { TaskFollower } from './extensionTasks';
import { abortError } from './taskPolling';
import { asStdioTransport, versionNegotiation } from './era';
import { ListenSubscriptions } from './listenSubscriptions';
import { ServerRoots } from './serverRoots';
import { ResponseCache, throughCache, type CacheableMethod, type CacheContext } from './responseCache';
import { AuthorizationError, findAuthError, findAuthorizationPending, InsufficientScopeError, normalizeServerUrl, OAuthSession, SignInRequiredError, type AuthStatus } from '../auth';

export type ServerState = 'stopped' | 'starting' | 'running' | 'error';

export interface StateChange {
  readonly server: string;
  readonly state: ServerState;
  readonly previous: ServerState;
  /** Why the state changed (an error, a crash, a restart countdown); user-facing. */
  readonly message?: string;
  /** In `error`: the server needs an OAuth sign-in ({@link ServerConnection.signIn}). */
  readonly needsSignIn?: boolean;
}

export interface ConnectionOptions {
  readonly ports: HostPorts;
  readonly logger?: Logger;
  /** Crash-restart budget; a getter lets an embedder's setting apply to the next crash. */
  readonly restart?: RestartOptions | (() => RestartOptions);
  /** Default per-request timeout when the declaration sets none (ms). Progress resets it. */
  readonly defaultTimeoutMs?: number;
  /** How long a server may take to start and answer `initialize` (ms); includes process start-up. */
  readonly startTimeoutMs?: number;
  /** Upper bound for a request that keeps reporting progress (ms). */
  readonly maxTotalTimeoutMs?: number;
  readonly listChangedDebounceMs?: number;
  /** What one server may make the host spend (message size, catalogue, log and notification rates). */
  readonly limits?: Partial<ServerLimits>;
}

export type { CallOptions, ToolCallOptions } from './requestPath';

const FALLBACK_STATUSES = new Set([400, 404, 405]);
/** Largest delay `setTimeout` takes (a larger one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;
const PROBE_TIMEOUT_MS = 5000;
/** What the Streamable HTTP transport reports when a response or listening stream breaks. */
const STREAM_BROKE = /^(SSE stream disconnected|Failed to reconnect|Maximum reconnection attempts)/;

export class ServerConnection extends Disposable {
  private client?: Client;
  private transport?: TracingTransport;
  /** Bumped on every start/stop so late callbacks of an old connection are ignored. */
  private generation = 0;
  private _state: ServerState = 'stopped';
  private _message?: string;
  private declaredSecrets: readonly string[] = [];
  private authSession?: OAuthSession;
  private signInPending = false;
  private _needsSignIn = false;
  private _trustRequirements: readonly TrustRequirement[] = [];
  private readonly roots: ServerRoots;
  private closedReason?: string;
  private restartTimer?: NodeJS.Timeout;
  /** Between a crash and the end of the automatic restart that follows it. */
  private restarting = false;
  private probing = false;
  /** Methods whose refusal the embedder was told about (once per method). */
  private readonly refusalsReported = new Set<string>();
  private readonly restartPolicy: RestartPolicy;
  private readonly validators: OutputValidators;
  private toolsByName = new Map<string, Tool>();
  /** Listed tool → the options handed to the SDK's callTool with its definition (see {@link toolCallOptions}). */
  private sdkDefinitions = new WeakMap<Tool, { readonly ro: RequestOptions; readonly options: RequestOptions & { toolDefinition?: Tool } }>();
  private _transportKind?: 'stdio' | 'http' | 'sse';
  private _protocolVersion?: string;
  /** Change notifications of a 2026-07-28 connection (`subscriptions/listen`); undefined on 2025-era ones. */
  private listens?: ListenSubscriptions;
  /** This stdio server failed the `server/discover` probe: its later starts skip it. */
  private legacyEra = false;
  private _pid?: number;
  private _inspectorPort?: number;
  /** The roots a sandboxed server's rules were written for; undefined when it runs unsandboxed. */
  private _sandboxRoots?: readonly string[];

  readonly logger: Logger;
  readonly catalog: ServerCatalog;
  private readonly budget: ServerBudget;
  /** Results with caching hints (2026-07-28); kept across automatic reconnects, emptied by a start or stop of the user's. */
  private readonly cache: ResponseCache;

  private readonly _onDidChangeState = this._register(new Emitter<StateChange>());
  readonly onDidChangeState: Event<StateChange> = this._onDidChangeState.event;
  private readonly _onDidUpdateResource = this._register(new Emitter<string>());
  /** `notifications/resources/updated` for a subscribed URI. */
  readonly onDidUpdateResource: Event<string> = this._onDidUpdateResource.event;
  private readonly _onDidCompleteElicitation = this._register(new Emitter<string>());
  /** `notifications/elicitation/complete`: the URL elicitation with this id finished out of band. */
  readonly onDidCompleteElicitation: Event<string> = this._onDidCompleteElicitation.event;

  /** The request path's view of this connection. */
  private readonly requests: RequestTarget & TaskFollower;

  constructor(readonly name: string, private _declaration: ServerDeclaration, private readonly options: ConnectionOptions) {
    super();
    this.logger = options.logger ?? nullLogger;
    this.restartPolicy = new RestartPolicy(options.restart ?? defaultRestartOptions);
    this.validators = new OutputValidators(this.logger);
    this.budget = new ServerBudget(this.logger, options.limits);
    this._register({ dispose: () => this.budget.dispose() });
    this.cache = new ResponseCache(this.budget.limits);
    this._register({ dispose: () => this.cache.clear() });
    this.requests = {
      name, logger: this.logger,
      closedReason: () => this.closedReason,
      url: () => (this._declaration as { url?: string }).url,
      runningClient: async (method, opts) => {
        await this.ready(opts, method);
        const client = this.client;
        if (!client || this._state !== 'running') throw this.notRunning(method);
        return client;
      },
      clientIfRunning: () => (this._state === 'running' ? this.client : undefined),
      currentClient: () => this.client,
      defaultTimeoutMs: () => this.requestTimeoutMs(),
      maxTotalTimeoutMs: () => this.options.maxTotalTimeoutMs ?? 10 * 60_000,
      isExpiredSession: err => this.isExpiredSession(err),
      reinitialize: () => this.reinitialize(),
      notRunning: method => this.notRunning(method),
      unreachable: (client, err) => this.connectionLost(this.generation, client, err),
      answerInput: (method, params, signal) => answerTaskInput({ ports: this.options.ports, roots: this.roots, ref: () => this.ref }, method, params, signal),
    };
    this.catalog = this._register(new ServerCatalog((k, c) => fetchCatalogPage((m, p, sc) => this.listPage(m, p, sc), k, c,
      (tool, why) => this.logger.warn(plainText(`Tool "${tool}" left out: ${why}`, { singleLine: true, maxLength: 300 }))), this.logger, options.listChangedDebounceMs, this.budget.limits));
    this._register(this.catalog.onDidExceedBudget(e => this.stopForBudget(e)));
    this._register(this.catalog.onDidChange(kind => {
      if (kind !== 'tools') return;
      const tools = this.catalog.get('tools');
      this.toolsByName = new Map(tools.map(t => [t.name, t]));
      this.validators.retain(tools);
    }));
    this.roots = new ServerRoots(() => this._declaration, options.ports, this.logger);
    const roots = options.ports.roots;
    if (roots) this._register(roots.onDidChangeRoots(() => {
      if (this._state === 'running') void this.rootsChanged();
    }));
    if (this.logger.onDidChangeLogLevel) this._register(this.logger.onDidChangeLogLevel(() => this.syncLogLevel()));
  }

  get declaration(): ServerDeclaration { return this._declaration; }
  get state(): ServerState { return this._state; }
  /** In `starting` after a crash: `restarting` (a process) or `reconnecting` (an HTTP server that went away). */
  get recovery(): 'restarting' | 'reconnecting' | undefined {
    if (!this.restarting) return undefined;
    return this._transportKind === 'http' || this._transportKind === 'sse' ? 'reconnecting' : 'restarting';
  }
  /** The reason for the current state (error text, restart countdown), if any. */
  get message(): string | undefined { return this._message; }
  get serverInfo(): Implementation | undefined { return this.client?.getServerVersion(); }
  get capabilities(): ServerCapabilities | undefined { return this.client?.getServerCapabilities(); }
  get instructions(): string | undefined { return this.client?.getInstructions(); }
  get protocolVersion(): string | undefined { return this._protocolVersion; }
  /** The transport actually in use (`http` may have fallen back to `sse`). */
  get transportKind(): 'stdio' | 'http' | 'sse' | undefined { return this._transportKind; }
  /** Process id of a stdio server while it runs. */
  get pid(): number | undefined { return this._pid; }
  /** Loopback port of the Node inspector of a running `dev.debug` server (announced on its stderr). */
  get inspectorPort(): number | undefined { return this._inspectorPort; }
  /** Started under the OS sandbox (see `core/sandbox`). */
  get sandboxed(): boolean { return this._sandboxRoots !== undefined && this._state !== 'stopped'; }
  get ref(): ServerRef { return { name: this.name, title: this.serverInfo?.title }; }
  /** In `error` because the server needs an OAuth sign-in. */
  get needsSignIn(): boolean { return this._needsSignIn && this._state === 'error'; }
  /**
   * In `stopped` because the declaration depends on the workspace folders, which are not trusted
   * (`message` says which fields); the host's next `apply()` tries again.
   */
  get needsTrust(): boolean { return this._trustRequirements.length > 0 && this._state === 'stopped'; }
  /** While {@link needsTrust}: the fields that depend on the workspace folders. */
  get trustRequirements(): readonly TrustRequirement[] { return this.needsTrust ? this._trustRequirements : []; }
  /** OAuth state of an HTTP server (`undefined`: no OAuth here, e.g. stdio or a declared Authorization header). */
  get authStatus(): AuthStatus | undefined { return this.authSession?.status; }

  /** `${input:…}` values, plus OAuth tokens and client secrets: logs and traces redact them. */
  private get secrets(): readonly string[] {
    return this.authSession ? [...this.declaredSecrets, ...this.authSession.secrets()] : this.declaredSecrets;
  }

  /** Replaces the declaration; the caller decides whether to restart. */
  setDeclaration(d: ServerDeclaration): void {
    if (JSON.stringify(d) !== JSON.stringify(this._declaration)) this.cache.clear();
    this._declaration = d; this.legacyEra = false;
  }

  /**
   * The declaration's `roots` changed, or what they resolve to may have (trust granted): a server
   * that listed its roots before gets `roots/list_changed` if its answer would now differ.
   */
  async refreshRoots(): Promise<void> {
    if (this._state === 'running' && await this.roots.changed()) await this.rootsChanged();
  }

  private sendRootsListChanged(): void {
    if (this._state === 'running') this.client?.sendRootsListChanged().catch(e => this.logger.warn(`Could not send roots/list_changed: ${errorText(e)}`));
  }

  /** Starts (or restarts) by the user's wish: resets the crash budget. */
  async start(): Promise<void> {
    this.restartPolicy.reset();
    // A start of the user's (a restart after editing the server, a sign-in) wants fresh answers.
    this.cache.clear();
    const gen = ++this.generation;
    this.setState('starting');
    await this.stopConnection();
    if (gen === this.generation) await this.connect(gen);
  }

  async stop(): Promise<void> {
    this.generation++;
    this._trustRequirements = [];
    this.cache.clear();
    await this.stopConnection();
    this.setState('stopped');
  }

  restart(): Promise<void> { return this.start(); }

  /**
   * Starts the server allowing the OAuth sign-in that an automatic start never does (the user agent
   * opens the authorization page). Resolves when the server runs or has failed again.
   */
  async signIn(): Promise<void> {
    this.signInPending = true;
    try { await this.start(); } finally { this.signInPending = false; }
  }

  /** Deletes this server's OAuth tokens; a running server restarts (and then needs a sign-in). False if there is nothing to sign out of. */
  async signOut(): Promise<boolean> {
    const url = (this._declaration as { url?: string }).url;
    // Never connected yet: a literal URL is enough to find the tokens (resolving could prompt for inputs).
    const session = this.authSession ?? (url && !url.includes('${') ? this.oauthSessionFor(new URL(url), {}) : undefined);
    if (!session) return false;
    await session.signOut();
    if (this._state === 'running' || this._state === 'starting') await this.restart();
    return true;
  }

  /** Resolves once the server is running; rejects if it ends in `error`/`stopped` instead. */
  whenRunning(): Promise<void> {
    if (this._state === 'running') return Promise.resolve();
    if (this._state !== 'starting') return Promise.reject(this.notRunning('request'));
    return new Promise((resolve, reject) => {
      const d = this.onDidChangeState(e => {
        if (e.state === 'starting') return;
        d.dispose();
        if (e.state === 'running') resolve(); else reject(this.notRunning('request'));
      });
    });
  }

  /**
   * Resolves once the server runs. While it starts, or restarts after a crash, waits at most
   * `timeoutMs` (default: its request timeout) and until `signal` aborts; otherwise rejects with an
   * error that says why `method` cannot be sent (restarting, stopped, failed, cancelled).
   */
  async ready(opts: CallOptions = {}, method = 'the request'): Promise<void> {
    if (this._state === 'running') return;
    if (this._state !== 'starting') throw this.notRunning(method);
    if (opts.signal?.aborted) throw toServerError(this.name, method, abortError());
    const ms = opts.timeoutMs ?? this.requestTimeoutMs();
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error) => {
        clearTimeout(timer);
        d.dispose();
        opts.signal?.removeEventListener('abort', onAbort);
        if (err) reject(err); else resolve();
      };
      const d = this.onDidChangeState(e => { if (e.state !== 'starting') done(e.state === 'running' ? undefined : this.notRunning(method)); });
      const timer = setTimeout(() => done(new ServerError(this.name,
        `cannot send ${method}: the server is still ${this.restarting ? 'restarting' : 'starting'} after ${formatDuration(ms)}${this._message ? ` (${this._message})` : ''}.`,
        REQUEST_TIMEOUT)), ms);
      const onAbort = () => done(toServerError(this.name, method, abortError()));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  // ---- requests -------------------------------------------------------------------------------

  /** Sends a request with the server's timeout, cancellation and progress; errors name the server. */
  request<T>(method: string, params: Record<string, unknown> | undefined, schema: ResultSchema, opts: CallOptions = {}): Promise<T> {
    return sendRequest<T>(this.requests, method, params, schema, opts);
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
    return this._state === 'running' ? this.sendToolCall(name, args, opts) : this.ready(opts, 'tools/call').then(() => this.sendToolCall(name, args, opts));
  }

  private sendToolCall(name: string, args: Record<string, unknown>, opts: ToolCallOptions): Promise<CallToolResult> {
    const tool = this.toolsByName.get(name);
    const support = tool?.execution?.taskSupport;
    // Through the SDK's callTool, which mirrors `x-mcp-header` parameters into Mcp-Param-* headers
    // (2026-07-28 over HTTP) and validates the result against the era's schema; the output schema
    // is checked below, by our validators only (the definition we hand the SDK has none).
    const send = (client: Client, ro: RequestOptions) => client.callTool({ name, arguments: args }, tool ? this.toolCallOptions(tool, ro) : ro);
    const call = this.transport?.tasks.active
      // 2026-07-28: the server decides whether a call becomes a task (tasks extension), for any tool.
      ? callToolOrTask(this.requests, e => this.transport?.tasks.take(e), opts, send)
      : this.supportsToolTasks() && (support === 'required' || (support === 'optional' && opts.preferTask))
        ? callToolAsTask(this.requests, name, args, opts)
        : sendWith(this.requests, 'tools/call', opts, send);
    if (!tool?.outputSchema) return call;
    return call.then(result => {
      const problem = result.isError ? undefined : this.validators.check(tool, result.structuredContent);
      if (problem) throw new ServerError(this.name, problem, ProtocolErrorCode.InvalidParams);
      return result;
    });
  }

  /**
   * The SDK's options for a call of `tool`: `ro` with the tool's definition without `outputSchema`, made once
   * per listed tool and request options (shared while the call brings no signal or progress), not per call.
   */
  private toolCallOptions(tool: Tool, ro: RequestOptions): RequestOptions {
    const made = this.sdkDefinitions.get(tool);
    if (made?.ro === ro) return made.options;
    const options = { ...ro, toolDefinition: made?.options.toolDefinition ?? { ...tool, outputSchema: undefined } };
    this.sdkDefinitions.set(tool, { ro, options });
    return options;
  }

  private supportsToolTasks(): boolean {
    return !!(this.capabilities as { tasks?: { requests?: { tools?: { call?: object } } } } | undefined)?.tasks?.requests?.tools?.call;
  }

  /** Answered from the response cache while a read of `uri` is fresh (its `ttlMs`, capped; 2026-07-28 servers). */
  async readResource(uri: string, opts?: CallOptions): Promise<ReadResourceResult> {
    await this.ready(opts, 'resources/read');
    return throughCache(this.cache, 'resources/read', uri, this.cacheContext(),
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
    if (this.listens) await this.listens.subscribe(uri);
    else await this.request('resources/subscribe', { uri }, specTypeSchemas.EmptyResult);
  }

  async unsubscribe(uri: string): Promise<void> {
    if (this.listens) await this.listens.unsubscribe(uri);
    else await this.request('resources/unsubscribe', { uri }, specTypeSchemas.EmptyResult);
  }

  tool(name: string): Tool | undefined { return this.toolsByName.get(name); }

  // ---- lifecycle ------------------------------------------------------------------------------

  /** What this server is offered as roots (workspace, user and its declaration's own roots). */
  private async rootUris(): Promise<string[]> {
    return (await this.roots.list(this.ref)).map(r => r.uri);
  }

  /** A sandbox's writable folders are fixed when it starts: new roots need a restart, others a notification. */
  private async rootsChanged(): Promise<void> {
    const inEffect = this._sandboxRoots;
    if (inEffect) {
      const now = rootPaths(await this.rootUris());
      if (this._state === 'running' && this._sandboxRoots === inEffect && now.join('\0') !== inEffect.join('\0')) {
        this.logger.info('The roots changed: restarting so that the sandbox lets the server write to the new roots only');
        await this.restart();
        return;
      }
    }
    this.sendRootsListChanged();
  }

  private async connect(gen: number): Promise<void> {
    this._needsSignIn = false;
    this._trustRequirements = [];
    this.setState('starting', this._message && this.restartPolicy.recentRestarts ? this._message : undefined);
    this.closedReason = undefined;
    let launch;
    let inspectorPick: InspectorPick | undefined;
    try {
      const resolved = await resolveDeclaration(this._declaration, this.options.ports.variables);
      launch = resolved.launch;
      this.declaredSecrets = resolved.secrets;
      this._sandboxRoots = undefined;
      if (launch.type === 'stdio' && this._declaration.type === 'stdio') {
        if (this._declaration.dev?.debug) ({ launch, pick: inspectorPick } = withInspector(launch));
        const boxed = await sandboxLaunch({
          port: this.options.ports.sandbox, declaration: this._declaration, launch,
          userHome: this.options.ports.variables.userHome, roots: await this.rootUris(), logger: this.logger,
        });
        launch = boxed.launch;
        this._sandboxRoots = boxed.roots;
      }
    } catch (e) {
      if (gen !== this.generation) return;
      if (e instanceof SandboxUnavailableError) { this.fail(e.message); return; }
      if (e instanceof WorkspaceTrustRequiredError) {
        // Not a failure: nothing ran, and the user has nothing to fix but the trust decision.
        this._trustRequirements = e.requirements;
        this.logger.info(`Not started: ${e.message}`);
        this.setState('stopped', e.message);
        return;
      }
      this.fail(e instanceof ResolveError ? e.message : `Could not prepare the server: ${errorText(e)}`);
      return;
    }
    if (gen !== this.generation) return;

    const session = launch.type === 'stdio' ? undefined : this.oauthSessionFor(launch.url, launch.headers);
    if (session) session.interaction = this.signInPending ? 'signIn' : 'silent';
    const attempts: Array<'stdio' | 'http' | 'sse'> = launch.type === 'http' ? ['http', 'sse'] : [launch.type];
    let authRounds = 0;
    for (let attempt = 0; attempt < attempts.length; attempt++) {
      const kind = attempts[attempt];
      const inner: Transport = launch.type === 'stdio'
        ? createStdioTransport(launch, this.budget.serverLog, this.secrets, this.budget.limits, stdioLaunch => this.takeEarlyProcess(stdioLaunch))
        : createHttpTransport(kind as 'http' | 'sse', launch.url, launch.headers, session?.fetch, this.budget.limits);
      const inspector = inner instanceof StdioTransport && inspectorPick ? listenForInspector(inner, inspectorPick) : undefined;
      const transport = new TracingTransport(inner, this.logger, () => this.secrets);
      const client = this.createClient(transport, kind);
      transport.onRefusedRequest = (method, reason) => this.onRefusedRequest(method, summarizeRefusal(reason));
      transport.onRetryRound = () => this.cache.interrupt();
      // Arguments and URL paths may hold resolved `${input:…}` values (`--token ghp_…`): redacted like env values.
      this.logger.info(redact(`Starting (${kind}${launch.type === 'stdio' ? `: ${launch.command} ${launch.args.join(' ')}` : `: ${launch.url.origin}${launch.url.pathname}`})`, this.secrets));
      // We time the start ourselves and close on expiry: the SDK's timeout would send
      // notifications/cancelled for initialize, which the spec forbids.
      const startTimeoutMs = this.startTimeoutMs();
      let startTimedOut = false;
      const startTimer = setTimeout(() => { startTimedOut = true; client.close().catch(() => {}); }, startTimeoutMs);
      try {
        const wire = inner instanceof StdioTransport ? asStdioTransport(this.budget.wrap(transport, inner), () => inner.pid) : this.budget.wrap(transport);
        try { await client.connect(wire, { timeout: MAX_TIMER_MS }); } finally { clearTimeout(startTimer); }
        if (startTimedOut) throw new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
      } catch (err) {
        await client.close().catch(() => {});
        if (gen !== this.generation) return;
        if (startTimedOut) {
          this.fail(`Did not start within ${formatDuration(startTimeoutMs)} (no answer to initialize); the server was stopped. Raise "startTimeout" if it needs longer.`);
          return;
        }
        const pending = findAuthorizationPending(err);
        if (pending && authRounds++ < 3) {
          // The user is signing in: wait for it outside the initialize timeout, then connect again.
          try { await pending.authorization; } catch (e) {
            if (gen === this.generation) this.failAuth(findAuthError(e) ?? new SignInRequiredError(undefined, { cause: e }));
            return;
          }
          if (gen !== this.generation) return;
          attempt--;
          continue;
        }
        const authError = findAuthError(err);
        if (authError) { this.failAuth(authError); return; }
        if (kind === 'http' && err instanceof SdkHttpError && FALLBACK_STATUSES.has(err.status)) {
          this.logger.info(`Streamable HTTP was refused (HTTP ${err.status}); trying the legacy HTTP+SSE transport`);
          continue;
        }
        if (this.restarting && launch.type !== 'stdio' && describeNetworkError(err)) {
          this.onCrash(gen, `the server is still unreachable (${describeNetworkError(err, launch.url.href)})`);
          return;
        }
        if (inner instanceof StdioTransport && !this.legacyEra && err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed) {
          // The probe went to the process itself: a server that closes on a request before
          // `initialize` is a 2025-era one. It starts again, with `initialize` from now on.
          this.logger.info(`The server/discover probe failed (${err.message}); starting again with initialize`);
          this.legacyEra = true;
          attempt--;
          continue;
        }
        if (inner instanceof StdioTransport && err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed) {
          this.onCrash(gen, `exited during initialization: ${describeExit(inner.exitInfo)}`);
          return;
        }
        this.fail(this.describeStartError(err, kind));
        return;
      }
      if (gen !== this.generation) { await client.close().catch(() => {}); return; }
      this.client = client;
      if (client.getProtocolEra() === 'modern') {
        this.listens = new ListenSubscriptions(client, client.getServerCapabilities() ?? {}, this.logger);
        this.listens.start().catch(() => { /* logged by ListenSubscriptions */ });
      }
      this.transport = transport;
      this._transportKind = kind;
      this._protocolVersion = client.getNegotiatedProtocolVersion() ?? transport.protocolVersion;
      this._pid = inner instanceof StdioTransport ? inner.pid : undefined;
      // Only what was announced before initialize was answered: later lines are the server's to forge.
      this._inspectorPort = inspector?.port();
      inspector?.close();
      client.onclose = () => this.onClosed(gen, inner);
      client.onerror = e => {
        this.logger.debug(`Transport error: ${redact(errorText(e), this.secrets)}`);
        if (kind !== 'stdio' && (describeNetworkError(e) || STREAM_BROKE.test(errorText(e)))) this.probeConnection(gen, client, e);
      };
      const info = client.getServerVersion();
      this.logger.info(`Connected to ${info?.title ?? info?.name ?? this.name} ${info?.version ?? ''} (protocol ${this._protocolVersion ?? '?'})`);
      const catalogAuthError = await loadCatalogs(this.catalog, client.getServerCapabilities() ?? {}, this.logger, () => this.secrets, () => gen === this.generation);
      if (gen !== this.generation) return;
      if (catalogAuthError) {
        await this.stopConnection();
        if (gen === this.generation) this.failAuth(catalogAuthError);
        return;
      }
      if (session) session.interaction = 'running';
      this.syncLogLevel();
      this.setState('running');
      return;
    }
  }

  private createClient(transport: TracingTransport, kind: TransportType): Client {
    return createHostClient({
      versionNegotiation: versionNegotiation(this.legacyEra ? '2025-11-25' : this._declaration.protocol, kind, this.startTimeoutMs()),
      reached: id => transport.reached(id),
      roots: this.roots,
      ports: this.options.ports, logger: this.logger, serverLog: this.budget.serverLog, catalog: this.catalog, cache: this.cache,
      ref: () => this.ref, secrets: () => this.secrets,
      onResourceUpdated: uri => this._onDidUpdateResource.fire(uri),
      onElicitationComplete: id => this._onDidCompleteElicitation.fire(id),
    });
  }

  /** One page of a catalogue, from the response cache while fresh (keyed by its cursor). */
  private listPage<T>(method: string, params: Record<string, unknown> | undefined, schema: ResultSchema): Promise<T> {
    const cursor = typeof params?.cursor === 'string' ? params.cursor : '';
    return throughCache(this.cache, method as CacheableMethod, cursor, this.cacheContext(), () => this.requestDirect<T>(method, params, schema));
  }

  /**
   * Who asks, for the response cache; undefined on a 2025-era connection (no hints to honour). The
   * authorization context is a digest of every credential in play (OAuth tokens, `${input:…}`
   * secrets): a new token is a new context, where `"private"` results are not served.
   */
  private cacheContext(): CacheContext | undefined {
    const client = this.client;
    if (!client || client.getProtocolEra() !== 'modern') return undefined;
    const info = client.getServerVersion();
    return {
      server: JSON.stringify([info?.name ?? '', info?.version ?? '']),
      auth: createHash('sha256').update(JSON.stringify(this.secrets)).digest('base64'),
    };
  }

  /** Like {@link request} but usable while starting (catalog loading happens before `running`). */
  private async requestDirect<T>(method: string, params: Record<string, unknown> | undefined, schema: ResultSchema): Promise<T> {
    const client = this.client;
    if (!client) throw this.notRunning(method);
    const timeout = this._declaration.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000;
    try { return await withAuthRetry(() => client.request({ method, params } as never, schema, { timeout })) as T; }
    catch (e) { throw toServerError(this.name, method, e, this.closedReason, (this._declaration as { url?: string }).url); }
  }

  private syncLogLevel(): void {
    const client = this.client;
    if (!client || !client.getServerCapabilities()?.logging) return;
    const level = toMcpLevel(this.logger.logLevel);
    client.setLoggingLevel(level).catch(e => this.logger.debug(`logging/setLevel failed: ${errorText(e)}`));
  }

  /**
   * An HTTP server went away (refused, dropped, unreachable): what is in flight fails with the
   * reason, and we reconnect with the crash backoff, without the user.
   */
  private connectionLost(gen: number, client: Client, err: unknown): void {
    if (gen !== this.generation || this._state !== 'running' || this.client !== client || this._transportKind === 'stdio') return;
    const url = (this._declaration as { url?: string }).url;
    this.onCrash(gen, `the connection to the server was lost (${describeNetworkError(err, url) ?? errorText(err)})`);
    client.onclose = undefined;
    void client.close().catch(() => {});
  }

  /** A stream broke: a server that no longer answers a ping is gone. One probe at a time. */
  private probeConnection(gen: number, client: Client, trigger: Error): void {
    if (this.probing || this.client !== client || this._transportKind === 'stdio') return;
    this.probing = true;
    client.ping({ timeout: PROBE_TIMEOUT_MS })
      .catch(err => {
        if (describeNetworkError(err) || (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) || this.isExpiredSession(err)) this.connectionLost(gen, client, describeNetworkError(err) ? err : trigger);
      })
      .finally(() => { this.probing = false; });
  }

  private onRefusedRequest(method: string, reason: string): void {
    this.logger.warn(redact(`Refused the server's ${method} request before MCP Host could handle it: ${reason}`, this.secrets));
    if (this.refusalsReported.has(method)) return;
    this.refusalsReported.add(method);
    try { this.options.ports.onRefusedRequest?.(this.ref, method, redact(reason, this.secrets)); }
    catch (e) { this.logger.debug(`onRefusedRequest failed: ${errorText(e)}`); }
  }

  private onClosed(gen: number, inner: Transport): void {
    if (gen !== this.generation || this._state !== 'running') return;
    const reason = inner instanceof StdioTransport ? describeExit(inner.exitInfo) : 'the connection closed';
    this.onCrash(gen, reason);
  }

  /** Unexpected exit: restart with backoff until the budget is spent, then stay in `error`. */
  private onCrash(gen: number, reason: string): void {
    this.closedReason = reason;
    this.listens?.dispose();
    this.listens = undefined;
    this.client = undefined;
    this.transport = undefined;
    this._pid = undefined;
    this._inspectorPort = undefined;
    this.catalog.clear();
    const delay = this.restartPolicy.next();
    if (delay === undefined) {
      const opts = this.restartPolicy.options;
      this.fail(opts.maxRestarts > 0
        ? `Stopped after ${opts.maxRestarts} automatic ${opts.maxRestarts === 1 ? 'restart' : 'restarts'} within ${Math.round(opts.windowMs / 1000)} s (last: ${reason}). Check the log, fix the problem, then start it again.`
        : `The server stopped: ${reason}. Automatic restart is off; check the log and start it again.`);
      return;
    }
    this.restarting = true;
    const verb = this.recovery;
    const msg = `${reason}; ${verb} in ${delay < 1000 ? `${delay} ms` : `${Math.round(delay / 1000)} s`} (attempt ${this.restartPolicy.recentRestarts} of ${this.restartPolicy.options.maxRestarts})`;
    this.logger.warn(`Server ${msg}`);
    this.setState('starting', msg);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (gen === this.generation) void this.connect(gen);
    }, delay);
  }

  private async reinitialize(): Promise<void> {
    const gen = ++this.generation;
    await this.stopConnection(false);
    await this.connect(gen);
    if (this._state !== 'running') throw this.notRunning('re-initialize');
  }

  private async stopConnection(terminateSession = true): Promise<void> {
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const client = this.client;
    const transport = this.transport;
    this.listens?.dispose();
    this.listens = undefined;
    this.client = undefined;
    this.transport = undefined;
    this._pid = undefined;
    this._inspectorPort = undefined;
    this.catalog.clear();
    if (!client) return;
    client.onclose = undefined;
    if (terminateSession && transport?.inner instanceof StreamableHTTPClientTransport && transport.inner.sessionId) {
      // Spec: DELETE the session when leaving; bounded so a dead server cannot hang stop().
      await withTimeout(transport.inner.terminateSession(), 2000).catch(e => this.logger.debug(`Session DELETE failed: ${errorText(e)}`));
    }
    await client.close().catch(e => this.logger.debug(`Close failed: ${errorText(e)}`));
    this.logger.info('Stopped');
  }

  /** One OAuth session per server URL, kept across reconnects (it coalesces authorizations). */
  private oauthSessionFor(url: URL, headers: Readonly<Record<string, string>>): OAuthSession | undefined {
    const port = this.options.ports.auth;
    // A declared Authorization header is the user's own credential: no OAuth on top of it.
    if (!port || Object.keys(headers).some(h => h.toLowerCase() === 'authorization')) return undefined;
    const key = normalizeServerUrl(url);
    if (this.authSession?.target.url === key) return this.authSession;
    this.authSession?.dispose();
    const session = this.authSession = new OAuthSession({ name: this.name, url: key }, port, { logger: this.logger });
    session.deferInteraction = true;
    void session.refreshStatus().catch(() => {});
    session.onDidChangeStatus(status => {
      // A running server whose tokens are gone for good (refresh refused, sign-in declined) stops asking.
      if (status !== 'needsSignIn' || this._state !== 'running' || this.authSession !== session) return;
      const gen = ++this.generation;
      void this.stopConnection().then(() => { if (gen === this.generation) this.failAuth(new SignInRequiredError()); });
    });
    return session;
  }

  /** A catalogue past its budget: stop the server for good (a restart would list it again). */
  private stopForBudget(err: BudgetExceededError): void {
    if (this._state !== 'running' && this._state !== 'starting') return;
    const gen = ++this.generation;
    void this.stopConnection().then(() => { if (gen === this.generation) this.fail(err.message); });
  }

  private failAuth(err: SignInRequiredError | AuthorizationError | InsufficientScopeError): void {
    this._needsSignIn = true;
    this.authSession?.markNeedsSignIn();
    const message = err instanceof SignInRequiredError && err.message === new SignInRequiredError().message ? 'needs sign-in'
      : err instanceof SignInRequiredError ? `needs sign-in (${err.message})` : `needs sign-in: ${err.message}`;
    this.logger.warn(redact(`${message}; use Sign In to authorize`, this.secrets));
    this.setState('error', redact(message, this.secrets));
  }

  private fail(message: string): void {
    this.logger.error(redact(message, this.secrets));
    this.setState('error', redact(message, this.secrets));
  }

  private describeStartError(err: unknown, kind: string): string {
    if (err instanceof LaunchError) return err.message;
    if (err instanceof SdkHttpError) return `The server answered HTTP ${err.status} to initialize (${kind}): ${err.message}`;
    const network = describeNetworkError(err, (this._declaration as { url?: string }).url);
    if (network) return `Could not connect: ${network}.`;
    const text = errorText(err);
    return /^Could not start\b/.test(text) ? text : `Could not start: ${text}`;
  }

  /** The process the embedder started for this very launch before the host loaded, if any (once per server). */
  private takeEarlyProcess(launch: StdioLaunch): StartedProcess | undefined {
    const started = this.options.ports.earlyProcesses?.take(this.name, launch);
    if (started) this.logger.info(`Took over the process started while MCP Host was loading (pid ${started.child.pid})`);
    return started;
  }

  /** Declared `startTimeout`, else the declared `timeout`, else the host's default. */
  private startTimeoutMs(): number {
    return this._declaration.startTimeoutMs ?? this._declaration.timeoutMs ?? this.options.startTimeoutMs ?? 60_000;
  }

  private notRunning(method: string): ServerError {
    const why = this._message ? `: ${this._message.replace(/\.$/, '')}` : '';
    const state = this._state === 'error' ? `the server failed${why}`
      : this._state === 'starting' ? (this.restarting ? `the server is restarting${why}` : 'the server is still starting')
        : this._state === 'running' ? 'the connection closed' : `the server is stopped${why}`;
    return new ServerError(this.name, `cannot send ${method}: ${state}.`, CONNECTION_CLOSED);
  }

  private requestTimeoutMs(): number {
    return this._declaration.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000;
  }

  private isExpiredSession(err: unknown): boolean {
    return err instanceof SdkHttpError && err.status === 404 && this._transportKind === 'http';
  }

  private setState(state: ServerState, message?: string): void {
    const previous = this._state;
    if (state !== 'starting') this.restarting = false;
    if (previous === state && this._message === message) return;
    this._state = state;
    this._message = message;
    this._onDidChangeState.fire({ server: this.name, state, previous, message, ...(this.needsSignIn ? { needsSignIn: true } : {}) });
  }

  override dispose(): void {
    this.generation++;
    void this.stopConnection().finally(() => this.authSession?.dispose());
    super.dispose();
  }

  /** Stops and waits until the process tree is gone; then disposes. */
  async shutdown(): Promise<void> {
    await this.stop();
    super.dispose();
  }
}


function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, rej) => { t = setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms); })]).finally(() => clearTimeout(t));
}

/**
 * One MCP server: an SDK `Client` over its transport, as an explicit state machine
 * `stopped → starting → running → error | stopped`, with bounded automatic restarts, per-request
 * timeouts, catalogs and logging. Failures stay inside this object; the host keeps going.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema, CompleteResultSchema, CreateMessageRequestSchema, ElicitationCompleteNotificationSchema, ElicitRequestSchema, EmptyResultSchema, ErrorCode,
  GetPromptResultSchema, ListPromptsResultSchema, ListResourcesResultSchema, ListResourceTemplatesResultSchema, ListRootsRequestSchema,
  ListToolsResultSchema, LoggingMessageNotificationSchema, McpError, PromptListChangedNotificationSchema, ReadResourceResultSchema,
  ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema,
  type CallToolResult, type ClientCapabilities, type CompleteRequest, type CompleteResult, type GetPromptResult, type Implementation,
  type Progress, type ReadResourceResult, type ServerCapabilities, type Task, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { ServerDeclaration } from '../config/types';
import { resolveDeclaration, ResolveError } from '../config/resolve';
import { WorkspaceTrustRequiredError, type TrustRequirement } from '../config/trust';
import { Disposable, Emitter, type Event } from '../events';
import { logMcpMessage, nullLogger, redact, toMcpLevel, type Logger, type McpLogLevel } from '../logger';
import { UserRejectedError, type HostPorts, type ServerRef } from '../ports';
import { ServerCatalog, type CatalogItems, type CatalogKind, type Page } from '../catalog/serverCatalog';
import { OutputValidators } from '../catalog/outputValidators';
import { describeExit, ServerError, toServerError } from './errors';
import { defaultRestartOptions, RestartPolicy, type RestartOptions } from './restartPolicy';
import { createHttpTransport, createStdioTransport } from './transports';
import { StdioTransport } from './stdioTransport';
import { TracingTransport } from './tracingTransport';
import { AuthorizationError, findAuthError, findAuthorizationPending, InsufficientScopeError, normalizeServerUrl, OAuthSession, SignInRequiredError, type AuthStatus } from '../auth';
import { appsClientCapability } from '../apps/appTools';

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
}

export interface CallOptions {
  readonly signal?: AbortSignal;
  readonly onprogress?: (progress: Progress) => void;
  /** Overrides the server's timeout for this request (ms). */
  readonly timeoutMs?: number;
}

export interface ToolCallOptions extends CallOptions {
  /** Run tools with `taskSupport: optional` as tasks too. */
  readonly preferTask?: boolean;
  /** Task status updates (`working`, `input_required`, … with `statusMessage`) of a task-augmented call. */
  readonly onTaskStatus?: (task: Task) => void;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-host', title: 'MCP Host', version: '0.1.0' };
const FALLBACK_STATUSES = new Set([400, 404, 405]);

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
  private closedReason?: string;
  private restartTimer?: NodeJS.Timeout;
  private readonly restartPolicy: RestartPolicy;
  private readonly validators: OutputValidators;
  private toolsByName = new Map<string, Tool>();
  private _transportKind?: 'stdio' | 'http' | 'sse';
  private _protocolVersion?: string;
  private _pid?: number;

  readonly logger: Logger;
  readonly catalog: ServerCatalog;

  private readonly _onDidChangeState = this._register(new Emitter<StateChange>());
  readonly onDidChangeState: Event<StateChange> = this._onDidChangeState.event;
  private readonly _onDidUpdateResource = this._register(new Emitter<string>());
  /** `notifications/resources/updated` for a subscribed URI. */
  readonly onDidUpdateResource: Event<string> = this._onDidUpdateResource.event;
  private readonly _onDidCompleteElicitation = this._register(new Emitter<string>());
  /** `notifications/elicitation/complete`: the URL elicitation with this id finished out of band. */
  readonly onDidCompleteElicitation: Event<string> = this._onDidCompleteElicitation.event;

  constructor(readonly name: string, private _declaration: ServerDeclaration, private readonly options: ConnectionOptions) {
    super();
    this.logger = options.logger ?? nullLogger;
    this.restartPolicy = new RestartPolicy(options.restart ?? defaultRestartOptions);
    this.validators = new OutputValidators(this.logger);
    this.catalog = this._register(new ServerCatalog((k, c) => this.fetchPage(k, c), this.logger, options.listChangedDebounceMs));
    this._register(this.catalog.onDidChange(kind => {
      if (kind !== 'tools') return;
      const tools = this.catalog.get('tools');
      this.toolsByName = new Map(tools.map(t => [t.name, t]));
      this.validators.retain(tools);
    }));
    const roots = options.ports.roots;
    if (roots) this._register(roots.onDidChangeRoots(() => {
      if (this._state === 'running') this.client?.sendRootsListChanged().catch(e => this.logger.warn(`Could not send roots/list_changed: ${errorText(e)}`));
    }));
    if (this.logger.onDidChangeLogLevel) this._register(this.logger.onDidChangeLogLevel(() => this.syncLogLevel()));
  }

  get declaration(): ServerDeclaration { return this._declaration; }
  get state(): ServerState { return this._state; }
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
  setDeclaration(d: ServerDeclaration): void { this._declaration = d; }

  /** Starts (or restarts) by the user's wish: resets the crash budget. */
  async start(): Promise<void> {
    this.restartPolicy.reset();
    const gen = ++this.generation;
    this.setState('starting');
    await this.stopConnection();
    if (gen === this.generation) await this.connect(gen);
  }

  async stop(): Promise<void> {
    this.generation++;
    this._trustRequirements = [];
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

  // ---- requests -------------------------------------------------------------------------------

  /** Sends a request with the server's timeout, cancellation and progress; errors name the server. */
  async request<T>(method: string, params: Record<string, unknown> | undefined, schema: Parameters<Client['request']>[1], opts: CallOptions = {}): Promise<T> {
    if (this._state === 'starting') await this.whenRunning();
    const client = this.client;
    if (!client || this._state !== 'running') throw this.notRunning(method);
    const ro: RequestOptions = {
      signal: opts.signal,
      onprogress: opts.onprogress,
      timeout: opts.timeoutMs ?? this._declaration.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000,
      resetTimeoutOnProgress: true,
      maxTotalTimeout: this.options.maxTotalTimeoutMs ?? 10 * 60_000,
    };
    try {
      return await this.withAuthRetry(() => client.request({ method, params } as never, schema, ro)) as T;
    } catch (err) {
      if (this.isExpiredSession(err) && client === this.client) {
        // Spec: a 404 for our session id means the server dropped it; start a new session and retry once.
        this.logger.info('HTTP session expired (404); re-initializing');
        await this.reinitialize();
        const again = this.client;
        if (!again) throw this.notRunning(method);
        try { return await this.withAuthRetry(() => again.request({ method, params } as never, schema, ro)) as T; }
        catch (e) { throw toServerError(this.name, method, e, this.closedReason); }
      }
      throw toServerError(this.name, method, err, this.closedReason);
    }
  }

  /**
   * Calls a tool. Tools whose `execution.taskSupport` is `required` (or `optional` with
   * `preferTask`) run as tasks when the server supports task-augmented `tools/call`: status goes to
   * `onTaskStatus`, and aborting the signal sends `tasks/cancel`.
   */
  async callTool(name: string, args: Record<string, unknown> = {}, opts: ToolCallOptions = {}): Promise<CallToolResult> {
    const tool = this.toolsByName.get(name);
    const support = tool?.execution?.taskSupport;
    const result = this.supportsToolTasks() && (support === 'required' || (support === 'optional' && opts.preferTask))
      ? await this.callToolAsTask(name, args, opts)
      : await this.request<CallToolResult>('tools/call', { name, arguments: args }, CallToolResultSchema, opts);
    if (tool?.outputSchema && !result.isError) {
      const problem = this.validators.check(tool, result.structuredContent);
      if (problem) throw new ServerError(this.name, problem, ErrorCode.InvalidParams);
    }
    return result;
  }

  private supportsToolTasks(): boolean {
    return !!(this.capabilities as { tasks?: { requests?: { tools?: { call?: object } } } } | undefined)?.tasks?.requests?.tools?.call;
  }

  private async callToolAsTask(name: string, args: Record<string, unknown>, opts: ToolCallOptions): Promise<CallToolResult> {
    if (this._state === 'starting') await this.whenRunning();
    const client = this.client;
    if (!client || this._state !== 'running') throw this.notRunning('tools/call');
    const ro = {
      signal: opts.signal, onprogress: opts.onprogress, task: {},
      timeout: opts.timeoutMs ?? this._declaration.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000,
      resetTimeoutOnProgress: true, maxTotalTimeout: this.options.maxTotalTimeoutMs ?? 10 * 60_000,
    };
    let taskId: string | undefined;
    const cancel = () => {
      if (taskId) client.experimental.tasks.cancelTask(taskId).catch(e => this.logger.debug(`tasks/cancel failed: ${errorText(e)}`));
    };
    opts.signal?.addEventListener('abort', cancel, { once: true });
    try {
      for await (const m of client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, ro)) {
        if (m.type === 'taskCreated' || m.type === 'taskStatus') {
          taskId = m.task.taskId;
          opts.onTaskStatus?.(m.task);
        } else if (m.type === 'result') {
          return m.result as CallToolResult;
        } else {
          throw toServerError(this.name, 'tools/call (task)', opts.signal?.aborted ? Object.assign(new Error('aborted'), { name: 'AbortError' }) : m.error, this.closedReason);
        }
      }
      throw new ServerError(this.name, `tools/call (task) for "${name}" ended without a result`);
    } finally {
      opts.signal?.removeEventListener('abort', cancel);
    }
  }

  readResource(uri: string, opts?: CallOptions): Promise<ReadResourceResult> {
    return this.request('resources/read', { uri }, ReadResourceResultSchema, opts);
  }

  getPrompt(name: string, args: Record<string, string> = {}, opts?: CallOptions): Promise<GetPromptResult> {
    return this.request('prompts/get', { name, arguments: args }, GetPromptResultSchema, opts);
  }

  complete(params: CompleteRequest['params'], opts?: CallOptions): Promise<CompleteResult> {
    return this.request('completion/complete', params, CompleteResultSchema, opts);
  }

  async ping(opts?: CallOptions): Promise<void> { await this.request('ping', undefined, EmptyResultSchema, opts); }
  async subscribe(uri: string): Promise<void> { await this.request('resources/subscribe', { uri }, EmptyResultSchema); }
  async unsubscribe(uri: string): Promise<void> { await this.request('resources/unsubscribe', { uri }, EmptyResultSchema); }

  tool(name: string): Tool | undefined { return this.toolsByName.get(name); }

  // ---- lifecycle ------------------------------------------------------------------------------

  private async connect(gen: number): Promise<void> {
    this._needsSignIn = false;
    this._trustRequirements = [];
    this.setState('starting', this._message && this.restartPolicy.recentRestarts ? this._message : undefined);
    this.closedReason = undefined;
    let launch;
    try {
      const resolved = await resolveDeclaration(this._declaration, this.options.ports.variables);
      launch = resolved.launch;
      this.declaredSecrets = resolved.secrets;
    } catch (e) {
      if (gen !== this.generation) return;
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
        ? createStdioTransport(launch, this.logger, this.secrets)
        : createHttpTransport(kind as 'http' | 'sse', launch.url, launch.headers, session?.fetch);
      const transport = new TracingTransport(inner, this.logger, () => this.secrets);
      const client = this.createClient();
      // Arguments and URL paths may hold resolved `${input:…}` values (`--token ghp_…`): redacted like env values.
      this.logger.info(redact(`Starting (${kind}${launch.type === 'stdio' ? `: ${launch.command} ${launch.args.join(' ')}` : `: ${launch.url.origin}${launch.url.pathname}`})`, this.secrets));
      try {
        await client.connect(transport, { timeout: this.options.startTimeoutMs ?? 60_000 });
      } catch (err) {
        await client.close().catch(() => {});
        if (gen !== this.generation) return;
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
        if (kind === 'http' && err instanceof StreamableHTTPError && err.code !== undefined && FALLBACK_STATUSES.has(err.code)) {
          this.logger.info(`Streamable HTTP was refused (HTTP ${err.code}); trying the legacy HTTP+SSE transport`);
          continue;
        }
        if (inner instanceof StdioTransport && err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
          this.onCrash(gen, `exited during initialization: ${describeExit(inner.exitInfo)}`);
          return;
        }
        this.fail(this.describeStartError(err, kind));
        return;
      }
      if (gen !== this.generation) { await client.close().catch(() => {}); return; }
      this.client = client;
      this.transport = transport;
      this._transportKind = kind;
      this._protocolVersion = transport.protocolVersion;
      this._pid = inner instanceof StdioTransport ? inner.pid : undefined;
      client.onclose = () => this.onClosed(gen, inner);
      client.onerror = e => this.logger.debug(`Transport error: ${redact(errorText(e), this.secrets)}`);
      const info = client.getServerVersion();
      this.logger.info(`Connected to ${info?.title ?? info?.name ?? this.name} ${info?.version ?? ''} (protocol ${this._protocolVersion ?? '?'})`);
      const catalogAuthError = await this.loadCatalogs(gen);
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

  private createClient(): Client {
    const ports = this.options.ports;
    const capabilities: ClientCapabilities = {};
    if (ports.roots) capabilities.roots = { listChanged: true };
    if (ports.sampling) capabilities.sampling = { tools: {} };
    if (ports.elicitation) capabilities.elicitation = { form: {}, url: {} };
    if (ports.apps) capabilities.extensions = { ...appsClientCapability };
    const client = new Client(ports.clientInfo ?? DEFAULT_CLIENT_INFO, { capabilities });
    const ref = () => this.ref;
    if (ports.roots) {
      const roots = ports.roots;
      client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [...await roots.getRoots(ref())] }));
    }
    if (ports.sampling) {
      const sampling = ports.sampling;
      client.setRequestHandler(CreateMessageRequestSchema, async (req, extra) => {
        try { return await sampling(ref(), req.params, extra.signal); }
        catch (e) {
          if (e instanceof UserRejectedError) throw new McpError(-1, e.message);
          throw e;
        }
      });
    }
    if (ports.elicitation) {
      const elicitation = ports.elicitation;
      client.setRequestHandler(ElicitRequestSchema, (req, extra) => elicitation(ref(), req.params, extra.signal));
    }
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.catalog.scheduleRefresh('tools'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.catalog.scheduleRefresh('prompts'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      this.catalog.scheduleRefresh('resources');
      this.catalog.scheduleRefresh('resourceTemplates');
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, n => this._onDidUpdateResource.fire(n.params.uri));
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, n => this._onDidCompleteElicitation.fire(n.params.elicitationId));
    client.setNotificationHandler(LoggingMessageNotificationSchema, n => {
      const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      logMcpMessage(this.logger, n.params.level as McpLogLevel, `${n.params.logger ? `[${n.params.logger}] ` : ''}${redact(data, this.secrets)}`);
    });
    return client;
  }

  /** Lists the catalogs; returns the sign-in error if listing needs one (the start then fails with it). */
  private async loadCatalogs(gen: number): Promise<SignInRequiredError | undefined> {
    const caps = this.client?.getServerCapabilities() ?? {};
    const kinds: CatalogKind[] = [];
    if (caps.tools) kinds.push('tools');
    if (caps.resources) kinds.push('resources', 'resourceTemplates');
    if (caps.prompts) kinds.push('prompts');
    let signIn: SignInRequiredError | undefined;
    await Promise.all(kinds.map(k => this.catalog.refresh(k).catch(e => {
      const authError = findAuthError(e);
      if (authError instanceof SignInRequiredError) signIn ??= authError;
      else if (gen === this.generation) this.logger.warn(`Listing ${k} failed: ${redact(errorText(e), this.secrets)}`);
    })));
    return signIn;
  }

  private fetchPage<K extends CatalogKind>(kind: K, cursor: string | undefined): Promise<Page<CatalogItems[K]>> {
    const params = cursor === undefined ? undefined : { cursor };
    const call = <T>(method: string, schema: Parameters<Client['request']>[1]) => this.requestDirect<T>(method, params, schema);
    switch (kind) {
      case 'tools': return call<{ tools: Tool[]; nextCursor?: string }>('tools/list', ListToolsResultSchema).then(r => ({ items: r.tools as CatalogItems[K][], nextCursor: r.nextCursor }));
      case 'resources': return call<{ resources: CatalogItems['resources'][]; nextCursor?: string }>('resources/list', ListResourcesResultSchema).then(r => ({ items: r.resources as CatalogItems[K][], nextCursor: r.nextCursor }));
      case 'resourceTemplates': return call<{ resourceTemplates: CatalogItems['resourceTemplates'][]; nextCursor?: string }>('resources/templates/list', ListResourceTemplatesResultSchema).then(r => ({ items: r.resourceTemplates as CatalogItems[K][], nextCursor: r.nextCursor }));
      default: return call<{ prompts: CatalogItems['prompts'][]; nextCursor?: string }>('prompts/list', ListPromptsResultSchema).then(r => ({ items: r.prompts as CatalogItems[K][], nextCursor: r.nextCursor }));
    }
  }

  /** Like {@link request} but usable while starting (catalog loading happens before `running`). */
  private async requestDirect<T>(method: string, params: Record<string, unknown> | undefined, schema: Parameters<Client['request']>[1]): Promise<T> {
    const client = this.client;
    if (!client) throw this.notRunning(method);
    const timeout = this._declaration.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000;
    try { return await this.withAuthRetry(() => client.request({ method, params } as never, schema, { timeout })) as T; }
    catch (e) { throw toServerError(this.name, method, e, this.closedReason); }
  }

  private syncLogLevel(): void {
    const client = this.client;
    if (!client || !client.getServerCapabilities()?.logging) return;
    const level = toMcpLevel(this.logger.logLevel);
    client.setLoggingLevel(level).catch(e => this.logger.debug(`logging/setLevel failed: ${errorText(e)}`));
  }

  private onClosed(gen: number, inner: Transport): void {
    if (gen !== this.generation || this._state !== 'running') return;
    const reason = inner instanceof StdioTransport ? describeExit(inner.exitInfo) : 'the connection closed';
    this.onCrash(gen, reason);
  }

  /** Unexpected exit: restart with backoff until the budget is spent, then stay in `error`. */
  private onCrash(gen: number, reason: string): void {
    this.closedReason = reason;
    this.client = undefined;
    this.transport = undefined;
    this._pid = undefined;
    this.catalog.clear();
    const delay = this.restartPolicy.next();
    if (delay === undefined) {
      const opts = this.restartPolicy.options;
      this.fail(opts.maxRestarts > 0
        ? `Stopped after ${opts.maxRestarts} automatic restarts within ${Math.round(opts.windowMs / 1000)} s (last: ${reason}). Check the log, fix the problem, then start it again.`
        : `The server stopped: ${reason}. Automatic restart is off; check the log and start it again.`);
      return;
    }
    const msg = `${reason}; restarting in ${delay < 1000 ? `${delay} ms` : `${Math.round(delay / 1000)} s`} (attempt ${this.restartPolicy.recentRestarts} of ${this.restartPolicy.options.maxRestarts})`;
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
    this.client = undefined;
    this.transport = undefined;
    this._pid = undefined;
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

  /**
   * Sends again a request that met a sign-in waiting for the user, once that sign-in is done: the
   * request's timeout is for the server, not for a person in a browser.
   */
  private async withAuthRetry<T>(send: () => Promise<T>): Promise<T> {
    for (let round = 0; ; round++) {
      try { return await send(); } catch (err) {
        const pending = round < 3 ? findAuthorizationPending(err) : undefined;
        if (!pending) throw err;
        await pending.authorization;
      }
    }
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
    if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return `Did not answer initialize within ${Math.round((this.options.startTimeoutMs ?? 60_000) / 1000)} s; the server was stopped.`;
    if (err instanceof StreamableHTTPError) return `The server answered HTTP ${err.code ?? '?'} to initialize (${kind}): ${err.message}`;
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    if (cause === 'ECONNREFUSED') return `Could not connect: nothing is listening at ${(this._declaration as { url?: string }).url}.`;
    return `Could not start: ${errorText(err)}`;
  }

  private notRunning(method: string): ServerError {
    const why = this._state === 'error' && this._message ? ` (${this._message})` : '';
    return new ServerError(this.name, `cannot send ${method}: the server is ${this._state}${why}`, ErrorCode.ConnectionClosed);
  }

  private isExpiredSession(err: unknown): boolean {
    return err instanceof StreamableHTTPError && err.code === 404 && this._transportKind === 'http';
  }

  private setState(state: ServerState, message?: string): void {
    const previous = this._state;
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

function errorText(e: unknown): string { return e instanceof Error ? e.message : String(e); }

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, rej) => { t = setTimeout(() => rej(new Error(`timed out after ${ms} ms`)), ms); })]).finally(() => clearTimeout(t));
}

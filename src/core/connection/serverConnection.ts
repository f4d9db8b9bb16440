/**
 * One MCP server as a user sees it: an explicit state machine `stopped → starting → running →
 * error | stopped`, the current start (an attempt: start/), the running client and the requests sent
 * through it. Recovery after a crash (recovery.ts) and the OAuth session (oauthSessions.ts) live
 * beside it. Failures stay inside this object; the host keeps going. See README.md in this folder.
 */
import type { Transport } from '@modelcontextprotocol/client';
import { SdkHttpError } from '@modelcontextprotocol/client';
import type { ServerDeclaration } from '../config/types';
import { Emitter, type Event } from '../events';
import { nullLogger, redact, toMcpLevel, type Logger } from '../logger';
import type { HostPorts } from '../ports';
import type { ServerCatalog } from '../catalog/serverCatalog';
import { ServerBudget, type LogGate, type ServerLimits } from '../budgets';
import { describeExit, errorText } from './errors';
import { defaultRestartOptions, RestartPolicy, type RestartOptions } from './restartPolicy';
import { StdioTransport } from './stdioTransport';
import { describePlant, rootPaths } from '../sandbox';
import type { RequestTarget } from './requestPath';
import { connectionCatalog } from './catalogRequests';
import { answerTaskInput, loadCatalogs } from './clientSetup';
import type { TaskFollower } from './extensionTasks';
import { ServerRoots } from './serverRoots';
import { ResponseCache } from './responseCache';
import { SignInRequiredError, type AuthStatus } from '../auth';
import { safeLogger } from './safeLogger';
import { closeRunning } from './closeRunning';
import { Recovery } from './recovery';
import { ServerOAuth } from './oauthSessions';
import { ToolCalls } from './toolCalls';
import { ConnectionRequests } from './connectionRequests';
import { OwnStops } from './ownStops';
import { StartAttempt } from './start/attempt';
import type { AuthFailure, StartContext, StartOutcome } from './start/context';
import { runStart } from './start/runStart';
import { launchValues } from './start/prepareLaunch';
import { startContext, type ConnectionParts, type ProbeMemory } from './startContext';
import { StderrTail } from './stderrTail';

export type { ServerState, StateChange } from './connectionState';

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

export class ServerConnection extends ConnectionRequests {
  /** The start in progress, or the one that made the running client; replaced by every start, cancelled by stop. */
  private attempt?: StartAttempt;
  private readonly ownStops = new OwnStops<StartAttempt | undefined>();
  private declaredSecrets: readonly string[] = [];
  private _launchValues: readonly string[] = [];
  private signInPending = false;
  private readonly roots: ServerRoots;
  private closedReason?: string;
  private readonly restartPolicy: RestartPolicy;
  private readonly recovery_: Recovery;
  private readonly oauth: ServerOAuth;
  protected readonly tools: ToolCalls;
  /** This stdio server failed the `server/discover` probe: its later starts skip it. */
  private readonly probe: ProbeMemory = { verdict: 'probe' };
  private readonly stderr = new StderrTail();
  /** What every start borrows from this connection (startContext.ts). */
  private readonly parts: ConnectionParts;
  /** The roots a sandboxed server's rules were written for; undefined when it runs unsandboxed. */
  private _sandboxRoots?: readonly string[];

  readonly logger: Logger;
  readonly catalog: ServerCatalog;
  private readonly budget: ServerBudget;
  /** The log of what the server and its apps write: one budget for both (an app's lines are its server's). */
  get serverLog(): LogGate { return this.budget.serverLog; }
  /** Results with caching hints (2026-07-28); kept across automatic reconnects, emptied by a start or stop of the user's. */
  protected readonly cache: ResponseCache;

  private readonly _onDidUpdateResource = this._register(new Emitter<string>());
  /** `notifications/resources/updated` for a subscribed URI. */
  readonly onDidUpdateResource: Event<string> = this._onDidUpdateResource.event;
  private readonly _onDidCompleteElicitation = this._register(new Emitter<string>());
  /** `notifications/elicitation/complete`: the URL elicitation with this id finished out of band. */
  readonly onDidCompleteElicitation: Event<string> = this._onDidCompleteElicitation.event;

  /** The request path's view of this connection. */
  protected readonly requests: RequestTarget & TaskFollower;

  constructor(readonly name: string, private _declaration: ServerDeclaration, private readonly options: ConnectionOptions) {
    super();
    this.logger = safeLogger(options.logger ?? nullLogger);
    this.restartPolicy = new RestartPolicy(options.restart ?? defaultRestartOptions);
    this.budget = new ServerBudget(this.logger, options.limits);
    this._register({ dispose: () => this.budget.dispose() });
    this.cache = new ResponseCache(this.budget.limits);
    this._register({ dispose: () => this.cache.clear() });
    this.requests = {
      name, logger: this.logger,
      closedReason: () => this.closedReason,
      url: () => this.url,
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
      unreachable: (client, err) => this.recovery_.connectionLost(client, err),
      answerInput: (method, params, signal) => answerTaskInput({ ports: this.options.ports, roots: this.roots, ref: () => this.ref }, method, params, signal),
    };
    this.tools = new ToolCalls(name, this.logger, { requests: this.requests, transport: () => this.running?.transport, supportsToolTasks: () => this.supportsToolTasks() });
    this.recovery_ = new Recovery({
      logger: this.logger, restartPolicy: this.restartPolicy, url: () => this.url,
      isCurrentRemote: client => this._state === 'running' && this.client === client && this.transportKind !== 'stdio',
      isExpiredSession: err => this.isExpiredSession(err),
      dropRunning: reason => { this.closedReason = reason; this.dropRunning(); },
      fail: message => this.fail(message),
      announce: message => this.setState('starting', message),
      startAgain: () => { void this.begin(); },
      verb: () => (this.transportKind === 'http' || this.transportKind === 'sse' ? 'reconnecting' : 'restarting'),
    });
    this.oauth = new ServerOAuth(name, options.ports.auth, this.logger, () => {
      // A running server whose tokens are gone for good (refresh refused, sign-in declined) stops asking.
      if (this._state === 'running') this.stopOnOwn(() => this.failAuth(new SignInRequiredError()));
    });
    this.catalog = this._register(connectionCatalog({
      name, cache: this.cache, client: () => this.client, secrets: () => this.secrets, timeoutMs: () => this.requestTimeoutMs(),
      closedReason: () => this.closedReason, url: () => this.url, notRunning: m => this.notRunning(m),
    }, this.logger, options.listChangedDebounceMs, this.budget.limits));
    // A catalogue past its budget: stop the server for good (a restart would list it again).
    this._register(this.catalog.onDidExceedBudget(e => { if (this._state === 'running' || this._state === 'starting') this.stopOnOwn(() => this.fail(e.message)); }));
    this._register(this.catalog.onDidChange(kind => { if (kind === 'tools') this.tools.listed(this.catalog.get('tools')); }));
    this.roots = new ServerRoots(() => this._declaration, options.ports, this.logger);
    const roots = options.ports.roots;
    if (roots) this._register(roots.onDidChangeRoots(() => { if (this._state === 'running') void this.rootsChanged(); }));
    if (this.logger.onDidChangeLogLevel) this._register(this.logger.onDidChangeLogLevel(() => this.syncLogLevel()));
    this.parts = {
      name, declaration: () => this._declaration, ports: options.ports, logger: this.logger, budget: this.budget, cache: this.cache,
      catalog: this.catalog, roots: this.roots, probe: this.probe, stderr: this.stderr, refusalsReported: new Set(), defaultStartTimeoutMs: options.startTimeoutMs,
      ref: () => this.ref, secrets: () => this.secrets, rootUris: () => this.rootUris(),
      oauthSessionFor: (url, headers, auth) => this.oauth.sessionFor(url, headers, auth),
      onResourceUpdated: uri => this._onDidUpdateResource.fire(uri),
      onElicitationComplete: id => this._onDidCompleteElicitation.fire(id),
      onPlant: p => { void this.end(() => this.fail(describePlant(p))); },
    };
  }

  get declaration(): ServerDeclaration { return this._declaration; }
  /** In `starting` after a crash: `restarting` (a process) or `reconnecting` (an HTTP server that went away). */
  get recovery(): 'restarting' | 'reconnecting' | undefined { return this.recovery_.phase; }
  private get url(): string | undefined { return (this._declaration as { url?: string }).url; }
  /** Started under the OS sandbox (see `core/sandbox`). */
  get sandboxed(): boolean { return this._sandboxRoots !== undefined && this._state !== 'stopped'; }
  /** OAuth state of an HTTP server (`undefined`: no OAuth here, e.g. stdio or a declared Authorization header). */
  get authStatus(): AuthStatus | undefined { return this.oauth.session?.status; }

  protected get restarting(): boolean { return this.recovery_.restarting; }
  protected restartEnded(): void { this.recovery_.restarting = false; }
  /** `${input:…}` values, plus OAuth tokens and client secrets: logs and traces redact them. */
  protected get secrets(): readonly string[] {
    return this.oauth.session ? [...this.declaredSecrets, ...this.oauth.session.secrets()] : this.declaredSecrets;
  }

  /**
   * The resolved values this start gave the server that it did not inherit from everyone (environment
   * from `env` and the env file, `${env:…}` included; HTTP header values): a copy kept on disk (the
   * catalogue cache) redacts them.
   */
  get launchValues(): readonly string[] { return this._launchValues; }

  /** A local server's last stderr lines since the user's last start, cleaned for showing (its reason when it fails to start). */
  get stderrTail(): readonly string[] { return this.stderr.read(this.secrets); }

  /** Replaces the declaration; the caller decides whether to restart. */
  setDeclaration(d: ServerDeclaration): void {
    if (JSON.stringify(d) !== JSON.stringify(this._declaration)) this.cache.clear();
    this._declaration = d; this.probe.verdict = 'probe';
  }

  /**
   * The declaration's `roots` changed, or what they resolve to may have (trust granted): a server
   * that listed its roots before gets `roots/list_changed` if its answer would now differ.
   */
  async refreshRoots(): Promise<void> {
    if (this._state === 'running' && await this.roots.changed()) await this.rootsChanged();
  }

  /** Starts (or restarts) by the user's wish: resets the crash budget. */
  async start(): Promise<void> {
    this.restartPolicy.reset(); this.awake(); this.stderr.clear();
    // A start of the user's (a restart after editing the server, a sign-in) wants fresh answers.
    this.cache.clear();
    this.setState('starting');
    await this.begin();
  }

  async stop(): Promise<void> {
    this._trustRequirements = []; this.awake();
    this.cache.clear();
    // Only if no start came in meanwhile: a restart right after a stop must not be shown as stopped.
    await this.end(() => this.setState('stopped'));
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
    if (!await this.oauth.signOut(this.url)) return false;
    if (this._state === 'running' || this._state === 'starting') await this.restart();
    return true;
  }

  /**
   * A new attempt in place of the current one, whose process is gone before this one spawns (a
   * restart during a start never runs two copies). `terminateSession`: say goodbye to an HTTP session.
   */
  private async begin(terminateSession = true): Promise<void> {
    const previous = this.attempt;
    const attempt = this.attempt = new StartAttempt(previous);
    this.recovery_.cancel();
    await attempt.previousEnded();
    if (this.running) await this.stopConnection(terminateSession);
    if (this.attempt !== attempt) return;
    this._needsSignIn = false;
    this._trustRequirements = [];
    this.setState('starting', this._message && this.restartPolicy.recentRestarts ? this._message : undefined);
    this.closedReason = undefined;
    this._sandboxRoots = undefined;
    const outcome = await runStart(this.startContext(), attempt, {
      prepared: p => { this.declaredSecrets = p.secrets; this._launchValues = launchValues(p.launch); this._sandboxRoots = p.sandboxRoots; },
      adopt: r => { this.running = r; this.lastRunning = r; },
      loadCatalogs: r => loadCatalogs(this.catalog, r.client.getServerCapabilities() ?? {}, this.logger, () => this.secrets, () => !attempt.cancelled),
      onClosed: inner => this.onClosed(attempt, inner),
      onError: (client, e) => {
        this.logger.debug(`Transport error: ${redact(errorText(e), this.secrets)}`);
        this.recovery_.transportError(client, e);
      },
    });
    if (this.attempt === attempt) await this.settle(attempt, outcome);
    else await this.ownStops.pending(this.attempt);
  }

  /** The state a finished attempt leaves the server in. */
  private async settle(attempt: StartAttempt, outcome: StartOutcome): Promise<void> {
    switch (outcome.kind) {
      case 'running': this.syncLogLevel(); this.setState('running'); return;
      case 'cancelled': return;
      case 'crashed': this.recovery_.crashed(outcome.reason); return;
      case 'failed': this.fail(outcome.message); return;
      case 'needsTrust':
        // Not a failure: nothing ran, and the user has nothing to fix but the trust decision.
        this._trustRequirements = outcome.error.requirements;
        this.logger.info(`Not started: ${outcome.error.message}`);
        this.setState('stopped', outcome.error.message);
        return;
      case 'needsSignIn':
        // Found while listing the catalogues: the running client goes first.
        if (this.running) await this.stopConnection();
        if (this.attempt === attempt) this.failAuth(outcome.error);
    }
  }

  /**
   * Ends the current attempt (its process at once) and the running client; `then` runs unless a
   * start came in meanwhile. A stop is an attempt cancelled from birth: it is the current one until the next start.
   */
  private async end(then?: () => void): Promise<void> {
    const previous = this.attempt;
    const stopping = this.attempt = new StartAttempt(previous);
    void stopping.cancel();
    this.recovery_.cancel();
    try {
      await previous?.cancel();
      await this.stopConnection();
    } finally {
      if (this.attempt === stopping) then?.();
    }
  }

  private startContext(): StartContext {
    return startContext(this.parts, { restarting: this.recovery_.restarting, signInPending: this.signInPending });
  }

  private syncLogLevel(): void {
    const client = this.client;
    if (!client || !client.getServerCapabilities()?.logging) return;
    client.setLoggingLevel(toMcpLevel(this.logger.logLevel)).catch(e => this.logger.debug(`logging/setLevel failed: ${errorText(e)}`));
  }

  /** What this server is offered as roots (workspace, user and its declaration's own roots). */
  private async rootUris(): Promise<string[]> {
    return (await this.roots.list(this.ref)).map(r => r.uri);
  }

  /** A sandbox's writable folders are fixed when it starts: new roots need a restart, others a notification. */
  private async rootsChanged(): Promise<void> {
    const inEffect = this._sandboxRoots;
    const now = inEffect && rootPaths(await this.rootUris()).join('\0');
    if (inEffect && this._state === 'running' && this._sandboxRoots === inEffect && now !== inEffect.join('\0')) {
      this.logger.info('The roots changed: restarting so that the sandbox lets the server write to the new roots only');
      return this.restart();
    }
    if (this._state === 'running') this.client?.sendRootsListChanged().catch(e => this.logger.warn(`Could not send roots/list_changed: ${errorText(e)}`));
  }

  private onClosed(attempt: StartAttempt, inner: Transport): void {
    if (attempt !== this.attempt || this._state !== 'running') return;
    this.recovery_.crashed(inner instanceof StdioTransport ? describeExit(inner.exitInfo) : 'the connection closed');
  }

  /** Forgets the running client (its catalogues with it). */
  private dropRunning(): void {
    this.running?.listens?.dispose();
    this.running = undefined;
    this.catalog.clear();
  }

  private async stopConnection(terminateSession = true): Promise<void> {
    const running = this.running;
    this.dropRunning();
    if (running) await closeRunning(running, this.logger, terminateSession);
  }

  private async reinitialize(): Promise<void> {
    await this.begin(false);
    if (this._state !== 'running') throw this.notRunning('re-initialize');
  }

  /** Stops with no caller to wait for it: a start it cancels waits for it instead (ownStops.ts). */
  private stopOnOwn(then: () => void): void {
    // end() makes its stopping attempt the current one before its first await: read after it.
    this.ownStops.track(this.end(then).catch((e: unknown) => this.logger.error(`Stopping failed: ${errorText(e)}`)), this.attempt);
  }

  private failAuth(err: AuthFailure): void {
    this._needsSignIn = true;
    const message = this.oauth.signInNeeded(err);
    this.logger.warn(redact(`${message}; use Sign In to authorize`, this.secrets));
    this.setState('error', redact(message, this.secrets));
  }

  protected requestTimeoutMs(): number {
    return this._declaration.timeoutMs ?? this.options.defaultTimeoutMs ?? 60_000;
  }

  private isExpiredSession(err: unknown): boolean {
    return err instanceof SdkHttpError && err.status === 404 && this.transportKind === 'http';
  }

  override dispose(): void {
    void this.end().finally(() => this.oauth.dispose());
    super.dispose();
  }

  /** Stops and waits until the process tree is gone, whatever a logger or listener does meanwhile; then disposes. */
  async shutdown(): Promise<void> {
    try { await this.stop(); } finally { super.dispose(); }
  }
}

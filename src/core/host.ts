/**
 * The set of connections keyed by server name. `apply()` takes the raw servers setting, reports
 * problems per server, and starts/stops/restarts only what changed. Embeddable: no VS Code here.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import { declarationKey, parseServers } from './config/parse';
import { launchBase } from './config/envFileContent';
import { runsInLaunchBase } from './tools/programIdentity';
import { workspaceVariableValues } from './config/trust';
import type { ConfigProblem, ServerDeclaration } from './config/types';
import { Disposable, Emitter, type Event, type IDisposable } from './events';
import { nullLogger, type Logger } from './logger';
import type { HostPorts } from './ports';
import type { CatalogKind } from './catalog/serverCatalog';
import { ServerConnection, type ConnectionOptions, type StateChange } from './connection/serverConnection';
import { SkillDirectory } from './skills/skillDirectory';
import { ServerError } from './connection/errors';
import type { CallOptions } from './connection/requestPath';
import { CatalogCache, type CachedCatalog } from './catalog/catalogCache';
import { catalogCacheKey, catalogKeyInputs } from './catalog/catalogCacheKey';
import type { AutostartSettings } from './autostart/policy';
import { ServerAutostart } from './autostart/serverAutostart';
import { applyPolicy } from './policy/enforce';

export interface HostOptions extends Omit<ConnectionOptions, 'ports' | 'logger'> {
  readonly ports: HostPorts;
  /** Host-level log (apply results, problems). */
  readonly logger?: Logger;
  /** When servers start and stop by themselves (`mcpHost.autostart`, `mcpHost.idleStop`); default: all start at once. */
  readonly autostart?: AutostartSettings;
}

export interface ApplyResult {
  readonly problems: readonly ConfigProblem[];
  readonly started: readonly string[];
  readonly stopped: readonly string[];
  readonly restarted: readonly string[];
}

export interface CatalogChange { readonly server: string; readonly kind: CatalogKind; }

export interface Owned<T> {
  readonly server: string;
  readonly item: T;
  /** From the catalogue cache of a server that is not running: shown only; a use starts the server, which lists its own. */
  readonly cached?: true;
}

interface Entry { conn: ServerConnection; key: string; listeners: IDisposable[]; auto: ServerAutostart }

export class McpHost extends Disposable {
  private readonly connections = new Map<string, Entry>();
  private readonly catalogCache?: CatalogCache;
  private readonly loggers = new Map<string, Logger>();
  private _problems: readonly ConfigProblem[] = [];
  private readonly logger: Logger;
  /** The skills each server lists (Skills extension, SEP-2640): listed when asked for, read only when loaded. */
  readonly skills = this._register(new SkillDirectory());

  private readonly _onDidChangeServers = this._register(new Emitter<void>());
  /** Servers were added or removed, or problems changed. */
  readonly onDidChangeServers: Event<void> = this._onDidChangeServers.event;
  private readonly _onDidChangeState = this._register(new Emitter<StateChange>());
  readonly onDidChangeState: Event<StateChange> = this._onDidChangeState.event;
  private readonly _onDidChangeCatalog = this._register(new Emitter<CatalogChange>());
  readonly onDidChangeCatalog: Event<CatalogChange> = this._onDidChangeCatalog.event;
  private readonly _onDidUpdateResource = this._register(new Emitter<{ server: string; uri: string }>());
  readonly onDidUpdateResource: Event<{ server: string; uri: string }> = this._onDidUpdateResource.event;
  private readonly _onDidCompleteElicitation = this._register(new Emitter<{ server: string; elicitationId: string }>());
  /** A server sent `notifications/elicitation/complete` (a URL elicitation finished out of band). */
  readonly onDidCompleteElicitation: Event<{ server: string; elicitationId: string }> = this._onDidCompleteElicitation.event;

  /** The embedder's ports, with the policy's pinned authorization servers applied to OAuth. */
  private readonly connectionPorts: HostPorts;

  constructor(private readonly options: HostOptions) {
    super();
    const { auth, policy } = options.ports;
    this.connectionPorts = auth && policy
      ? { ...options.ports, auth: { ...auth, allowedAuthorizationServers: () => policy().authorizationServers ?? auth.allowedAuthorizationServers?.() } }
      : options.ports;
    this.logger = options.logger ?? nullLogger;
    const port = options.ports.catalogCache;
    if (port) this.catalogCache = new CatalogCache(port.dir, {}, this.logger);
  }

  /** Problems of the last `apply()`, each naming its server and field. */
  get problems(): readonly ConfigProblem[] { return this._problems; }

  get servers(): readonly ServerConnection[] { return [...this.connections.values()].map(e => e.conn); }

  get(name: string): ServerConnection | undefined { return this.connections.get(name)?.conn; }

  /** Like {@link get} but throws a user-facing error for an unknown server. */
  require(name: string): ServerConnection {
    const c = this.get(name);
    if (!c) throw new ServerError(name, `no server with this name is configured${this.connections.size ? ` (configured: ${[...this.connections.keys()].join(', ')})` : ''}`);
    return c;
  }

  /**
   * Applies the raw servers setting. Unchanged servers keep running; changed ones restart; removed
   * ones stop; servers waiting for Workspace Trust try again; broken ones are reported in `problems`
   * and do not stop the others. Servers start in parallel and in the background: the returned promise
   * resolves once all starts have settled — each server `running`, `error` (also one the host stopped
   * itself, e.g. for its budget), `stopped`, or `starting` only when its start crashed and an automatic
   * restart is scheduled (its message says when).
   */
  async apply(raw: unknown): Promise<ApplyResult> {
    const parsed = parseServers(raw);
    // The policy's refusals are problems of their servers: a refused server gets no connection at all.
    const admitted = applyPolicy(parsed.servers, this.options.ports.policy?.(), this.options.ports.registryInstall);
    const servers = admitted.servers;
    const problems = [...parsed.problems, ...admitted.problems];
    const cacheKey = (name: string) => this.cacheKey(raw, name);
    this._problems = problems;
    for (const p of problems) this.logger[p.severity === 'error' ? 'error' : 'warn'](`${p.server ? `Server "${p.server}"` : 'Servers setting'}${p.field ? ` (${p.field})` : ''}: ${p.message}`);
    const wanted = new Map(servers.map(s => [s.name, s]));
    const started: string[] = [], stopped: string[] = [], restarted: string[] = [];
    const work: Promise<void>[] = [];

    for (const [name, entry] of this.connections) {
      if (!wanted.has(name)) {
        stopped.push(name);
        this.connections.delete(name);
        for (const l of entry.listeners) l.dispose();
        work.push(entry.conn.shutdown());
      }
    }
    for (const decl of servers) {
      const key = this.runningKey(decl);
      const existing = this.connections.get(decl.name);
      if (existing) {
        if (existing.key === key) {
          // Only `roots` and `autostart` may differ (they are not part of the key): announced, no restart.
          existing.conn.setDeclaration(decl);
          work.push(existing.conn.refreshRoots());
          // Trust may have been granted since (the embedder applies again): a waiting server starts now (or waits for its use).
          if (existing.conn.needsTrust && !decl.disabled) work.push(this.arrange(existing, cacheKey(decl.name), false, started));
          else work.push(existing.auto.policyChanged(cacheKey(decl.name)));
          continue;
        }
        existing.key = key;
        existing.conn.setDeclaration(decl);
        if (decl.disabled) { stopped.push(decl.name); work.push(existing.auto.arrange(cacheKey(decl.name), true)); }
        // The restart goes through the autostart too: the new program's catalogue is cached under its own key, never the old one's.
        else if (existing.conn.state !== 'stopped') { restarted.push(decl.name); work.push(existing.auto.arrange(cacheKey(decl.name), true)); }
        else work.push(this.arrange(existing, cacheKey(decl.name), true, restarted));
        continue;
      }
      const conn = this.create(decl);
      const entry: Entry = { conn, key, listeners: [], auto: new ServerAutostart(conn, this.catalogCache, this.options.autostart ?? {}) };
      entry.listeners = this.listen(entry);
      this.connections.set(decl.name, entry);
      work.push(this.arrange(entry, cacheKey(decl.name), false, started));
    }
    this._onDidChangeServers.fire();
    await Promise.all(work.map(w => w.catch(e => this.logger.error(`apply: ${e instanceof Error ? e.message : String(e)}`))));
    return { problems, started, stopped, restarted };
  }

  /**
   * What must stay the same for a running server to keep running: its declaration, and for one that runs
   * in the launch folder (no absolute `cwd`: `npx pkg`, `python -m mod` resolve from it) that folder too.
   * Trust granted, or another first folder, moves the launch folder: the server restarts there rather
   * than keep running the home folder's program while its approvals are read for the workspace's. The
   * same holds for the folders its `${workspaceFolder…}` variables name (`"cwd": "${workspaceFolder}"`,
   * `"args": ["${workspaceFolder:api}/server.js"]`): another folder there is another program.
   */
  private runningKey(decl: ServerDeclaration): string {
    const vars = this.options.ports.variables;
    const parts = [declarationKey(decl), ...workspaceVariableValues(decl, vars.workspaceFolders)];
    if (decl.type === 'stdio' && runsInLaunchBase(decl as unknown as Record<string, unknown>)) parts.push(launchBase(vars));
    return parts.join('\0');
  }

  /**
   * Lets the server's policy decide (ServerAutostart.arrange); `into` gets its name when it starts.
   * A server that starts at once is named before anything is awaited, so the order is the declarations'.
   */
  private arrange(entry: Entry, cacheKey: Promise<string | undefined>, changed: boolean, into: string[]): Promise<void> {
    const { conn, auto } = entry;
    if (!conn.declaration.disabled && auto.policy === 'always') into.push(conn.name);
    else if (!conn.declaration.disabled && auto.policy === 'onDemand') {
      const d = conn.onDidChangeState(e => { if (e.state === 'starting') { d.dispose(); into.push(conn.name); } });
      return auto.arrange(cacheKey, changed).finally(() => d.dispose());
    }
    return auto.arrange(cacheKey, changed);
  }

  /** Read when the host applies: the env file's content is part of the key (core/catalog/catalogCacheKey.ts). */
  private async cacheKey(raw: unknown, name: string): Promise<string | undefined> {
    const port = this.options.ports.catalogCache;
    if (!port || !raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
    const declaration = (raw as Record<string, unknown>)[name];
    return catalogCacheKey(declaration, port.place(name), await catalogKeyInputs(declaration, this.options.ports.variables));
  }

  /**
   * Resolves once `name` runs: a server that waits for its first use (`autostart: onDemand`) starts
   * now; one that is starting is waited for (bounded by `opts.timeoutMs`, default its request timeout).
   * Rejects, saying why, for a server stopped by the user, `autostart: never`, failed or unknown.
   * For callers that talk to the server's client themselves (the native gateway); requests through
   * the connection do this by themselves.
   */
  ensureRunning(name: string, opts: CallOptions = {}): Promise<ServerConnection> {
    const conn = this.require(name);
    return conn.ready(opts, 'the first request').then(() => conn);
  }

  /** The cached catalogue of `name` for its current declaration, whether or not it runs. */
  cachedCatalog(name: string): CachedCatalog | undefined { return this.connections.get(name)?.auto.cached; }

  private create(decl: ServerDeclaration): ServerConnection {
    let logger = this.loggers.get(decl.name);
    if (!logger) {
      logger = this.options.ports.createLogger?.(decl.name) ?? nullLogger;
      this.loggers.set(decl.name, logger);
    }
    return new ServerConnection(decl.name, decl, { ...this.options, ports: this.connectionPorts, logger });
  }

  private listen({ conn, auto }: Entry): IDisposable[] {
    auto.onDidChangeCached = () => {
      if (conn.state === 'running') return;
      for (const kind of ['tools', 'resources', 'resourceTemplates', 'prompts'] as const) this._onDidChangeCatalog.fire({ server: conn.name, kind });
    };
    return [
      auto,
      conn.onDidChangeState(e => this._onDidChangeState.fire(e)),
      conn.catalog.onDidChange(kind => this._onDidChangeCatalog.fire({ server: conn.name, kind })),
      conn.onDidUpdateResource(uri => this._onDidUpdateResource.fire({ server: conn.name, uri })),
      conn.onDidCompleteElicitation(elicitationId => this._onDidCompleteElicitation.fire({ server: conn.name, elicitationId })),
      conn,
    ];
  }

  // ---- aggregated catalogs --------------------------------------------------------------------

  private collect<T>(kind: CatalogKind): Owned<T>[] {
    const out: Owned<T>[] = [];
    for (const { conn, auto } of this.connections.values()) {
      const live = conn.catalog.get(kind);
      for (const item of live) out.push({ server: conn.name, item: item as T });
      // A server that starts when used shows what it listed last time (until it lists anew).
      const cached = auto.cached;
      if (!live.length && conn.state !== 'running' && cached && (conn.dormant || conn.state === 'starting')) {
        for (const item of cached[kind]) out.push({ server: conn.name, item: item as T, cached: true });
      }
    }
    return out;
  }
  get tools(): Owned<Tool>[] { return this.collect('tools'); }
  get resources(): Owned<Resource>[] { return this.collect('resources'); }
  get resourceTemplates(): Owned<ResourceTemplate>[] { return this.collect('resourceTemplates'); }
  get prompts(): Owned<Prompt>[] { return this.collect('prompts'); }

  /** Stops every server and waits until their process trees are gone. */
  async shutdown(): Promise<void> {
    const entries = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(entries.map(async e => {
      for (const l of e.listeners) if (l !== e.conn) l.dispose();
      await e.conn.shutdown();
    }));
    super.dispose();
  }

  override dispose(): void {
    void this.shutdown();
  }
}

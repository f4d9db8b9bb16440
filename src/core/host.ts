/**
 * The set of connections keyed by server name. `apply()` takes the raw servers setting, reports
 * problems per server, and starts/stops/restarts only what changed. Embeddable: no VS Code here.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import { declarationKey, parseServers } from './config/parse';
import type { ConfigProblem, ServerDeclaration } from './config/types';
import { Disposable, Emitter, type Event, type IDisposable } from './events';
import { nullLogger, type Logger } from './logger';
import type { HostPorts } from './ports';
import type { CatalogKind } from './catalog/serverCatalog';
import { ServerConnection, type ConnectionOptions, type StateChange } from './connection/serverConnection';
import { ServerError } from './connection/errors';

export interface HostOptions extends Omit<ConnectionOptions, 'ports' | 'logger'> {
  readonly ports: HostPorts;
  /** Host-level log (apply results, problems). */
  readonly logger?: Logger;
}

export interface ApplyResult {
  readonly problems: readonly ConfigProblem[];
  readonly started: readonly string[];
  readonly stopped: readonly string[];
  readonly restarted: readonly string[];
}

export interface CatalogChange { readonly server: string; readonly kind: CatalogKind; }

export interface Owned<T> { readonly server: string; readonly item: T; }

export class McpHost extends Disposable {
  private readonly connections = new Map<string, { conn: ServerConnection; key: string; listeners: IDisposable[] }>();
  private readonly loggers = new Map<string, Logger>();
  private _problems: readonly ConfigProblem[] = [];
  private readonly logger: Logger;

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

  constructor(private readonly options: HostOptions) {
    super();
    this.logger = options.logger ?? nullLogger;
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
    const { servers, problems } = parseServers(raw);
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
      const key = declarationKey(decl);
      const existing = this.connections.get(decl.name);
      if (existing) {
        if (existing.key === key) {
          // Only `roots` may differ (they are not part of the key): announced, no restart.
          existing.conn.setDeclaration(decl);
          work.push(existing.conn.refreshRoots());
          // Trust may have been granted since (the embedder applies again): a waiting server starts now.
          if (existing.conn.needsTrust && !decl.disabled) { started.push(decl.name); work.push(existing.conn.start()); }
          continue;
        }
        existing.key = key;
        existing.conn.setDeclaration(decl);
        if (decl.disabled) { stopped.push(decl.name); work.push(existing.conn.stop()); }
        else { restarted.push(decl.name); work.push(existing.conn.restart()); }
        continue;
      }
      const conn = this.create(decl);
      this.connections.set(decl.name, { conn, key, listeners: this.listen(conn) });
      if (!decl.disabled) { started.push(decl.name); work.push(conn.start()); }
    }
    this._onDidChangeServers.fire();
    await Promise.all(work.map(w => w.catch(e => this.logger.error(`apply: ${e instanceof Error ? e.message : String(e)}`))));
    return { problems, started, stopped, restarted };
  }

  private create(decl: ServerDeclaration): ServerConnection {
    let logger = this.loggers.get(decl.name);
    if (!logger) {
      logger = this.options.ports.createLogger?.(decl.name) ?? nullLogger;
      this.loggers.set(decl.name, logger);
    }
    return new ServerConnection(decl.name, decl, { ...this.options, logger });
  }

  private listen(conn: ServerConnection): IDisposable[] {
    return [
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
    for (const { conn } of this.connections.values()) {
      for (const item of conn.catalog.get(kind)) out.push({ server: conn.name, item: item as T });
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

/**
 * When one server starts and stops by itself, and the catalogue it leaves behind.
 *
 * - `always`: starts when declared (and when its declaration changes), as before on-demand starts.
 * - `onDemand`: with a cached catalogue for its declaration it stays stopped and {@link ServerConnection.dormant}:
 *   the first request starts it (ConnectionState.ready). Without one (never started, or the
 *   declaration changed) it starts once to fill it, and then runs until it is idle.
 * - `never`: only the user starts it.
 * Every time the server runs, its catalogues are written to the cache (core/catalog/catalogCache.ts),
 * so the next window shows them without starting it. An on-demand server no one used for
 * `idleStopMs` stops and waits for its next use; in use means a request in flight (a task until it
 * ends), a resource subscription, a hold (an open MCP App), or a debugger (`dev.debug`).
 */
import { Disposable } from '../events';
import type { CachedCatalog, CatalogCache } from '../catalog/catalogCache';
import type { ServerConnection } from '../connection/serverConnection';
import { autostartOf, type Autostart, type AutostartSettings } from './policy';

/** How long catalogue changes of a running server settle before they are written. */
const SAVE_DELAY_MS = 1000;

export class ServerAutostart extends Disposable {
  private _cached?: CachedCatalog;
  private key?: string;
  /** Counts {@link load}s: only the newest one's key counts. */
  private generation = 0;
  private saveTimer?: NodeJS.Timeout;
  private idleTimer?: NodeJS.Timeout;
  /** Fires when the cached catalogue was loaded or replaced (the host fires its catalogue change). */
  onDidChangeCached?: () => void;

  constructor(private readonly conn: ServerConnection, private readonly cache: CatalogCache | undefined, private readonly settings: AutostartSettings) {
    super();
    this._register(conn.onDidChangeState(e => {
      if (e.state === 'running') { this.scheduleSave(0); this.scheduleIdle(); }
      else if (e.state !== 'starting') { clearTimeout(this.idleTimer); clearTimeout(this.saveTimer); }
    }));
    this._register(conn.catalog.onDidChange(() => { if (conn.state === 'running') this.scheduleSave(SAVE_DELAY_MS); }));
    this._register({ dispose: () => { clearTimeout(this.saveTimer); clearTimeout(this.idleTimer); } });
  }

  get policy(): Autostart { return autostartOf(this.conn.declaration.autostart, this.settings); }

  /** The catalogue the cache holds for the current declaration, if any (only shown: calls go to the running server). */
  get cached(): CachedCatalog | undefined { return this._cached; }

  /**
   * A new declaration (or one whose program changed, `key` its cache key, which may need a file read:
   * what starts at once does not wait for it): starts it, lets it wait
   * for its first use, or leaves it stopped. `changed`: an existing connection got a new declaration
   * (a running one restarts, as before). Resolves once a start it made has settled.
   */
  async arrange(key: Promise<string | undefined>, changed: boolean): Promise<void> {
    const conn = this.conn;
    const policy = this.policy;
    const loaded = this.load(key);
    // What starts at once is `starting` before this returns, as a start always was (callers wait on it).
    if (!conn.declaration.disabled && (policy === 'always' || (changed && conn.state !== 'stopped'))) {
      await Promise.all([loaded, changed && conn.state !== 'stopped' ? conn.restart() : conn.start()]);
      return;
    }
    await loaded;
    if (conn.declaration.disabled) { if (changed) await conn.stop(); return; }
    if (policy === 'onDemand' && !this._cached) {
      conn.logger.info('Starting once to cache what it offers (then it starts when used)');
      return conn.start();
    }
    if (policy === 'onDemand') this.sleep();
    else if (changed) await conn.stop();
  }

  /** The declaration is the same but the policy may have changed (a setting, the declaration's `autostart`), or where it is declared or what its env file holds (`key`). */
  async policyChanged(key: Promise<string | undefined>): Promise<void> {
    const conn = this.conn;
    await this.load(key);
    if (conn.declaration.disabled) return;
    if (conn.dormant && this.policy === 'always') return conn.start();
    if (conn.dormant && this.policy === 'never') conn.sleepUntilUsed(undefined);
    else if (conn.state === 'stopped' && !conn.dormant && !conn.needsTrust && this.policy === 'onDemand' && this._cached) this.sleep();
    if (conn.state === 'running') this.scheduleIdle();
  }

  /** Lets the next use start the stopped server. */
  private sleep(): void {
    const conn = this.conn;
    conn.sleepUntilUsed(() => { void conn.start(); });
  }

  private async load(pending: Promise<string | undefined>): Promise<void> {
    const generation = ++this.generation;
    const key = await pending.catch(() => undefined);
    if (generation !== this.generation) return; // a newer declaration came in meanwhile
    if (key === this.key && this._cached) return;
    this.key = key;
    const before = this._cached;
    this._cached = key && this.cache ? await this.cache.load(key).catch(() => undefined) : undefined;
    if (this.key !== key) return;
    if (before || this._cached) this.onDidChangeCached?.();
    // A start that ran before its key was known (or under the previous key) is cached under this one.
    if (this.conn.state === 'running') this.scheduleSave(0);
  }

  private scheduleSave(ms: number): void {
    clearTimeout(this.saveTimer);
    if (!this.cache || !this.key) return;
    this.saveTimer = setTimeout(() => { void this.save(); }, ms);
    this.saveTimer.unref?.();
  }

  /** Writes what the running server lists, once every list is complete. */
  private async save(): Promise<void> {
    const { conn, cache, key } = this;
    if (!cache || !key) return;
    const catalog = conn.catalog;
    await Promise.all((['tools', 'resources', 'resourceTemplates', 'prompts'] as const).map(k => catalog.whenListed(k)));
    if (conn.state !== 'running' || this.key !== key) return;
    const info = conn.serverInfo;
    const entry = {
      ...(info ? { server: { name: info.name, version: info.version, ...(info.title !== undefined ? { title: info.title } : {}) } } : {}),
      ...(conn.instructions !== undefined ? { instructions: conn.instructions } : {}),
      tools: catalog.get('tools'), resources: catalog.get('resources'), resourceTemplates: catalog.get('resourceTemplates'), prompts: catalog.get('prompts'),
    };
    try {
      await cache.save(key, entry, [...conn.redactions, ...declaredValues(conn)]);
      if (this.key === key) { this._cached = { savedAt: Date.now(), ...entry }; this.onDidChangeCached?.(); }
    } catch (e) {
      conn.logger.warn(`Could not cache the catalogue: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private scheduleIdle(ms?: number): void {
    clearTimeout(this.idleTimer);
    const idleMs = this.settings.idleStopMs?.() ?? 0;
    if (!(idleMs > 0) || this.policy !== 'onDemand' || this.conn.state !== 'running') return;
    this.idleTimer = setTimeout(() => this.checkIdle(idleMs), ms ?? idleMs);
    this.idleTimer.unref?.();
  }

  private checkIdle(idleMs: number): void {
    const conn = this.conn;
    if (conn.state !== 'running' || this.policy !== 'onDemand') return;
    // A debugger attached to it (dev.debug) would lose its session.
    if (conn.uses.busy || conn.declaration.type === 'stdio' && conn.declaration.dev?.debug) return this.scheduleIdle(idleMs);
    const left = conn.uses.lastUse + idleMs - performance.now();
    if (left > 0) return this.scheduleIdle(left);
    conn.logger.info(`Not used for ${Math.round(idleMs / 60_000)} min: stopped; the next use starts it again`);
    void conn.stop().then(() => {
      if (conn.state === 'stopped' && this.policy === 'onDemand') this.sleep();
    });
  }
}

/**
 * The declaration's own environment and header values, which can be secrets written in place, and what
 * this start resolved them to (`${env:…}`, the env file): never
 * copied into the cache. Short values (`1`, `true`, `info`) are settings, not secrets, and redacting
 * them would cut every word they occur in; `${input:…}` values come resolved with the connection's.
 */
function declaredValues(conn: ServerConnection): string[] {
  const d = conn.declaration;
  const values = d.type === 'stdio' ? Object.values(d.env) : Object.values(d.headers);
  // What they resolved to (`${env:…}`, the env file's variables, a header's `Bearer ${env:…}`) too: the user's secrets come that way.
  return [...values, ...conn.launchValues].filter((v): v is string => typeof v === 'string' && v.length >= 8 && !/^\$\{[^}]+\}$/.test(v));
}

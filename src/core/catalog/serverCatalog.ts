/**
 * One server's tools, resources, resource templates and prompts, fetched with full pagination and
 * refreshed on `list_changed` by a debounced refresh (the SDK's own refresh reads only the first page).
 * Snapshots are immutable arrays replaced as a whole, so readers never see a half-updated list.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import { Disposable, Emitter, type Event } from '../events';
import type { Logger } from '../logger';
import { BudgetExceededError, defaultServerLimits, formatBytes, MESSAGE_TOO_LARGE, type ServerLimits } from '../budgets';

export interface CatalogItems {
  tools: Tool;
  resources: Resource;
  resourceTemplates: ResourceTemplate;
  prompts: Prompt;
}
export type CatalogKind = keyof CatalogItems;
export const catalogKinds: readonly CatalogKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

export interface Page<T> { items: T[]; nextCursor?: string }
export type PageFetcher = <K extends CatalogKind>(kind: K, cursor: string | undefined) => Promise<Page<CatalogItems[K]>>;

export class ServerCatalog extends Disposable {
  private readonly snapshots: { [K in CatalogKind]: readonly CatalogItems[K][] } = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  private readonly generation: Record<CatalogKind, number> = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };
  private readonly timers = new Map<CatalogKind, NodeJS.Timeout>();
  private readonly listings = new Map<CatalogKind, Promise<void>>();
  /** Per kind, the newest refresh in flight (what an overtaken refresh waits for). */
  private readonly latest = new Map<CatalogKind, Promise<void>>();
  private readonly _onDidChange = this._register(new Emitter<CatalogKind>());
  /** Fires after a kind's snapshot was replaced. */
  readonly onDidChange: Event<CatalogKind> = this._onDidChange.event;
  private readonly _onDidExceedBudget = this._register(new Emitter<BudgetExceededError>());
  /** A listing went past the page or byte budget (it also rejects); the owner should stop the server. */
  readonly onDidExceedBudget: Event<BudgetExceededError> = this._onDidExceedBudget.event;

  constructor(
    private readonly fetchPage: PageFetcher, private readonly logger: Logger, private readonly debounceMs = 50,
    private readonly limits: Pick<ServerLimits, 'maxCatalogPages' | 'maxCatalogBytes'> = defaultServerLimits,
  ) {
    super();
    this._register({ dispose: () => { for (const t of this.timers.values()) clearTimeout(t); this.timers.clear(); } });
  }

  get<K extends CatalogKind>(kind: K): readonly CatalogItems[K][] {
    return this.snapshots[kind] as readonly CatalogItems[K][];
  }

  /**
   * Fetches every page of `kind`; a newer refresh of the same kind supersedes an older one. Past
   * the page or byte budget (or a page too large to read) it rejects with a {@link BudgetExceededError}
   * and keeps the previous snapshot. `onFirstPage`: a first listing that spans pages publishes its
   * first page at once and calls this, so a server with a huge catalog is usable while the rest loads.
   */
  refresh(kind: CatalogKind, onFirstPage?: () => void): Promise<void> {
    const gen = ++this.generation[kind];
    const p = this.fetchAll(kind, gen, onFirstPage).finally(() => { if (this.latest.get(kind) === p) this.latest.delete(kind); });
    this.latest.set(kind, p);
    this.listings.set(kind, p.then(() => undefined, () => undefined));
    return p;
  }

  /** Resolves once the latest listing of `kind` has every page, or has failed (a server's start waits for the first page only). */
  whenListed(kind: CatalogKind): Promise<void> {
    return this.listings.get(kind) ?? Promise.resolve();
  }

  /**
   * An overtaken refresh resolves when the newer one does, not before: the first listing of a
   * starting server can be overtaken by a list_changed refresh, and "running" must mean the list is there.
   */
  private async fetchAll(kind: CatalogKind, gen: number, onFirstPage?: () => void): Promise<void> {
    const items: CatalogItems[typeof kind][] = [];
    const seen = new Set<string>();
    const { maxCatalogPages, maxCatalogBytes } = this.limits;
    let cursor: string | undefined;
    let bytes = 0;
    for (let page = 0; ; page++) {
      if (page >= maxCatalogPages) throw this.exceeded(new BudgetExceededError(`${listMethod(kind)} went on for more than ${maxCatalogPages} pages (${items.length} items); the server was stopped. A server that pages forever is broken or hostile.`, 'maxCatalogPages'), gen, kind);
      let result: Page<CatalogItems[typeof kind]>;
      try { result = await this.fetchPage(kind, cursor); }
      catch (e) {
        if ((e as { code?: unknown }).code !== MESSAGE_TOO_LARGE) throw e;
        throw this.exceeded(new BudgetExceededError(`${listMethod(kind)}: ${(e as Error).message.replace(/^.*? failed: /, '')}; the server was stopped.`, 'maxMessageBytes'), gen, kind);
      }
      if (gen !== this.generation[kind]) return this.latest.get(kind);
      // The wire size is gone once parsed; JSON length is a close, cheap stand-in next to the parse itself.
      bytes += JSON.stringify(result.items).length;
      if (bytes > maxCatalogBytes) throw this.exceeded(new BudgetExceededError(`${listMethod(kind)} listed more than ${formatBytes(maxCatalogBytes)} (after ${page + 1} pages); the server was stopped.`, 'maxCatalogBytes'), gen, kind);
      for (const item of result.items) items.push(item);
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === null || cursor === '') break;
      if (page === 0 && onFirstPage) {
        this.publish(kind, [...items]);
        onFirstPage();
      }
      if (seen.has(cursor)) {
        this.logger.warn(`${kind}/list returned cursor ${JSON.stringify(cursor)} twice; stopped paginating after ${items.length} items`);
        break;
      }
      seen.add(cursor);
    }
    this.publish(kind, items);
  }

  private publish(kind: CatalogKind, items: readonly unknown[]): void {
    (this.snapshots as Record<CatalogKind, readonly unknown[]>)[kind] = Object.freeze(items);
    this._onDidChange.fire(kind);
  }

  private exceeded(err: BudgetExceededError, gen: number, kind: CatalogKind): BudgetExceededError {
    if (gen === this.generation[kind]) this._onDidExceedBudget.fire(err);
    return err;
  }

  /** Debounced refresh for `notifications/*\/list_changed` bursts. Errors are logged, not thrown. */
  scheduleRefresh(kind: CatalogKind): void {
    clearTimeout(this.timers.get(kind));
    this.timers.set(kind, setTimeout(() => {
      this.timers.delete(kind);
      this.refresh(kind).catch(err => this.logger.warn(`Refreshing ${kind} after list_changed failed: ${err instanceof Error ? err.message : String(err)}`));
    }, this.debounceMs));
  }

  /** Empties every list (server stopped); fires for kinds that were not empty. */
  clear(): void {
    for (const kind of catalogKinds) {
      this.generation[kind]++;
      this.latest.delete(kind);
      clearTimeout(this.timers.get(kind));
      if (this.snapshots[kind].length) {
        (this.snapshots as Record<CatalogKind, readonly unknown[]>)[kind] = Object.freeze([]);
        this._onDidChange.fire(kind);
      }
    }
    this.timers.clear();
  }
}

export type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

export function listMethod(kind: CatalogKind): ListMethod {
  return kind === 'resourceTemplates' ? 'resources/templates/list' : `${kind}/list`;
}

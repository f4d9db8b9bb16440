/**
 * One server's tools, resources, resource templates and prompts, fetched with full pagination and
 * refreshed on `list_changed` by a debounced refresh (the SDK's own refresh reads only the first page).
 * Snapshots are immutable arrays replaced as a whole, so readers never see a half-updated list.
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Disposable, Emitter, type Event } from '../events';
import type { Logger } from '../logger';

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

/** Protects against servers that hand out cursors forever. */
const MAX_PAGES = 10_000;

export class ServerCatalog extends Disposable {
  private readonly snapshots: { [K in CatalogKind]: readonly CatalogItems[K][] } = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  private readonly generation: Record<CatalogKind, number> = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };
  private readonly timers = new Map<CatalogKind, NodeJS.Timeout>();
  private readonly _onDidChange = this._register(new Emitter<CatalogKind>());
  /** Fires after a kind's snapshot was replaced. */
  readonly onDidChange: Event<CatalogKind> = this._onDidChange.event;

  constructor(private readonly fetchPage: PageFetcher, private readonly logger: Logger, private readonly debounceMs = 50) {
    super();
    this._register({ dispose: () => { for (const t of this.timers.values()) clearTimeout(t); this.timers.clear(); } });
  }

  get<K extends CatalogKind>(kind: K): readonly CatalogItems[K][] {
    return this.snapshots[kind] as readonly CatalogItems[K][];
  }

  /** Fetches every page of `kind`; a newer refresh of the same kind supersedes an older one. */
  async refresh(kind: CatalogKind): Promise<void> {
    const gen = ++this.generation[kind];
    const items: CatalogItems[typeof kind][] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await this.fetchPage(kind, cursor);
      if (gen !== this.generation[kind]) return;
      for (const item of result.items) items.push(item);
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === null || cursor === '') break;
      if (seen.has(cursor)) {
        this.logger.warn(`${kind}/list returned cursor ${JSON.stringify(cursor)} twice; stopped paginating after ${items.length} items`);
        break;
      }
      seen.add(cursor);
    }
    (this.snapshots as Record<CatalogKind, readonly unknown[]>)[kind] = Object.freeze(items);
    this._onDidChange.fire(kind);
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
      clearTimeout(this.timers.get(kind));
      if (this.snapshots[kind].length) {
        (this.snapshots as Record<CatalogKind, readonly unknown[]>)[kind] = Object.freeze([]);
        this._onDidChange.fire(kind);
      }
    }
    this.timers.clear();
  }
}

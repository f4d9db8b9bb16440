/**
 * Data of the Resources view, apart from the provider: servers → (a "Resource Templates" group)
 * + resources, shown a page at a time with a "Load more…" node, optionally filtered by name/URI
 * across servers.
 *
 * Memory: the resource lists are the core catalog's frozen snapshot arrays, read in place and never
 * copied or sorted; nodes exist only for the rows shown so far, and a filter keeps matching indices.
 * No `vscode` import: unit-tested in plain Node.
 */
import type { Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { McpHost, ServerConnection } from '../../core';

export const DEFAULT_PAGE_SIZE = 200;

export interface ServerNode { readonly kind: 'server'; readonly server: string; readonly conn: ServerConnection }
export interface TemplatesNode { readonly kind: 'templates'; readonly server: string; readonly count: number }
export interface TemplateNode { readonly kind: 'template'; readonly server: string; readonly id: string; readonly item: ResourceTemplate }
export interface ResourceItemNode { readonly kind: 'resource'; readonly server: string; readonly id: string; readonly item: Resource }

/**
 * A resource row, kept small because there may be thousands: the item is the snapshot's own object,
 * and `kind`/`id` are computed (prototype getters) instead of stored per row.
 */
class ResourceRow implements ResourceItemNode {
  constructor(readonly server: string, readonly item: Resource, private readonly dup: number) {}
  get kind(): 'resource' { return 'resource'; }
  get id(): string { return `${this.server}\u0000r\u0000${this.item.uri}${this.dup ? `\u0000${this.dup}` : ''}`; }
}
export interface MoreNode { readonly kind: 'more'; readonly server: string; readonly shown: number; readonly total: number }
export interface MessageNode { readonly kind: 'message'; readonly server: string; readonly message: 'empty' | 'noMatch' | 'loading' }

export type ResourceTreeNode = ServerNode | TemplatesNode | TemplateNode | ResourceItemNode | MoreNode | MessageNode;

interface ServerState {
  node: ServerNode;
  snapshot: readonly Resource[];
  templates: readonly ResourceTemplate[];
  /** Indices into `snapshot` matching the filter (undefined: no filter). */
  matches?: number[];
  templateMatches?: number[];
  shown: number;
  nodes: ResourceItemNode[];
  /** URIs of the rows built so far (the items' own strings), to number duplicates. */
  uris: Set<string>;
  dups?: Map<string, number>;
  templatesNode?: TemplatesNode;
}

export class ResourcesTreeData {
  private readonly states = new Map<string, ServerState>();
  private _filter = '';

  constructor(private readonly host: McpHost, readonly pageSize = DEFAULT_PAGE_SIZE) {}

  get filter(): string { return this._filter; }

  /** Sets the name/URI filter (case-insensitive substring); '' clears it. Paging restarts. */
  setFilter(text: string): void {
    const f = text.trim().toLowerCase();
    if (f === this._filter) return;
    this._filter = f;
    for (const s of this.states.values()) this.reset(s);
  }

  /** Servers that offer resources (running or loading), or whose catalog still has some. */
  roots(): ServerNode[] {
    const out: ServerNode[] = [];
    const alive = new Set<string>();
    for (const conn of this.host.servers) {
      const offers = (conn.state === 'running' || conn.state === 'starting') && !!conn.capabilities?.resources;
      if (!offers && !conn.catalog.get('resources').length && !conn.catalog.get('resourceTemplates').length) continue;
      const state = this.state(conn);
      alive.add(conn.name);
      if (this._filter && !this.matchCount(state) && !this.templateMatchCount(state)) continue;
      out.push(state.node);
    }
    for (const name of this.states.keys()) if (!alive.has(name)) this.states.delete(name);
    return out.sort((a, b) => a.server.localeCompare(b.server));
  }

  children(node: ResourceTreeNode | undefined): ResourceTreeNode[] {
    if (!node) return this.roots();
    const state = this.states.get(node.server);
    if (!state) return [];
    if (node.kind === 'templates') return this.templateNodes(state);
    if (node.kind !== 'server') return [];
    this.sync(state);
    const out: ResourceTreeNode[] = [];
    const templateCount = this.templateMatchCount(state);
    if (templateCount) out.push(state.templatesNode ??= { kind: 'templates', server: state.node.server, count: templateCount });
    const total = this.matchCount(state);
    this.extend(state, Math.min(state.shown, total));
    for (const n of state.nodes) out.push(n);
    if (state.nodes.length < total) out.push({ kind: 'more', server: state.node.server, shown: state.nodes.length, total });
    if (!out.length) {
      const message = state.node.conn.state === 'starting' ? 'loading' : this._filter ? 'noMatch' : 'empty';
      out.push({ kind: 'message', server: state.node.server, message });
    }
    return out;
  }

  /** Shows the next page of a server's resources. */
  loadMore(server: string): void {
    const state = this.states.get(server);
    if (state) state.shown = state.nodes.length + this.pageSize;
  }

  /** The server node, if it is shown (for targeted refreshes). */
  serverNode(server: string): ServerNode | undefined { return this.states.get(server)?.node; }

  /** Counts for a server node's description: resources and templates, or matches under a filter. */
  counts(server: string): { resources: number; templates: number; totalResources: number; totalTemplates: number } | undefined {
    const state = this.states.get(server);
    if (!state) return undefined;
    this.sync(state);
    return { resources: this.matchCount(state), templates: this.templateMatchCount(state), totalResources: state.snapshot.length, totalTemplates: state.templates.length };
  }

  private state(conn: ServerConnection): ServerState {
    let s = this.states.get(conn.name);
    if (!s || s.node.conn !== conn) {
      s = { node: { kind: 'server', server: conn.name, conn }, snapshot: [], templates: [], shown: this.pageSize, nodes: [], uris: new Set() };
      this.states.set(conn.name, s);
    }
    this.sync(s);
    return s;
  }

  /** Picks up new catalog snapshots (compared by identity: the catalog replaces arrays as a whole). */
  private sync(s: ServerState): void {
    const snapshot = s.node.conn.catalog.get('resources');
    const templates = s.node.conn.catalog.get('resourceTemplates');
    if (snapshot !== s.snapshot) {
      s.snapshot = snapshot;
      s.matches = undefined;
      s.nodes = [];
      s.uris = new Set();
      s.dups = undefined;
    }
    if (templates !== s.templates) {
      s.templates = templates;
      s.templateMatches = undefined;
      s.templatesNode = undefined;
    }
  }

  private reset(s: ServerState): void {
    s.matches = undefined;
    s.templateMatches = undefined;
    s.templatesNode = undefined;
    s.nodes = [];
    s.uris = new Set();
    s.dups = undefined;
    s.shown = this.pageSize;
  }

  private matchCount(s: ServerState): number {
    if (!this._filter) return s.snapshot.length;
    s.matches ??= indicesWhere(s.snapshot, r => matches(this._filter, r.name, r.title, r.uri));
    return s.matches.length;
  }

  private templateMatchCount(s: ServerState): number {
    if (!this._filter) return s.templates.length;
    s.templateMatches ??= indicesWhere(s.templates, t => matches(this._filter, t.name, t.title, t.uriTemplate));
    return s.templateMatches.length;
  }

  /** Builds nodes up to `count` rows, appending to the ones built before. */
  private extend(s: ServerState, count: number): void {
    for (let row = s.nodes.length; row < count; row++) {
      const index = s.matches ? s.matches[row] : row;
      const item = s.snapshot[index];
      let dup = 0;
      if (s.uris.has(item.uri)) {
        s.dups ??= new Map();
        dup = (s.dups.get(item.uri) ?? 1) + 1;
        s.dups.set(item.uri, dup);
      } else s.uris.add(item.uri);
      s.nodes.push(new ResourceRow(s.node.server, item, dup));
    }
  }

  private templateNodes(s: ServerState): TemplateNode[] {
    this.sync(s);
    const ids = new Set<string>();
    this.templateMatchCount(s);
    const items = s.templateMatches ? s.templateMatches.map(i => s.templates[i]) : s.templates;
    return items.map(item => ({ kind: 'template', server: s.node.server, id: uniqueId(ids, `${s.node.server}\u0000t\u0000${item.uriTemplate}`), item }));
  }
}

function matches(filter: string, ...fields: (string | undefined)[]): boolean {
  return fields.some(f => f !== undefined && f.toLowerCase().includes(filter));
}

function indicesWhere<T>(list: readonly T[], pred: (t: T) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < list.length; i++) if (pred(list[i])) out.push(i);
  return out;
}

/** Tree ids must be unique; servers may list the same URI twice. */
function uniqueId(ids: Set<string>, base: string): string {
  let id = base;
  for (let n = 2; ids.has(id); n++) id = `${base}\u0000${n}`;
  ids.add(id);
  return id;
}

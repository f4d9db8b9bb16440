/**
 * Whether a tool call (or a resource read for a model) needs the user's confirmation.
 *
 * Approvals the user gives in a confirmation are stored as structured records, never as patterns:
 * a tool approval names the server, the tool's exact name, the declaration scope of the server and
 * a hash of the tool's definition, so
 *  - a tool named `*` approved "always" stays that one tool;
 *  - a `tools/list_changed` that changes the tool's description, schema, title or annotations
 *    makes the next call ask again;
 *  - a workspace-declared server that takes the name of a user server inherits nothing (user-scope
 *    approvals live in the user store, workspace-scope ones in the workspace's own store, and each
 *    record also names its scope).
 *
 * The `mcpHost.tools.autoApprove` setting (user-only) keeps working for user-declared servers:
 * `server/*` allows every tool of that server, `server/tool` that exact name, bound on first use to
 * the definition it had then. `trustedServers` lets `readOnlyHint` count, again for user servers only.
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';

export interface ApprovalSettings {
  readonly autoApprove: readonly string[];
  readonly trustedServers: readonly string[];
  /** Tools of a user-declared server running in the OS sandbox need no confirmation (off unless the user says so). */
  readonly autoApproveSandboxed?: boolean;
}

/** Where a server was declared (VS Code: user settings, the workspace, a folder of it). */
export type ServerScope = 'user' | 'workspace' | 'folder';

/** A server as approvals see it: its name and where it was declared (`undefined`: unknown, always asks). */
export interface ApprovalTarget {
  readonly server: string;
  readonly scope: ServerScope | undefined;
  /** The server runs in the OS sandbox right now (not merely declared so). */
  readonly sandboxed?: boolean;
}

/**
 * Persistent key/value storage (VS Code's `Memento`): `user` for user-declared servers
 * (globalState), `workspace` for servers the open workspace declared (workspaceState).
 */
export interface ApprovalStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export type ApprovalKind = 'tool' | 'server' | 'resources';

export interface StoredApproval {
  /** `tool`: one tool; `server`: every tool of the server; `resources`: models may read its resources. */
  readonly kind: ApprovalKind;
  readonly server: string;
  readonly scope: ServerScope;
  /** Exact tool name (kind `tool`). */
  readonly tool?: string;
  /** {@link toolDefinitionHash} of the tool when it was approved (kind `tool`). */
  readonly definition?: string;
  /** ISO time of the approval. */
  readonly granted: string;
}

export type ApprovalReason = 'tool' | 'server' | 'readOnly' | 'sandboxed';

export interface ApprovalCheck {
  /** Why no confirmation is needed; `undefined` = ask. */
  readonly approvedBy?: ApprovalReason;
  /** The tool was approved, but its definition changed since: say so when asking. */
  readonly changed?: boolean;
}

const APPROVALS_KEY = 'mcpHost.approvals';
const BINDINGS_KEY = 'mcpHost.approvals.settingBindings';

/** Whether `server/tool` is matched by one of `patterns` (a `*` tool part matches every tool). Used for `tools.disabled`. */
export function matchesToolPattern(patterns: readonly string[], server: string, tool: string): boolean {
  return patterns.some(p => p === `${server}/${tool}` || p === `${server}/*` || p === '*/*');
}

/**
 * A stable hash of what the user saw and approved: name, title, description, input schema and
 * annotations (key order does not matter).
 */
export function toolDefinitionHash(tool: Tool): string {
  const { name, title, description, inputSchema, annotations } = tool;
  return createHash('sha256').update(canonicalJson({ name, title, description, inputSchema, annotations })).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export class ToolApprovals {
  constructor(private readonly storage: { readonly user: ApprovalStorage; readonly workspace: ApprovalStorage }) {}

  private store(scope: ServerScope): ApprovalStorage { return scope === 'user' ? this.storage.user : this.storage.workspace; }
  private records(scope: ServerScope): StoredApproval[] { return valid(this.store(scope).get<unknown>(APPROVALS_KEY)); }
  private mine(target: ApprovalTarget): StoredApproval[] {
    const { server, scope } = target;
    return scope ? this.records(scope).filter(a => a.server === server && a.scope === scope) : [];
  }

  /** Whether calling `tool` of `target` needs a confirmation. */
  async checkTool(target: ApprovalTarget, tool: Tool, settings: ApprovalSettings): Promise<ApprovalCheck> {
    if (!target.scope) return {};
    const hash = toolDefinitionHash(tool);
    let changed = false;
    for (const a of this.mine(target)) {
      if (a.kind === 'server') return { approvedBy: 'server' };
      if (a.kind === 'tool' && a.tool === tool.name) {
        if (a.definition === hash) return { approvedBy: 'tool' };
        changed = true;
      }
    }
    // The settings are the user's own and name servers by name only: a workspace server that takes
    // a user server's name must not match them.
    if (target.scope === 'user') {
      const { server } = target;
      if (settings.autoApprove.includes(`${server}/*`) || settings.autoApprove.includes('*/*')) return { approvedBy: 'server' };
      if (settings.autoApprove.includes(`${server}/${tool.name}`)) {
        const bindings = { ...this.storage.user.get<Record<string, string>>(BINDINGS_KEY) };
        const key = `${server}/${tool.name}`;
        if (bindings[key] === undefined) {
          bindings[key] = hash;
          await this.storage.user.update(BINDINGS_KEY, bindings);
        }
        if (bindings[key] === hash) return { approvedBy: 'tool' };
        changed = true;
      }
      if (tool.annotations?.readOnlyHint === true && settings.trustedServers.includes(server)) return { approvedBy: 'readOnly' };
      // User servers only: a workspace declaration writes its own sandbox rules and could widen them at will.
      if (settings.autoApproveSandboxed === true && target.sandboxed === true) return { approvedBy: 'sandboxed' };
    }
    return changed ? { changed } : {};
  }

  /** Remembers "always allow this tool" (bound to its current definition) or "every tool of this server". */
  async grantTool(target: ApprovalTarget, tool: Tool, kind: 'tool' | 'server'): Promise<void> {
    if (kind === 'server') return this.add(target, { kind: 'server' });
    return this.add(target, { kind: 'tool', tool: tool.name, definition: toolDefinitionHash(tool) });
  }

  /** Whether models may read resources of `target` without asking. */
  resourcesApproved(target: ApprovalTarget): boolean {
    return this.mine(target).some(a => a.kind === 'resources');
  }

  grantResources(target: ApprovalTarget): Promise<void> { return this.add(target, { kind: 'resources' }); }

  /** Every stored approval, user store first. */
  all(): StoredApproval[] {
    const workspace = this.storage.workspace === this.storage.user ? [] : valid(this.storage.workspace.get<unknown>(APPROVALS_KEY));
    return [...this.records('user'), ...workspace];
  }

  async revoke(approval: StoredApproval): Promise<void> {
    const rest = this.records(approval.scope).filter(a => !same(a, approval));
    await this.store(approval.scope).update(APPROVALS_KEY, rest);
  }

  /** Forgets every approval of both stores, and the definitions `tools.autoApprove` entries were bound to. */
  async revokeAll(): Promise<void> {
    await this.storage.user.update(APPROVALS_KEY, undefined);
    await this.storage.user.update(BINDINGS_KEY, undefined);
    await this.storage.workspace.update(APPROVALS_KEY, undefined);
  }

  private async add(target: ApprovalTarget, what: Pick<StoredApproval, 'kind' | 'tool' | 'definition'>): Promise<void> {
    const scope = target.scope;
    if (!scope) return; // an undeclared server has nothing to bind an approval to
    const record: StoredApproval = { ...what, server: target.server, scope, granted: new Date().toISOString() };
    const rest = this.records(scope).filter(a => !same(a, record));
    await this.store(scope).update(APPROVALS_KEY, [...rest, record]);
  }
}

/** Same server, scope, kind and tool (the definition and time may differ: the newer record replaces the older). */
function same(a: StoredApproval, b: StoredApproval): boolean {
  return a.kind === b.kind && a.server === b.server && a.scope === b.scope && a.tool === b.tool;
}

/** Stored values are read back defensively: anything malformed is ignored, never widened. */
function valid(raw: unknown): StoredApproval[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((a): a is StoredApproval => !!a && typeof a === 'object'
    && ['tool', 'server', 'resources'].includes((a as StoredApproval).kind)
    && typeof (a as StoredApproval).server === 'string'
    && ['user', 'workspace', 'folder'].includes((a as StoredApproval).scope)
    && ((a as StoredApproval).kind !== 'tool' || (typeof (a as StoredApproval).tool === 'string' && typeof (a as StoredApproval).definition === 'string')));
}

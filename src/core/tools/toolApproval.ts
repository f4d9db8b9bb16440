/**
 * Whether a tool call (or a resource read for a model) needs the user's confirmation.
 *
 * Approvals the user gives in a confirmation are stored as structured records, never as patterns:
 * a tool approval names the server, the tool's exact name, the declaration scope, the identity of the
 * program the declaration runs (see programIdentity.ts), who called (a model, or the server's own MCP
 * App) and a hash of the tool's whole definition, so
 *  - a tool named `*` approved "always" stays that one tool;
 *  - a `tools/list_changed` that changes anything of the tool's definition (description, schemas,
 *    annotations, `_meta` such as `ui`, execution…) makes the next call ask again;
 *  - a different program under an approved name (an install link, a registry entry, a bundle, an
 *    import, a hand edit, a workspace server named like a user server) inherits nothing, and
 *    {@link ToolApprovals.prune} deletes the approvals of declarations that are gone or changed program;
 *  - an app's call is asked separately from a model's: "always allow" given to a model does not let
 *    the server's app run the tool unasked, nor the other way round (VS Code asks apps' calls apart too).
 *
 * The `mcpHost.tools.autoApprove` setting (user-only) keeps working for user-declared servers and both
 * callers: `server/*` allows every tool of that server, `server/tool` that exact name; each entry is
 * bound on first use to the program the name ran then (and `server/tool` to the tool's definition), so
 * a later program under the name asks. `trustedServers` lets `readOnlyHint` count, bound the same way.
 *
 * An approval lasts as long as the user chose: `always` (the declaration scope's store), `workspace`
 * (this workspace's state, and only while the window's workspace is the one it was given in) or
 * `session` (memory only: a reload, a new window asks again). Each is bound to the program and the
 * definition as above, and pruned with them.
 *
 * Sampling is consent of the same kind: "always allow this server to use a language model" is a record
 * of kind `sampling` bound to the program like the others, and the `mcpHost.sampling` policy "allow"
 * (the user's settings, by name) counts for user-declared servers only, bound to the program the name
 * ran when first used, in a binding of its own (an "always" given to tools does not move it).
 */
import { createHash } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson } from './canonicalJson';
import { memoryStorage, same, valid, type ApprovalLifetime, type ApprovalStorage, type ServerScope, type StoredApproval } from './approvalRecords';

export type { ApprovalKind, ApprovalLifetime, ApprovalStorage, ServerScope, StoredApproval } from './approvalRecords';

export interface ApprovalSettings {
  readonly autoApprove: readonly string[];
  readonly trustedServers: readonly string[];
  /** Tools of a user-declared server running in the OS sandbox need no confirmation (off unless the user says so). */
  readonly autoApproveSandboxed?: boolean;
  /** Server names whose own `mcpHost.sampling` entry has policy "allow" (bound to their program when the settings are read). */
  readonly samplingAllowed?: readonly string[];
}

/** Who asks to run a tool: a language model (chat, the language-model tools, the tool runner) or the server's MCP App. */
export type ToolCaller = 'model' | 'app';

/** A server as approvals see it (`scope` or `program` undefined: unknown, always asks). */
export interface ApprovalTarget {
  readonly server: string;
  readonly scope: ServerScope | undefined;
  /** {@link programIdentity} id of the declaration that is in effect for the name now. */
  readonly program?: string;
  /** The workspace that identity is bound to, if any (kept with the record so another window's prune leaves it). */
  readonly workspace?: string;
  /** The server runs in the OS sandbox right now (not merely declared so). */
  readonly sandboxed?: boolean;
  /** Default `model`. */
  readonly caller?: ToolCaller;
}

export type ApprovalReason = 'tool' | 'server' | 'readOnly' | 'sandboxed';

/** Why a sampling request needs no confirmation: the user's "always" for this program, or the settings' policy "allow" given to it. */
export type SamplingApproval = { readonly approvedBy?: 'granted' | 'settings'; readonly programChanged?: boolean };

export interface ApprovalCheck {
  /** Why no confirmation is needed; `undefined` = ask. */
  readonly approvedBy?: ApprovalReason;
  /** The tool was approved, but its definition changed since: say so when asking. */
  readonly changed?: boolean;
  /** The user's settings allowed this name, but for another program than the one declared now. */
  readonly programChanged?: boolean;
}

/** A declaration in effect now, as {@link ToolApprovals.prune} compares records with it. */
export interface DeclaredProgram {
  readonly scope: ServerScope;
  readonly program: string;
}

// Records of earlier versions (bound to a name only) are under other keys and never read: they ask again.
const APPROVALS_KEY = 'mcpHost.approvals.v2';
const LEGACY_KEYS = ['mcpHost.approvals', 'mcpHost.approvals.settingBindings'];
const BINDINGS_KEY = 'mcpHost.approvals.settingBindings.v2';
/** `workspace` approvals, of servers of every declaration scope, in the workspace store. */
const WORKSPACE_LIFETIME_KEY = 'mcpHost.approvals.thisWorkspace.v1';
/** The stores a prune goes through: each lifetime's, per declaration scope where it has one. */
const PRUNED_PLACES = [['always', 'user'], ['always', 'workspace'], ['session', 'user'], ['workspace', 'user']] as const;
/** Where `mcpHost.sampling` names with policy "allow" are bound to programs (`server` → program). */
const SAMPLING_BINDINGS_KEY = 'mcpHost.approvals.samplingBindings.v1';

/** What the settings entries were bound to on first use: `server` → program, `server/tool` → program and definition. */
type Bindings = Record<string, { readonly program: string; readonly definition?: string }>;

/** Whether `server/tool` is matched by one of `patterns` (a `*` tool part matches every tool). Used for `tools.disabled`. */
export function matchesToolPattern(patterns: readonly string[], server: string, tool: string): boolean {
  return patterns.some(p => p === `${server}/${tool}` || p === `${server}/*` || p === '*/*');
}

/**
 * A stable hash of the tool's whole definition as the server sent it (key order does not matter):
 * everything in it may change what the tool does or where its output goes (`outputSchema`,
 * `_meta.ui` making it app-only or giving it an app, `execution.taskSupport`, fields of later
 * protocol revisions). Only `icons` is left out: a picture changes neither.
 */
export function toolDefinitionHash(tool: Tool): string {
  const { icons: _icons, ...definition } = tool as Tool & { icons?: unknown };
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

/** The declaration in effect for a name per scope, as {@link ToolApprovals.prune} asks for it. */
export type DeclaredLookup = (server: string, scope: ServerScope) => DeclaredProgram | undefined | PromiseLike<DeclaredProgram | undefined>;

export class ToolApprovals {
  private pruning: Promise<void> = Promise.resolve();
  /** `session` approvals: memory only (by default a store of this object's), so they end with the window. */
  private readonly session: ApprovalStorage;

  constructor(
    private readonly storage: { readonly user: ApprovalStorage; readonly workspace: ApprovalStorage; readonly session?: ApprovalStorage },
    /** The identity of the window's workspace now (undefined: no workspace, so no `workspace` approval). */
    private readonly here: () => string | undefined = () => undefined,
  ) {
    this.session = storage.session ?? memoryStorage();
  }

  private store(scope: ServerScope): ApprovalStorage { return scope === 'user' ? this.storage.user : this.storage.workspace; }
  /** Where records of a lifetime live: `always` per declaration scope, the others in stores of their own. */
  private place(lifetime: ApprovalLifetime | undefined, scope: ServerScope): [ApprovalStorage, string] {
    if (lifetime === 'session') return [this.session, APPROVALS_KEY];
    if (lifetime === 'workspace') return [this.storage.workspace, WORKSPACE_LIFETIME_KEY];
    return [this.store(scope), APPROVALS_KEY];
  }
  private read(lifetime: ApprovalLifetime | undefined, scope: ServerScope): StoredApproval[] {
    const [store, key] = this.place(lifetime, scope);
    return valid(store.get<unknown>(key)).filter(a => (a.lifetime ?? 'always') === (lifetime ?? 'always'));
  }
  private records(scope: ServerScope): StoredApproval[] { return this.read('always', scope); }
  /** The session's and this workspace's records (a `workspace` one given in another workspace does not count). */
  private held(): StoredApproval[] {
    const here = this.here();
    return [...this.read('session', 'user'), ...this.read('workspace', 'user').filter(a => here !== undefined && a.heldIn === here)];
  }
  private mine(target: ApprovalTarget): StoredApproval[] {
    const { server, scope, program } = target;
    if (!scope || !program) return [];
    const caller = target.caller === 'app' ? 'app' : undefined;
    return [...this.records(scope), ...this.held()].filter(a => a.server === server && a.scope === scope && a.program === program && a.caller === caller);
  }

  /** Whether calling `tool` of `target` needs a confirmation. */
  async checkTool(target: ApprovalTarget, tool: Tool, settings: ApprovalSettings): Promise<ApprovalCheck> {
    if (!target.scope || !target.program) return {};
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
    // a user server's name must not match them, nor a program that came under the name later.
    if (target.scope === 'user') {
      const { server, program } = target;
      const bindings: Bindings = { ...readBindings(this.storage.user) };
      let dirty = false;
      // One program per name for all of the name's entries; each `server/tool` entry also keeps its definition.
      const bound = (key: string, definition?: string): 'yes' | 'program' | 'definition' => {
        for (const [k, d] of [[server, undefined], [key, definition]] as const) {
          if (bindings[k] === undefined) { bindings[k] = d === undefined ? { program } : { program, definition: d }; dirty = true; }
        }
        if (bindings[server].program !== program || bindings[key].program !== program) return 'program';
        return bindings[key].definition === definition ? 'yes' : 'definition';
      };
      let programChanged = false;
      const allows = (key: string, definition?: string): boolean => {
        const b = bound(key, definition);
        if (b === 'program') programChanged = true;
        if (b === 'definition') changed = true;
        return b === 'yes';
      };
      let approvedBy: ApprovalReason | undefined;
      if (settings.autoApprove.includes(`${server}/*`) || settings.autoApprove.includes('*/*')) approvedBy = allows(server) ? 'server' : undefined;
      if (!approvedBy && settings.autoApprove.includes(`${server}/${tool.name}`)) approvedBy = allows(`${server}/${tool.name}`, hash) ? 'tool' : undefined;
      if (!approvedBy && tool.annotations?.readOnlyHint === true && settings.trustedServers.includes(server)) approvedBy = allows(server) ? 'readOnly' : undefined;
      // User servers only: a workspace declaration writes its own sandbox rules and could widen them at will.
      if (!approvedBy && settings.autoApproveSandboxed === true && target.sandboxed === true) approvedBy = 'sandboxed';
      if (dirty) await this.storage.user.update(BINDINGS_KEY, bindings);
      if (approvedBy) return { approvedBy };
      if (programChanged) return changed ? { changed, programChanged } : { programChanged };
    }
    return changed ? { changed } : {};
  }

  /**
   * Remembers "always allow this tool" (bound to its current definition) or "every tool of this server".
   * For a user server, the user's explicit "always" in a prompt that showed this program also moves the
   * settings' binding of the name to it (else settings bound to an earlier program would never apply again).
   */
  async grantTool(target: ApprovalTarget, tool: Tool, kind: 'tool' | 'server', lifetime: ApprovalLifetime = 'always'): Promise<void> {
    if (lifetime !== 'always') {
      return this.add(target, kind === 'server' ? { kind } : { kind, tool: tool.name, definition: toolDefinitionHash(tool) }, lifetime);
    }
    if (target.scope === 'user' && target.program) {
      const bindings: Bindings = { ...readBindings(this.storage.user) };
      if (bindings[target.server] !== undefined && bindings[target.server].program !== target.program) {
        for (const [key, b] of Object.entries(bindings)) if (key === target.server || key.startsWith(`${target.server}/`)) bindings[key] = { ...b, program: target.program };
        await this.storage.user.update(BINDINGS_KEY, bindings);
      }
    }
    if (kind === 'server') return this.add(target, { kind: 'server' });
    return this.add(target, { kind: 'tool', tool: tool.name, definition: toolDefinitionHash(tool) });
  }

  /** Whether models may read resources of `target` without asking. */
  resourcesApproved(target: ApprovalTarget): boolean {
    return this.mine({ ...target, caller: 'model' }).some(a => a.kind === 'resources');
  }

  grantResources(target: ApprovalTarget): Promise<void> { return this.add({ ...target, caller: 'model' }, { kind: 'resources' }); }

  /**
   * Whether `target` may send sampling requests unasked. `settingsAllow`: the user's `mcpHost.sampling`
   * says "allow" for this name (or for every server); it counts for a user declaration only, and only
   * for the program the name was bound to when the settings were first read or used.
   */
  async checkSampling(target: ApprovalTarget, settingsAllow: boolean): Promise<SamplingApproval> {
    if (!target.scope || !target.program) return {};
    if (this.mine({ ...target, caller: 'model' }).some(a => a.kind === 'sampling')) return { approvedBy: 'granted' };
    if (!settingsAllow || target.scope !== 'user') return {};
    const bindings: Bindings = { ...readBindings(this.storage.user, SAMPLING_BINDINGS_KEY) };
    if (bindings[target.server] === undefined) {
      bindings[target.server] = { program: target.program };
      await this.storage.user.update(SAMPLING_BINDINGS_KEY, bindings);
    }
    return bindings[target.server].program === target.program ? { approvedBy: 'settings' } : { programChanged: true };
  }

  /** Remembers "always allow sampling" for the program `target` runs now. */
  grantSampling(target: ApprovalTarget): Promise<void> { return this.add({ ...target, caller: 'model' }, { kind: 'sampling' }); }

  /** Every stored approval: user store first, then the workspace's, this workspace's and the session's. */
  all(): StoredApproval[] {
    const workspace = this.storage.workspace === this.storage.user ? [] : this.records('workspace');
    return [...this.records('user'), ...workspace, ...this.held()];
  }

  async revoke(approval: StoredApproval): Promise<void> {
    const [store, key] = this.place(approval.lifetime, approval.scope);
    await store.update(key, valid(store.get<unknown>(key)).filter(a => !same(a, approval)));
  }

  /**
   * Deletes the approvals whose declaration is gone or now runs another program. `declared` maps each
   * name to its declaration per scope (a user server shadowed by a workspace one is still declared); it
   * may be async (an identity holds what the env file holds). A record bound to another workspace (a
   * user server whose program depends on the folder) is judged by the window of that workspace, unless
   * its name is no longer declared at all. Prunes run one at a time; every name is looked up before any
   * record is touched, and only the records that existed before the lookups are judged: an approval
   * granted meanwhile (maybe for a declaration the lookups did not see yet) waits for the next prune.
   */
  prune(declared: DeclaredLookup, workspace: string, settings?: ApprovalSettings): Promise<void> {
    const run = this.pruning.then(() => this.pruneNow(declared, workspace, settings));
    this.pruning = run.catch(() => undefined);
    return run;
  }

  private async pruneNow(declared: DeclaredLookup, workspace: string, settings?: ApprovalSettings): Promise<void> {
    // Every record of every lifetime, those held in other workspaces too: each is judged by its declaration.
    const stored = () => PRUNED_PLACES.map(([lifetime, scope]) => this.place(lifetime, scope)).flatMap(([store, key]) => valid(store.get<unknown>(key)));
    const seen = new Set(stored().map(signature));
    const names = settings ? settingNames(settings) : { approve: new Set<string>(), sampling: new Set<string>() };
    const wanted = new Map<string, [string, ServerScope]>();
    for (const a of stored()) wanted.set(JSON.stringify([a.server, a.scope]), [a.server, a.scope]);
    for (const name of [...names.approve, ...names.sampling]) if (name && name !== '*') wanted.set(JSON.stringify([name, 'user']), [name, 'user']);
    const found = new Map<string, DeclaredProgram | undefined>();
    await Promise.all([...wanted].map(async ([key, [server, scope]]) => { found.set(key, await declared(server, scope)); }));
    const now = (server: string, scope: ServerScope) => found.get(JSON.stringify([server, scope]));
    await this.bindNames(BINDINGS_KEY, names.approve, now);
    await this.bindNames(SAMPLING_BINDINGS_KEY, names.sampling, now);
    for (const [lifetime, scope] of PRUNED_PLACES) {
      const [store, key] = this.place(lifetime, scope);
      const records = valid(store.get<unknown>(key));
      const kept = records.filter(a => {
        if (!seen.has(signature(a))) return true;
        const current = now(a.server, a.scope);
        if (!current) return false;
        if (a.workspace !== undefined && a.workspace !== workspace) return true;
        return current.program === a.program;
      });
      if (kept.length !== records.length) await store.update(key, kept);
    }
    for (const key of LEGACY_KEYS) if (this.storage.user.get(key) !== undefined) await this.storage.user.update(key, undefined);
    if (this.storage.workspace.get(LEGACY_KEYS[0]) !== undefined) await this.storage.workspace.update(LEGACY_KEYS[0], undefined);
  }

  private async bindNames(key: string, names: ReadonlySet<string>, declared: (server: string, scope: ServerScope) => DeclaredProgram | undefined): Promise<void> {
    const bindings: Bindings = { ...readBindings(this.storage.user, key) };
    let dirty = false;
    for (const name of names) {
      const now = name && name !== '*' ? declared(name, 'user') : undefined;
      if (now && bindings[name] === undefined) { bindings[name] = { program: now.program }; dirty = true; }
    }
    if (dirty) await this.storage.user.update(key, bindings);
  }

  /** Forgets every approval of both stores, and the programs and definitions `tools.autoApprove` entries were bound to. */
  async revokeAll(): Promise<void> {
    await this.storage.user.update(APPROVALS_KEY, undefined);
    await this.storage.user.update(BINDINGS_KEY, undefined);
    await this.storage.user.update(SAMPLING_BINDINGS_KEY, undefined);
    await this.storage.workspace.update(APPROVALS_KEY, undefined);
    await this.storage.workspace.update(WORKSPACE_LIFETIME_KEY, undefined);
    await this.session.update(APPROVALS_KEY, undefined);
  }

  private async add(target: ApprovalTarget, what: Pick<StoredApproval, 'kind' | 'tool' | 'definition'>, lifetime: ApprovalLifetime = 'always'): Promise<void> {
    const { scope, program } = target;
    if (!scope || !program) return; // an undeclared server has nothing to bind an approval to
    // A window without a workspace has no workspace to hold the approval: it lasts the session.
    const heldIn = lifetime === 'workspace' ? this.here() : undefined;
    const life = lifetime === 'workspace' && heldIn === undefined ? 'session' : lifetime;
    const record: StoredApproval = {
      ...what, server: target.server, scope, program,
      ...(target.workspace !== undefined ? { workspace: target.workspace } : {}),
      ...(target.caller === 'app' ? { caller: 'app' as const } : {}),
      granted: new Date().toISOString(),
      ...(life !== 'always' ? { lifetime: life } : {}),
      ...(life === 'workspace' ? { heldIn } : {}),
    };
    const [store, key] = this.place(life, scope);
    const rest = valid(store.get<unknown>(key)).filter(a => !same(a, record));
    await store.update(key, [...rest, record]);
  }
}

function readBindings(storage: ApprovalStorage, key = BINDINGS_KEY): Bindings {
  const raw = storage.get<unknown>(key);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return Object.fromEntries(Object.entries(raw).filter(([, b]) => !!b && typeof b === 'object' && typeof (b as { program?: unknown }).program === 'string'
    && ['string', 'undefined'].includes(typeof (b as { definition?: unknown }).definition))) as Bindings;
}

/** The server names the settings allow by name (server and tool names may both hold a '/': every prefix before one is a candidate). */
function settingNames(settings: ApprovalSettings): { approve: Set<string>; sampling: Set<string> } {
  const prefixes = (p: string) => [...p.matchAll(/\//g)].map(m => p.slice(0, m.index));
  return { approve: new Set([...settings.autoApprove.flatMap(prefixes), ...settings.trustedServers]), sampling: new Set(settings.samplingAllowed ?? []) };
}

/** One record exactly (its time included), to tell the records a prune saw from those added while it looked names up. */
function signature(a: StoredApproval): string {
  return JSON.stringify([a.kind, a.server, a.scope, a.program, a.workspace, a.caller, a.tool, a.definition, a.granted, a.lifetime, a.heldIn]);
}

/**
 * The records tool approvals are kept as (see toolApproval.ts), and how they are read back: anything
 * malformed is ignored, never widened.
 */

/** Where a server was declared (VS Code: user settings, the workspace, a folder of it). */
export type ServerScope = 'user' | 'workspace' | 'folder';

/**
 * Persistent key/value storage (VS Code's `Memento`): `user` for user-declared servers
 * (globalState), `workspace` for servers the open workspace declared (workspaceState).
 */
export interface ApprovalStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export type ApprovalKind = 'tool' | 'server' | 'resources' | 'sampling';

/** How long a tool approval lasts: this window's life, this workspace, or always (`always` is absent in records). */
export type ApprovalLifetime = 'session' | 'workspace' | 'always';

export interface StoredApproval {
  /** `tool`: one tool; `server`: every tool of the server; `resources`: models may read its resources; `sampling`: it may use a language model unasked. */
  readonly kind: ApprovalKind;
  readonly server: string;
  readonly scope: ServerScope;
  /** The program identity the approval was given to. */
  readonly program: string;
  /** The workspace that identity was bound to (user servers whose program depends on the folder). */
  readonly workspace?: string;
  /** `app`: given to the server's app; absent: to models. */
  readonly caller?: 'app';
  /** Exact tool name (kind `tool`). */
  readonly tool?: string;
  /** {@link toolDefinitionHash} of the tool when it was approved (kind `tool`). */
  readonly definition?: string;
  /** ISO time of the approval. */
  readonly granted: string;
  /** `session`: kept in memory only; `workspace`: kept in this workspace's state; absent: always. */
  readonly lifetime?: 'session' | 'workspace';
  /** The workspace a `workspace` approval was given in: it counts in no other. */
  readonly heldIn?: string;
}

/** Same server, scope, program, caller, kind, tool, lifetime and workspace held in (the definition and time may differ: the newer record replaces the older). */
export function same(a: StoredApproval, b: StoredApproval): boolean {
  return a.kind === b.kind && a.server === b.server && a.scope === b.scope && a.program === b.program && a.workspace === b.workspace && a.caller === b.caller && a.tool === b.tool
    && a.lifetime === b.lifetime && a.heldIn === b.heldIn;
}

/** A store in memory: `session` approvals end with the object that holds it (the window). */
export function memoryStorage(): ApprovalStorage {
  const values = new Map<string, unknown>();
  return { get: <T>(key: string) => values.get(key) as T | undefined, update: async (key, value) => { if (value === undefined) values.delete(key); else values.set(key, value); } };
}

/** Stored values are read back defensively: anything malformed is ignored, never widened. */
export function valid(raw: unknown): StoredApproval[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter((a): a is StoredApproval => {
    if (!a || typeof a !== 'object') return false;
    const r = a as Record<string, unknown>;
    return ['tool', 'server', 'resources', 'sampling'].includes(r.kind as string)
      && typeof r.server === 'string'
      && ['user', 'workspace', 'folder'].includes(r.scope as string)
      && typeof r.program === 'string' && r.program !== ''
      && (r.workspace === undefined || typeof r.workspace === 'string')
      && (r.caller === undefined || r.caller === 'app')
      && (r.lifetime === undefined || (r.lifetime === 'session' && r.heldIn === undefined) || (r.lifetime === 'workspace' && typeof r.heldIn === 'string'))
      && (r.kind !== 'tool' || (typeof r.tool === 'string' && typeof r.definition === 'string'))
      && ((r.kind !== 'resources' && r.kind !== 'sampling') || r.caller === undefined);
  });
}

/** Server declarations in the shape of VS Code's `mcp.json`, plus our own `disabled` and `timeout`. */
import type { Autostart } from '../autostart/policy';
import type { AuthDeclaration } from './authTypes';

export type TransportType = 'stdio' | 'http' | 'sse';

interface DeclarationBase {
  /** Key of the server in `mcpHost.servers`; unique. */
  readonly name: string;
  readonly disabled: boolean;
  /** Per-request timeout in milliseconds (settings give seconds). */
  readonly timeoutMs?: number;
  /** Bound on starting the process (or connecting) and the `initialize` answer (ms); else `timeoutMs` bounds it. */
  readonly startTimeoutMs?: number;
  /** Extra roots for this server only (paths; variables allowed, `${input:…}` not); see `declaredRoots.ts`. */
  readonly roots?: readonly string[];
  /** Which protocol era to speak; absent means `auto`. */
  readonly protocol?: ProtocolChoice;
  /** When this server starts; absent: the embedder's setting (core/autostart). */
  readonly autostart?: Autostart;
}

/**
 * `auto`: ask the server (`server/discover`) and fall back to `initialize` for a 2025-era server;
 * a revision: speak exactly that one (`2025-11-25` skips the probe, `2026-07-28` fails loudly on a
 * server that does not offer it).
 */
export type ProtocolChoice = 'auto' | '2026-07-28' | '2025-11-25';
export const PROTOCOL_CHOICES: readonly ProtocolChoice[] = ['auto', '2026-07-28', '2025-11-25'];

export interface StdioDeclaration extends DeclarationBase {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** `null` removes an inherited variable. */
  readonly env: Readonly<Record<string, string | null>>;
  readonly envFile?: string;
  readonly cwd?: string;
  /** `"sandbox": true` or rules: the server runs under an OS sandbox (see `core/sandbox`). */
  readonly sandbox?: SandboxDeclaration;
  /** Server development: restart on file changes, start under the Node inspector (see `core/dev`). */
  readonly dev?: DevDeclaration;
}

export interface DevDeclaration {
  /** Changes to files matching this glob (relative to the first workspace folder, or absolute) restart the server. */
  readonly watch?: string;
  /** Start under a debugger on loopback so the embedder can attach: the Node.js inspector, or debugpy for Python. */
  readonly debug?: { readonly type: 'node' | 'python' };
}

/**
 * Sandbox rules a declaration adds to the defaults. Paths are absolute or start with `~/`.
 * `allowedDomains`, when given, replaces the default network allow list (`[]`: no network).
 */
export interface SandboxDeclaration {
  readonly filesystem: { readonly allowWrite: readonly string[]; readonly allowRead?: readonly string[]; readonly denyRead: readonly string[]; readonly denyWrite: readonly string[] };
  readonly network: { readonly allowedDomains?: readonly string[]; readonly deniedDomains: readonly string[] };
}

export interface HttpDeclaration extends DeclarationBase {
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** How tokens are obtained without a person, and DPoP (see `authDecl.ts`); absent: the usual sign-in. */
  readonly auth?: AuthDeclaration;
}

export type ServerDeclaration = StdioDeclaration | HttpDeclaration;

export type ProblemSeverity = 'error' | 'warning';

/** Something wrong with one server's declaration, in words a user can act on. */
export interface ConfigProblem {
  readonly server: string;
  /** The offending field (`command`, `args[1]`, `env.TOKEN` …); absent for the whole declaration. */
  readonly field?: string;
  readonly severity: ProblemSeverity;
  readonly message: string;
}

export interface ParseResult {
  /** Every declaration without errors (warnings allowed), in settings order. */
  readonly servers: readonly ServerDeclaration[];
  readonly problems: readonly ConfigProblem[];
}

/** What `${…}` variables resolve against; supplied by the embedder. */
export interface VariableContext {
  readonly workspaceFolders: readonly { readonly name: string; readonly path: string }[];
  /**
   * Whether the user trusts `workspaceFolders` (VS Code: Workspace Trust). While false, servers start
   * in `userHome` and declarations that depend on the folders wait (see `config/trust.ts`). An
   * embedder without a trust model says true only for folders the user chose to run servers in.
   */
  readonly trusted: boolean;
  readonly userHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * `${input:id}`: the core never prompts; the embedder asks or reads its secret store. The request
   * says who asks (server, field) and where the value goes, so a stored value is handed only to the
   * declaration and field it was given for (see `inputBindings.ts`).
   */
  resolveInput?(request: InputRequest): Promise<string | undefined>;
}

/** Where a resolved value is sent: an HTTP server's origin, or the command a stdio server runs. */
export interface InputTarget {
  readonly kind: 'origin' | 'command';
  readonly value: string;
  /**
   * A stdio server's declared working folder (as written, before resolution), when it declares one:
   * where its code lives for a bundle (one folder per install and content), so a value given to the
   * code of one folder is not handed to the code of another.
   */
  readonly folder?: string;
}

/** One `${input:id}` reference being resolved: who asks for the value and where it will go. */
export interface InputRequest {
  readonly id: string;
  readonly server: string;
  /** The declaration's field holding the reference: `env.GITHUB_TOKEN`, `headers.Authorization`, `args[2]`, `url` … */
  readonly field: string;
  /** Absent when the target itself is being built (the `url` or `command` field with variables in it). */
  readonly target?: InputTarget;
}

export type ResolvedLaunch =
  | { readonly type: 'stdio'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>>; readonly cwd: string | undefined }
  | { readonly type: 'http' | 'sse'; readonly url: URL; readonly headers: Readonly<Record<string, string>>; readonly auth?: AuthDeclaration };

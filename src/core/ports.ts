/**
 * What the core needs from its embedder (VS Code, a CLI, a test). Every port is optional; a
 * capability whose handler is absent is not declared to servers, and requests for it are refused.
 */
import type { CreateMessageRequest, CreateMessageResult, CreateMessageResultWithTools, ElicitRequest, ElicitResult, Implementation, Root } from '@modelcontextprotocol/client';
import type { Event } from './events';
import type { Logger } from './logger';
import type { VariableContext } from './config/types';
import type { AuthPort } from './auth/types';
import type { SandboxPort } from './sandbox/types';
import type { EarlyProcesses } from './connection/earlyProcesses';
import type { ServerRef } from './serverRef';
import type { ServerPolicy } from './policy/types';
import type { RegistryInstall } from './policy/registryInstalls';
import type { DeclarationPlace } from './tools/programIdentity';

export type { ServerRef } from './serverRef';

export interface RootsPort {
  /** Roots offered to `server` (workspace folders + user roots). */
  getRoots(server: ServerRef): readonly Root[] | Promise<readonly Root[]>;
  /** Fires when the roots may have changed; servers get `notifications/roots/list_changed`. */
  readonly onDidChangeRoots: Event<void>;
}

/**
 * Serves `sampling/createMessage`. Throw {@link UserRejectedError} when the user says no (→ error -1).
 * Requests with `tools` get the array-content result form (`CreateMessageResultWithTools`).
 */
export type SamplingHandler = (server: ServerRef, params: CreateMessageRequest['params'], signal: AbortSignal) => Promise<CreateMessageResult | CreateMessageResultWithTools>;

/** Serves `elicitation/create` (form and URL modes). Return `{ action: 'decline' | 'cancel' }` when refused. */
export type ElicitationHandler = (server: ServerRef, params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;

export interface HostPorts {
  readonly clientInfo?: Implementation;
  readonly roots?: RootsPort;
  readonly sampling?: SamplingHandler;
  readonly elicitation?: ElicitationHandler;
  /** Variable context, including `${input:id}` resolution (the embedder prompts/stores secrets). */
  readonly variables: VariableContext;
  /** The embedder renders MCP Apps (`io.modelcontextprotocol/ui`): the capability is declared to servers. */
  readonly apps?: boolean;
  /** OAuth for HTTP servers (storage, user agent, client settings); without it a 401 is a plain error. */
  readonly auth?: AuthPort;
  /** Runs local servers under an OS sandbox; without it a server that asks for one does not start. */
  readonly sandbox?: SandboxPort;
  /**
   * The client SDK refused a request of the server before our handlers saw it (e.g. an elicitation
   * schema with nested objects). Called once per server and method; the server's log has every one.
   */
  onRefusedRequest?(server: ServerRef, method: string, reason: string): void;
  /** One logger per server (VS Code: a LogOutputChannel). Called once per server name. */
  createLogger?(server: string): Logger;
  /** Where catalogues are cached per declaration (core/catalog/catalogCache.ts); without it nothing is cached. */
  readonly catalogCache?: CatalogCachePort;
  /**
   * Which servers may run (an administrator's or the user's policy, core/policy). Read at every
   * apply() and at every start; absent: no restriction.
   */
  readonly policy?: () => ServerPolicy;
  /**
   * The record the embedder made when it installed `server` from the MCP registry, for the place the
   * server is declared now (a workspace's or another program's copy of a user install has none). Only
   * a policy with access `registryOnly` asks; without this port such a policy admits no server.
   */
  readonly registryInstall?: (server: string) => RegistryInstall | undefined;
  /**
   * Whether the embedder attaches a debugger of this kind (`dev.debug`), or why not (shown in the server's
   * log). Without this port, or when it says no, `dev.debug` is ignored and the server runs without a
   * debug port: a port no debugger attaches to is open to every local process (debugpy runs any code a
   * client asks it to evaluate), and the CLI attaches none.
   */
  readonly debuggers?: (type: 'node' | 'python') => true | string;
  /** Processes the embedder started before the host existed (connection/earlyProcesses.ts); a start takes the one for its launch. */
  readonly earlyProcesses?: Pick<EarlyProcesses, 'take'>;
}

export interface CatalogCachePort {
  /** A folder of the embedder's own storage (never one a workspace controls). */
  readonly dir: string;
  /** Where `server` is declared: a workspace's declaration never shares a user declaration's cache. */
  place(server: string): DeclarationPlace;
}

/** Thrown by a sampling handler when the user rejects; mapped to JSON-RPC error -1 as the spec says. */
export class UserRejectedError extends Error {
  constructor(message = 'The user rejected the request') { super(message); }
}

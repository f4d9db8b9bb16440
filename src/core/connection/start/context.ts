/** What the start steps need from the connection they start, and what an attempt ends in. */
import type { Client } from '@modelcontextprotocol/client';
import type { ResolvedLaunch, ServerDeclaration, TransportType } from '../../config/types';
import type { AuthDeclaration } from '../../config/authDecl';
import type { WorkspaceTrustRequiredError } from '../../config/trust';
import type { Logger } from '../../logger';
import type { HostPorts } from '../../ports';
import type { ServerBudget } from '../../budgets';
import type { AuthorizationError, InsufficientScopeError, OAuthSession, SignInRequiredError } from '../../auth';
import type { InspectorPick } from '../../dev/inspector';
import type { Plant } from '../../sandbox/plantGuard';
import type { SandboxRun } from '../../sandbox/run';
import type { ProbeVerdict } from '../era';
import type { ResponseCache } from '../responseCache';
import type { StartedProcess } from '../earlyProcesses';
import type { StdioLaunch } from '../stdioTransport';
import type { TracingTransport } from '../tracingTransport';
import type { StderrTail } from '../stderrTail';

export interface StartContext {
  readonly name: string;
  readonly declaration: ServerDeclaration;
  readonly ports: HostPorts;
  readonly logger: Logger;
  readonly budget: ServerBudget;
  readonly cache: ResponseCache;
  /** Where a local server's stderr lines are kept for the reason of a failure. */
  readonly stderr: StderrTail;
  /** Between a crash and the end of the automatic restart that follows it. */
  readonly restarting: boolean;
  /** A sign-in the user asked for: the OAuth flow may open the authorization page. */
  readonly signInPending: boolean;
  /** What the 2026 `server/discover` probe told of this stdio server, kept across its starts (era.ts). */
  probeVerdict: ProbeVerdict;
  secrets(): readonly string[];
  /** The roots offered to this server (a sandbox's writable folders are derived from them). */
  rootUris(): Promise<string[]>;
  startTimeoutMs(): number;
  createClient(transport: TracingTransport, kind: TransportType): Client;
  oauthSessionFor(url: URL, headers: Readonly<Record<string, string>>, auth?: AuthDeclaration): OAuthSession | undefined;
  takeEarlyProcess(launch: StdioLaunch): StartedProcess | undefined;
  onRefusedRequest(method: string, reason: string): void;
  /** The sandbox's plant guard found (and moved) a file that would run code outside it: stop for good. */
  onPlant(plant: Plant): void;
}

/** The launch after resolving variables and wrapping it for the sandbox and the inspector. */
export interface PreparedLaunch {
  readonly launch: ResolvedLaunch;
  readonly secrets: readonly string[];
  readonly inspectorPick?: InspectorPick;
  /** debugpy's loopback port (dev.debug "python"), chosen by the host before the start. */
  readonly debugpyPort?: number;
  /** The roots the sandbox's rules were written for; undefined unsandboxed. */
  readonly sandboxRoots?: readonly string[];
  readonly sandboxRun?: () => SandboxRun;
}

export type AuthFailure = SignInRequiredError | AuthorizationError | InsufficientScopeError;

/** How a start ended, for the connection to turn into its state. */
export type StartOutcome =
  | { readonly kind: 'failed'; readonly message: string }
  | { readonly kind: 'needsSignIn'; readonly error: AuthFailure }
  | { readonly kind: 'needsTrust'; readonly error: WorkspaceTrustRequiredError }
  /** Exited during initialization, or still unreachable while reconnecting: the restart policy decides. */
  | { readonly kind: 'crashed'; readonly reason: string }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'running' };

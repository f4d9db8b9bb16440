/**
 * What a connection lends each of its starts (start/context.ts): its parts, the SDK client a start
 * makes from them, and where a start's findings go back (the era probe's verdict, a refused request,
 * a plant). Built anew for every start, so a start sees the declaration it began with.
 */
import type { ServerDeclaration } from '../config/types';
import type { OAuthSession } from '../auth';
import type { AuthDeclaration } from '../config/authDecl';
import type { ServerBudget } from '../budgets';
import { createHostClient, type ClientHooks } from './clientSetup';
import { reportRefusal } from './closeRunning';
import { versionNegotiation, type ProbeVerdict } from './era';
import type { StartContext } from './start/context';
import type { StderrTail } from './stderrTail';

/** What the 2026 `server/discover` probe told of a stdio server, kept across its starts; a new declaration probes again. */
export interface ProbeMemory { verdict: ProbeVerdict }

export interface ConnectionParts extends Omit<ClientHooks, 'reached' | 'versionNegotiation' | 'serverLog'> {
  readonly name: string;
  /** The declaration now (it may change between starts). */
  declaration(): ServerDeclaration;
  readonly budget: ServerBudget;
  readonly probe: ProbeMemory;
  readonly stderr: StderrTail;
  /** Methods whose refusal the embedder was told about (once per method). */
  readonly refusalsReported: Set<string>;
  /** The embedder's start timeout (ms) for a declaration that sets none. */
  readonly defaultStartTimeoutMs?: number;
  rootUris(): Promise<string[]>;
  oauthSessionFor(url: URL, headers: Readonly<Record<string, string>>, auth?: AuthDeclaration): OAuthSession | undefined;
  onPlant: StartContext['onPlant'];
}

/** The context of one start; `now`: the connection's flags as this start begins. */
export function startContext(parts: ConnectionParts, now: { readonly restarting: boolean; readonly signInPending: boolean }): StartContext {
  const { name, ports, logger, budget, cache, probe } = parts;
  const startTimeoutMs = () => {
    const d = parts.declaration();
    return d.startTimeoutMs ?? d.timeoutMs ?? parts.defaultStartTimeoutMs ?? 60_000;
  };
  return {
    name, declaration: parts.declaration(), ports, logger, budget, cache, stderr: parts.stderr,
    restarting: now.restarting, signInPending: now.signInPending,
    get probeVerdict() { return probe.verdict; },
    set probeVerdict(v: ProbeVerdict) { probe.verdict = v; },
    secrets: () => parts.secrets(),
    rootUris: () => parts.rootUris(),
    startTimeoutMs,
    createClient: (transport, kind) => createHostClient({
      versionNegotiation: versionNegotiation(probe.verdict === 'probe' ? parts.declaration().protocol : '2025-11-25', kind, startTimeoutMs()),
      reached: id => transport.reached(id),
      roots: parts.roots,
      ports, logger, serverLog: budget.serverLog, catalog: parts.catalog, cache,
      ref: () => parts.ref(), secrets: () => parts.secrets(),
      onResourceUpdated: uri => parts.onResourceUpdated(uri),
      onElicitationComplete: id => parts.onElicitationComplete(id),
    }),
    oauthSessionFor: (url, headers, auth) => parts.oauthSessionFor(url, headers, auth),
    takeEarlyProcess: launch => {
      // The process the embedder started for this very launch before the host loaded, if any (once per server).
      const started = ports.earlyProcesses?.take(name, launch);
      if (started) logger.info(`Took over the process started while MCP Host was loading (pid ${started.child.pid})`);
      return started;
    },
    onPlant: p => parts.onPlant(p),
    onRefusedRequest: (method, reason) => reportRefusal({ logger, reported: parts.refusalsReported, ports, ref: parts.ref(), secrets: parts.secrets() }, method, reason),
  };
}

/**
 * Which protocol era a connection speaks (2025-11-25 with `initialize`, or 2026-07-28 with
 * `server/discover` and per-request `_meta`), from the declaration's `protocol` choice.
 */
import type { Transport, VersionNegotiationOptions } from '@modelcontextprotocol/client';
import type { ProtocolChoice, TransportType } from '../config/types';

/** The newest revision the host speaks. */
export const MODERN_REVISION = '2026-07-28';

/**
 * A stdio server that ignores the `server/discover` probe is a 2025-era server; how long to wait for
 * it before falling back to `initialize` (ms). Such a server pays it on its first start only (the
 * connection then remembers the verdict); a sandboxed start alone can take seconds.
 */
const STDIO_PROBE_MS = 10_000;

/**
 * What a stdio server's starts taught about the probe: nothing yet (probe); it answered the probe
 * like a 2025-era server, or answered `initialize` after dying on the probe (legacy: `initialize`
 * from now on); or its last start died on the probe (diedOnProbe: the next start tries `initialize`,
 * and decides — it answers, and is a 2025-era server, or dies again, and the death was its own).
 */
export type ProbeVerdict = 'probe' | 'legacy' | 'diedOnProbe';

export function versionNegotiation(choice: ProtocolChoice | undefined, transport: TransportType, startTimeoutMs: number): VersionNegotiationOptions {
  if (choice === '2025-11-25') return { mode: 'legacy' };
  if (choice === MODERN_REVISION) return { mode: { pin: MODERN_REVISION } };
  // The HTTP+SSE transport predates both eras' negotiation: its servers only know `initialize`.
  if (transport === 'sse') return { mode: 'legacy' };
  // Over HTTP silence is an outage, not a 2025-era answer: the probe may take the whole start time.
  return { mode: 'auto', probe: { timeoutMs: transport === 'stdio' ? Math.min(STDIO_PROBE_MS, startTimeoutMs / 2) : startTimeoutMs } };
}

/**
 * The SDK decides how to read a silent or closed probe by the transport's shape: only one with
 * `pid` and `stderr` is stdio, where silence means a 2025-era server (over HTTP it means an outage).
 * Our stdio transport reaches the SDK wrapped (tracing, budgets), so the wrapper gets that shape.
 */
export function asStdioTransport<T extends Transport>(transport: T, pid: () => number | undefined): T {
  return Object.defineProperties(transport, {
    pid: { get: pid, configurable: true },
    stderr: { get: () => null, configurable: true },
  });
}

/**
 * Step 3 of a start: `initialize` (or the 2026 `server/discover` probe first), timed by us. The
 * client is owned by the attempt meanwhile: a cancel closes it at once, which ends the process of a
 * stdio server that is still booting or never answers.
 */
import type { Client, Transport } from '@modelcontextprotocol/client';
import type { StartAttempt } from './attempt';
import { StartCancelled } from './attempt';

/** Largest delay `setTimeout` takes (a larger one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class StartTimedOut extends Error {
  constructor(readonly ms: number) { super(`no answer to initialize within ${ms} ms`); this.name = 'StartTimedOut'; }
}

/**
 * Connects `client` over `wire`. Rejects with {@link StartTimedOut} after `timeoutMs`, with
 * {@link StartCancelled} when the attempt is cancelled, else with the SDK's error. The client stays
 * owned by the attempt: the caller releases it once the connection has taken it over, or closes it.
 * `close` ends the client and its transport: what the timeout calls.
 */
export async function handshake(attempt: StartAttempt, client: Client, wire: Transport, timeoutMs: number, close: () => Promise<void>): Promise<void> {
  // We time the start ourselves and close on expiry: the SDK's timeout would send
  // notifications/cancelled for initialize, which the spec forbids. The transport is closed too:
  // during the `server/discover` probe the client does not hold it yet, so its close alone reaches
  // nothing (a pinned 2026 start then waited forever, with its process running).
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; close().catch(() => {}); }, Math.min(timeoutMs, MAX_TIMER_MS));
  try {
    await client.connect(wire, { timeout: MAX_TIMER_MS });
  } catch (err) {
    if (attempt.cancelled) throw new StartCancelled();
    if (timedOut) throw new StartTimedOut(timeoutMs);
    throw err;
  } finally { clearTimeout(timer); }
  if (attempt.cancelled) throw new StartCancelled();
  if (timedOut) throw new StartTimedOut(timeoutMs);
}

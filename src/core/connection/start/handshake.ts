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
  // nothing (a pinned 2026 start then waited forever, with its process running). And the step ends on
  // the timer or the cancel even when the SDK's connect never settles: closing the legacy SSE
  // transport while it waits for its `endpoint` event leaves that promise pending for good.
  let timedOut = false;
  let onAbort: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = new Promise<never>((_, reject) => {
    timer = setTimeout(() => { timedOut = true; close().catch(() => {}); reject(new StartTimedOut(timeoutMs)); }, Math.min(timeoutMs, MAX_TIMER_MS));
    onAbort = () => reject(new StartCancelled());
    attempt.signal.addEventListener('abort', onAbort, { once: true });
  });
  const connecting = client.connect(wire, { timeout: MAX_TIMER_MS });
  connecting.catch(() => {});
  try {
    await Promise.race([connecting, ended]);
  } catch (err) {
    if (attempt.cancelled) throw new StartCancelled();
    if (timedOut) throw new StartTimedOut(timeoutMs);
    throw err;
  } finally {
    clearTimeout(timer);
    if (onAbort) attempt.signal.removeEventListener('abort', onAbort);
  }
  if (attempt.cancelled) throw new StartCancelled();
  if (timedOut) throw new StartTimedOut(timeoutMs);
}

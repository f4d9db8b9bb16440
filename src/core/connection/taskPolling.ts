/**
 * What both task flavours share (2025-11-25 experimental tasks and the 2026-07-28 tasks extension):
 * the bounds on a server's poll interval, the total time a task may take, and the abortable wait.
 */
import { REQUEST_TIMEOUT, formatDuration, ServerError } from './errors';

/** Task states after which a task changes no more. */
export const TERMINAL_TASK_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);
export const TASK_STATES: ReadonlySet<string> = new Set(['working', 'input_required', ...TERMINAL_TASK_STATES]);

/** Bounds on the server's poll interval (ms): a server can neither make us spin nor stall forever. */
export const MIN_POLL_MS = 100, MAX_POLL_MS = 5_000;

/** The wait before the next poll: the server's hint, kept within the bounds (a missing or bogus hint polls at the fastest we allow). */
export function pollDelay(hint: unknown): number {
  return typeof hint === 'number' && Number.isFinite(hint) ? Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, hint)) : MIN_POLL_MS;
}

/**
 * The time budget of one task: the host's total-time bound for a request (`maxTotalTimeoutMs`, the
 * same bound a request that keeps reporting progress has). A task that is still running when the
 * next poll would pass it is cancelled and the call fails with a timeout.
 */
export class TaskDeadline {
  private readonly end: number;
  constructor(private readonly server: string, private readonly totalMs: number) { this.end = Date.now() + totalMs; }

  /** Throws when waiting `ms` more would pass the budget. */
  check(taskId: string, ms: number): void {
    if (Date.now() + ms <= this.end) return;
    throw new ServerError(this.server, `the task ${JSON.stringify(taskId)} did not finish within ${formatDuration(this.totalMs)}, the longest a request may take; it was cancelled.`, REQUEST_TIMEOUT);
  }
}

export function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) { reject(abortError()); return; }
    const done = () => { clearTimeout(timer); signal?.removeEventListener('abort', onAbort); };
    const onAbort = () => { done(); reject(abortError()); };
    const timer = setTimeout(() => { done(); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error of a wait or call the caller aborted (named as the DOM's, which the SDK and fetch use too). */
export function abortError(): Error { return Object.assign(new Error('aborted'), { name: 'AbortError' }); }

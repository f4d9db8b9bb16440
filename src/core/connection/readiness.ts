/** Waiting for a server that is starting (or restarting after a crash) before a request is sent. */
import type { Event } from '../events';
import { formatDuration, REQUEST_TIMEOUT, ServerError, toServerError } from './errors';
import { abortError } from './taskPolling';

export interface ReadinessTarget {
  readonly name: string;
  state(): 'stopped' | 'starting' | 'running' | 'error';
  message(): string | undefined;
  restarting(): boolean;
  readonly onDidChangeState: Event<{ readonly state: string }>;
  notRunning(method: string): ServerError;
}

/** Resolves when the server runs; rejects after `ms`, on `signal`, or when it ends anywhere but `running`. */
export async function readyOrWait(t: ReadinessTarget, ms: number, signal: AbortSignal | undefined, method: string): Promise<void> {
  if (t.state() === 'running') return;
  if (t.state() !== 'starting') throw t.notRunning(method);
  if (signal?.aborted) throw toServerError(t.name, method, abortError());
  await new Promise<void>((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      d.dispose();
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err); else resolve();
    };
    const d = t.onDidChangeState(e => { if (e.state !== 'starting') done(e.state === 'running' ? undefined : t.notRunning(method)); });
    const timer = setTimeout(() => {
      const message = t.message();
      done(new ServerError(t.name, `cannot send ${method}: the server is still ${t.restarting() ? 'restarting' : 'starting'} after ${formatDuration(ms)}${message ? ` (${message})` : ''}.`, REQUEST_TIMEOUT));
    }, ms);
    const onAbort = () => done(toServerError(t.name, method, abortError()));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * What happens after a server went away by itself: restart a process (or reconnect to an HTTP
 * server) with the crash backoff until the budget is spent, then stay in `error`; and, for HTTP, tell
 * a broken stream from a server that is gone (one ping at a time).
 */
import type { Client } from '@modelcontextprotocol/client';
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Logger } from '../logger';
import { describeNetworkError, errorText } from './errors';
import type { RestartPolicy } from './restartPolicy';

const PROBE_TIMEOUT_MS = 5000;
/** What the Streamable HTTP transport reports when a response or listening stream breaks. */
const STREAM_BROKE = /^(SSE stream disconnected|Failed to reconnect|Maximum reconnection attempts)/;

export interface RecoveryTarget {
  readonly logger: Logger;
  readonly restartPolicy: RestartPolicy;
  url(): string | undefined;
  /** `client` is the running client of an HTTP connection (a stdio server's exit says it all). */
  isCurrentRemote(client: Client): boolean;
  isExpiredSession(err: unknown): boolean;
  /** Forgets the running client (the reason is kept for the errors of requests it cut short). */
  dropRunning(reason: string): void;
  fail(message: string): void;
  /** In `starting` with this countdown. */
  announce(message: string, verb: 'restarting' | 'reconnecting'): void;
  /** A new, automatic start. */
  startAgain(): void;
  /** `restarting` for a process, `reconnecting` for an HTTP server. */
  verb(): 'restarting' | 'reconnecting';
}

export class Recovery {
  private timer?: NodeJS.Timeout;
  private probing = false;
  /** Between a crash and the end of the automatic restart that follows it. */
  restarting = false;

  constructor(private readonly target: RecoveryTarget) {}

  /** Between a crash and the end of the automatic restart that follows it: which of the two. */
  get phase(): 'restarting' | 'reconnecting' | undefined { return this.restarting ? this.target.verb() : undefined; }

  /** Unexpected exit: restart with backoff until the budget is spent, then stay in `error`. */
  crashed(reason: string): void {
    const t = this.target;
    t.dropRunning(reason);
    const delay = t.restartPolicy.next();
    if (delay === undefined) {
      const opts = t.restartPolicy.options;
      t.fail(opts.maxRestarts > 0
        ? `Stopped after ${opts.maxRestarts} automatic ${opts.maxRestarts === 1 ? 'restart' : 'restarts'} within ${Math.round(opts.windowMs / 1000)} s (last: ${reason}). Check the log, fix the problem, then start it again.`
        : `The server stopped: ${reason}. Automatic restart is off; check the log and start it again.`);
      return;
    }
    this.restarting = true;
    const verb = t.verb();
    const msg = `${reason}; ${verb} in ${delay < 1000 ? `${delay} ms` : `${Math.round(delay / 1000)} s`} (attempt ${t.restartPolicy.recentRestarts} of ${t.restartPolicy.options.maxRestarts})`;
    t.logger.warn(msg.charAt(0).toUpperCase() + msg.slice(1)); // a sentence: "The process exited with code 3; restarting in 1 s …"
    t.announce(msg, verb);
    this.timer = setTimeout(() => { this.timer = undefined; t.startAgain(); }, delay);
  }

  /**
   * An HTTP server went away (refused, dropped, unreachable): what is in flight fails with the
   * reason, and we reconnect with the crash backoff, without the user.
   */
  connectionLost(client: Client, err: unknown): void {
    if (!this.target.isCurrentRemote(client)) return;
    this.crashed(`the connection to the server was lost (${describeNetworkError(err, this.target.url()) ?? errorText(err)})`);
    client.onclose = undefined;
    void client.close().catch(() => {});
  }

  /** The transport of `client` reported `err`: on HTTP, a network error or a broken stream is worth a probe. */
  transportError(client: Client, err: Error): void {
    if (describeNetworkError(err) || STREAM_BROKE.test(errorText(err))) this.probe(client, err);
  }

  /** A stream broke: a server that no longer answers a ping is gone. One probe at a time. */
  probe(client: Client, trigger: Error): void {
    if (this.probing || !this.target.isCurrentRemote(client)) return;
    this.probing = true;
    client.ping({ timeout: PROBE_TIMEOUT_MS })
      .catch(err => {
        if (describeNetworkError(err) || (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) || this.target.isExpiredSession(err)) this.connectionLost(client, describeNetworkError(err) ? err : trigger);
      })
      .finally(() => { this.probing = false; });
  }

  /** A start or stop of the user's: no automatic restart is pending any more. */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * What a user sees of a connection's state: `stopped | starting | running | error`, why, and the
 * change events; the transitions are {@link ServerConnection}'s. Also the error a request gets when
 * the server is not running (it names the state and the reason).
 */
import type { TrustRequirement } from '../config/trust';
import { Disposable, Emitter, type Event } from '../events';
import { redact, type Logger } from '../logger';
import { CONNECTION_CLOSED, ServerError } from './errors';
import type { CallOptions } from './requestPath';
import { readyOrWait } from './readiness';

export type ServerState = 'stopped' | 'starting' | 'running' | 'error';

export interface StateChange {
  readonly server: string;
  readonly state: ServerState;
  readonly previous: ServerState;
  /** Why the state changed (an error, a crash, a restart countdown); user-facing. */
  readonly message?: string;
  /** In `error`: the server needs an OAuth sign-in ({@link ServerConnection.signIn}). */
  readonly needsSignIn?: boolean;
}

export abstract class ConnectionState extends Disposable {
  abstract readonly name: string;
  protected _state: ServerState = 'stopped';
  protected _message?: string;
  protected _needsSignIn = false;
  protected _trustRequirements: readonly TrustRequirement[] = [];
  /** Set while the server waits for its first use (`mcpHost.autostart: onDemand`, core/autostart): starts it. */
  private wakeUp?: () => void;
  /** Between a crash and the end of the automatic restart that follows it. */
  protected abstract get restarting(): boolean;
  protected abstract restartEnded(): void;
  protected abstract readonly logger: Logger;
  /** Values logs and user-facing messages redact. */
  protected abstract get secrets(): readonly string[];
  /** Per-request timeout when the call sets none (ms). */
  protected abstract requestTimeoutMs(): number;

  private readonly _onDidChangeState = this._register(new Emitter<StateChange>());
  readonly onDidChangeState: Event<StateChange> = this._onDidChangeState.event;

  get state(): ServerState { return this._state; }
  /** The reason for the current state (error text, restart countdown), if any. */
  get message(): string | undefined { return this._message; }
  /** In `error` because the server needs an OAuth sign-in. */
  get needsSignIn(): boolean { return this._needsSignIn && this._state === 'error'; }
  /**
   * In `stopped` because the declaration depends on the workspace folders, which are not trusted
   * (`message` says which fields); the host's next `apply()` tries again.
   */
  get needsTrust(): boolean { return this._trustRequirements.length > 0 && this._state === 'stopped'; }
  /** While {@link needsTrust}: the fields that depend on the workspace folders. */
  get trustRequirements(): readonly TrustRequirement[] { return this.needsTrust ? this._trustRequirements : []; }

  /**
   * Stopped, and started by the next request (any of them: a tool call, a prompt, a resource read,
   * an app's request) or {@link ready}. Not after the user's own Stop.
   */
  get dormant(): boolean { return this.wakeUp !== undefined && this._state === 'stopped'; }

  /** The host lets the next use start this stopped server with `wake` (which must set `starting` at once); undefined: it no longer does. */
  sleepUntilUsed(wake: (() => void) | undefined): void { this.wakeUp = wake; }

  /** A start or stop of the user's (or the host's): the server no longer waits for a use. */
  protected awake(): void { this.wakeUp = undefined; }

  /** Resolves once the server is running; rejects if it ends in `error`/`stopped` instead. */
  whenRunning(): Promise<void> {
    if (this._state === 'running') return Promise.resolve();
    if (this._state !== 'starting') return Promise.reject(this.notRunning('request'));
    return new Promise((resolve, reject) => {
      const d = this.onDidChangeState(e => {
        if (e.state === 'starting') return;
        d.dispose();
        if (e.state === 'running') resolve(); else reject(this.notRunning('request'));
      });
    });
  }

  protected notRunning(method: string): ServerError {
    const why = this._message ? `: ${this._message.replace(/\.$/, '')}` : '';
    const state = this._state === 'error' ? `the server failed${why}`
      : this._state === 'starting' ? (this.restarting ? `the server is restarting${why}` : 'the server is still starting')
        : this._state === 'running' ? 'the connection closed' : `the server is stopped${why}`;
    return new ServerError(this.name, `cannot send ${method}: ${state}.`, CONNECTION_CLOSED);
  }

  protected setState(state: ServerState, message?: string): void {
    const previous = this._state;
    if (state !== 'starting') this.restartEnded();
    if (previous === state && this._message === message) return;
    this._state = state;
    this._message = message;
    this._onDidChangeState.fire({ server: this.name, state, previous, message, ...(this.needsSignIn ? { needsSignIn: true } : {}) });
  }

  /**
   * Resolves once the server runs; a {@link dormant} server starts now. While it starts, or restarts after a crash, waits at most
   * `timeoutMs` (default: its request timeout) and until `signal` aborts; otherwise rejects with an
   * error that says why `method` cannot be sent (restarting, stopped, failed, cancelled).
   */
  ready(opts: CallOptions = {}, method = 'the request'): Promise<void> {
    if (this._state === 'running') return Promise.resolve();
    if (this.dormant) {
      const wake = this.wakeUp!;
      this.wakeUp = undefined;
      this.logger.info(`Starting: first use (${method})`);
      wake();
    }
    return readyOrWait({
      name: this.name, state: () => this._state, message: () => this._message, restarting: () => this.restarting,
      onDidChangeState: this.onDidChangeState, notRunning: m => this.notRunning(m),
    }, opts.timeoutMs ?? this.requestTimeoutMs(), opts.signal, method);
  }

  protected fail(message: string): void {
    this.logger.error(redact(message, this.secrets));
    this.setState('error', redact(message, this.secrets));
  }
}

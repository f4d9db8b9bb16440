/**
 * Waits for `notifications/elicitation/complete`. A URL elicitation is tracked from the moment the
 * user opens its link; the server's notification for that (server, elicitationId) finishes it.
 * Notifications for ids that are not tracked (unknown or already finished) are ignored, as the spec
 * requires.
 */
import { Disposable, type Event, type IDisposable } from '../events';

export interface ElicitationCompletion {
  readonly server: string;
  readonly elicitationId: string;
}

/** A tracked elicitation: `done` resolves when the server reports completion; dispose to stop waiting. */
export interface TrackedElicitation extends IDisposable {
  readonly done: Promise<void>;
  readonly isDone: boolean;
}

export class ElicitationTracker extends Disposable {
  private readonly pending = new Map<string, Set<() => void>>();

  /** `onIgnored` hears about notifications nobody waits for (for the server's log). */
  constructor(onDidComplete: Event<ElicitationCompletion>, private readonly onIgnored: (c: ElicitationCompletion) => void = () => {}) {
    super();
    this._register(onDidComplete(c => this.complete(c)));
  }

  /** Starts waiting for `elicitationId` of `server`. Several waiters for the same id all finish together. */
  track(server: string, elicitationId: string): TrackedElicitation {
    const key = keyOf(server, elicitationId);
    let finish!: () => void;
    let isDone = false;
    const done = new Promise<void>(resolve => { finish = () => { isDone = true; resolve(); }; });
    let waiters = this.pending.get(key);
    if (!waiters) this.pending.set(key, waiters = new Set());
    waiters.add(finish);
    return {
      done,
      get isDone() { return isDone; },
      dispose: () => {
        const set = this.pending.get(key);
        set?.delete(finish);
        if (set && !set.size) this.pending.delete(key);
      },
    };
  }

  /** Whether anyone still waits for this elicitation. */
  isTracked(server: string, elicitationId: string): boolean { return this.pending.has(keyOf(server, elicitationId)); }

  private complete(c: ElicitationCompletion): void {
    const key = keyOf(c.server, c.elicitationId);
    const waiters = this.pending.get(key);
    if (!waiters) { this.onIgnored(c); return; }
    this.pending.delete(key);
    for (const finish of waiters) finish();
  }

  override dispose(): void {
    this.pending.clear();
    super.dispose();
  }
}

function keyOf(server: string, id: string): string { return `${server}\u0000${id}`; }

/**
 * One start of a server: what stop, restart and dispose cancel. The attempt's signal is the one
 * cancellation every step checks (instead of a generation number compared after each `await`), and
 * what a step opens that is not yet handed to the connection (a process, a connection) is *owned*
 * by the attempt: cancelling ends it at once, not at the start timeout.
 */
export class StartCancelled extends Error {
  constructor() { super('The start was cancelled'); this.name = 'StartCancelled'; }
}

export class StartAttempt {
  private readonly controller = new AbortController();
  private readonly owned = new Set<() => Promise<void>>();
  private closing?: Promise<void>;

  /**
   * `previous`: the attempt this one replaces. Its cancel is part of this one's, so a chain of quick
   * restarts waits for the oldest process still ending, not only for the attempt just before.
   */
  constructor(private previous?: StartAttempt) {}

  get signal(): AbortSignal { return this.controller.signal; }
  get cancelled(): boolean { return this.controller.signal.aborted; }

  /** Throws {@link StartCancelled} once cancelled: a step calls it after each wait. */
  check(): void {
    if (this.cancelled) throw new StartCancelled();
  }

  /**
   * `close` ends something this attempt opened; it runs on cancel. The returned function releases it
   * (it was closed normally, or handed over to the running connection). Owning after cancel closes at once.
   */
  own(close: () => Promise<void>): () => void {
    if (this.cancelled) { void close().catch(() => {}); return () => {}; }
    this.owned.add(close);
    return () => { this.owned.delete(close); };
  }

  /** Resolves once the attempts this one replaced have ended what they owned. */
  async previousEnded(): Promise<void> {
    await this.previous?.cancel();
    this.previous = undefined;
  }

  /** Cancels every step and ends what the attempt owns; resolves when that is gone. */
  cancel(): Promise<void> {
    if (this.closing) return this.closing;
    this.controller.abort();
    const closes = [...this.owned];
    this.owned.clear();
    const before = this.previous?.cancel();
    this.closing = Promise.all([before, ...closes.map(c => c().catch(() => {}))]).then(() => { this.previous = undefined; });
    return this.closing;
  }
}

/**
 * The stops a connection begins on its own, with no caller to wait for them (a catalogue past its budget,
 * OAuth tokens gone for good). A start such a stop cancelled waits for it: the start is over when the
 * server shows why it stopped, so `apply()` and `start()` never resolve while it still says 'starting'.
 */
export class OwnStops<Attempt> {
  private current?: { readonly attempt: Attempt; readonly done: Promise<void> };

  /** `done` settles with the stop's final state; `attempt`: the stopping attempt (the current one from now on). */
  track(done: Promise<void>, attempt: Attempt): void {
    const own = this.current = { attempt, done };
    void done.then(() => { if (this.current === own) this.current = undefined; });
  }

  /** What a start replaced by `current` (the connection's attempt now) waits for: the stop, if it is one of these. */
  pending(current: Attempt): Promise<void> | undefined {
    return this.current && this.current.attempt === current ? this.current.done : undefined;
  }
}

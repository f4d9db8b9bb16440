/**
 * `ui/request-display-mode` from an app moves its panel: honoured only right after the user did
 * something inside the app (the embedder reports whether the request came with the browser's own
 * user activation, which the app's script cannot fake), and at most once per
 * {@link DISPLAY_MODE_INTERVAL_MS}, so one click cannot make the app jump back and forth. Anything
 * else answers with the mode the app already has, as the spec allows a host to.
 */

/** Shortest time between two display-mode changes an app gets. */
export const DISPLAY_MODE_INTERVAL_MS = 2_000;

export type DisplayModeDecision<M extends string> =
  | { readonly change: true; readonly mode: M }
  | { readonly change: false; readonly mode: M; /** Why the request did not change the mode; absent when it asked for the current one. */ readonly refused?: string };

export class DisplayModeGate<M extends string> {
  private lastChange = -Infinity;

  constructor(private current: M, private readonly now: () => number = Date.now) {}

  get mode(): M { return this.current; }

  /** Decides a request for `requested`; `userActivation` is whether the user had just acted in the app. */
  request(requested: M, userActivation: boolean): DisplayModeDecision<M> {
    if (requested === this.current) return { change: false, mode: this.current };
    if (!userActivation) return { change: false, mode: this.current, refused: 'the app asked without a click or key press of the user in it' };
    const t = this.now();
    if (t - this.lastChange < DISPLAY_MODE_INTERVAL_MS) return { change: false, mode: this.current, refused: `the app changed its display mode less than ${DISPLAY_MODE_INTERVAL_MS / 1000} s ago` };
    this.lastChange = t;
    this.current = requested;
    return { change: true, mode: requested };
  }
}

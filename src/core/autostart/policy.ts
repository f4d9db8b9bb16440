/**
 * When a declared server starts (`mcpHost.autostart`, or a declaration's own `autostart`):
 * `always` at once (the host's behaviour before on-demand starts), `onDemand` at its first use
 * (its cached catalogue is shown meanwhile; without one it starts once to fill it), `never` only
 * when the user starts it.
 */
export type Autostart = 'always' | 'onDemand' | 'never';
export const AUTOSTART_CHOICES: readonly Autostart[] = ['always', 'onDemand', 'never'];

export function isAutostart(v: unknown): v is Autostart {
  return typeof v === 'string' && (AUTOSTART_CHOICES as readonly string[]).includes(v);
}

/** What the embedder's settings say; read again at each decision, so a changed setting applies at once. */
export interface AutostartSettings {
  /** The default for declarations without their own `autostart` (embedders that set none get `always`). */
  readonly autostart?: () => Autostart;
  /** `mcpHost.idleStop` in milliseconds; 0 or absent: an on-demand server is never stopped for being idle. */
  readonly idleStopMs?: () => number;
}

/** The policy in effect for a declaration. */
export function autostartOf(declared: Autostart | undefined, settings: AutostartSettings): Autostart {
  return declared ?? settings.autostart?.() ?? 'always';
}

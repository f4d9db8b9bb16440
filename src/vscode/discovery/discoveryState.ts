/**
 * What the host controller knows about discovered servers after its last reload: the snapshot it
 * planned from and the plan. Discovered servers are not the user's declarations: their scope is
 * `workspace` for approvals, inputs and the sandbox (the files are written by other programs and
 * repositories), and their names (`<name>@<source>`) never collide with `mcpHost.servers` names.
 */
import { planDiscovered, type DiscoveredServer, type DiscoveryPlan } from '../../core';
import type { Discovered } from './discoveredServers';

export class DiscoveryState {
  private byKey = new Map<string, DiscoveredServer>();
  constructor(readonly discovered: Discovered = { servers: [], files: [], enabled: new Set(), runHere: new Set() }, readonly plan: DiscoveryPlan = { run: {}, withheld: [] }) {
    // A settings server of the very same name is the settings': never shown as discovered.
    const taken = new Set(plan.withheld.filter(w => w.why.kind === 'nameTaken').map(w => w.server.key));
    for (const s of discovered.servers) if (!taken.has(s.key)) this.byKey.set(s.key, s);
  }

  static planned(settings: Readonly<Record<string, unknown>>, discovered: Discovered, trusted: boolean): DiscoveryState {
    return new DiscoveryState(discovered, planDiscovered(settings, discovered.servers, { trusted, runHere: discovered.runHere }));
  }

  /** The discovered server behind a host name, if it is one. */
  originOf(key: string): DiscoveredServer | undefined { return this.byKey.get(key); }
}

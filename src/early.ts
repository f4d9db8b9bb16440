/**
 * The early bundle (dist/early.js): required by the activation entry right after activate() returned,
 * before the host bundle. It reads the servers setting as the host will (Workspace Trust included) and
 * spawns the local servers that start without a question, using the core's own parse and resolve code
 * (no MCP SDK in this bundle: test/unit/activationBundle.test.ts). So the servers boot while the host
 * bundle evaluates the SDK's schemas; the host then takes each process over (core/connection/earlyProcesses.ts).
 */
import { EarlyProcesses, startEarlyProcesses } from './core/connection/earlyProcesses';
import { parseServers } from './core/config/parse';
import { keepLedgerIn, sweepLeftovers } from './core/connection/processLedger';
import { readServers } from './vscode/config';
import { sandboxAll } from './vscode/sandbox';
import { variableContext } from './vscode/variables';
import type { EarlyBundle } from './vscode/lazy/contract';

export const start: EarlyBundle['start'] = ledgerDir => {
  // What a previous host of this editor left running (killed, crashed) ends now; another live window's servers stay.
  if (ledgerDir) {
    void sweepLeftovers(ledgerDir);
    keepLedgerIn(ledgerDir);
  }
  const processes = new EarlyProcesses();
  const { allowed } = readServers();
  const ready = startEarlyProcesses(allowed, variableContext(), sandboxAll(), processes);
  // What the API lists until the host has loaded: the servers the host's apply() will create, in order.
  const declared = parseServers(allowed).servers.map(d => ({ name: d.name, transport: d.type, disabled: d.disabled === true }));
  return { processes, ready, declared };
};

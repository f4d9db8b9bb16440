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
import { autostartOf, isAutostart } from './core/autostart/policy';
import { catalogCacheKey, hasCatalogEntry } from './core/catalog/catalogCacheKey';
import { launchBase } from './core/config/envFileContent';
import { readServers, type DeclarationScope } from './vscode/config';
import { readAutostart, readStrings } from './vscode/settingsReader';
import { workspaceIdentity } from './vscode/workspaceIdentity';
import { sandboxAll } from './vscode/sandbox';
import { variableContext } from './vscode/variables';
import type { EarlyBundle } from './vscode/lazy/contract';
import { readPolicy } from './vscode/policy';

export const start: EarlyBundle['start'] = (ledgerDir, catalogDir) => {
  // What a previous host of this editor left running (killed, crashed) ends now; another live window's servers stay.
  if (ledgerDir) {
    void sweepLeftovers(ledgerDir);
    keepLedgerIn(ledgerDir);
  }
  const processes = new EarlyProcesses();
  const { allowed, scopes } = readServers();
  const ready = startEarlyProcesses(startingAtOnce(allowed, scopes, catalogDir), variableContext(), sandboxAll(), processes, readPolicy());
  // What the API lists until the host has loaded: the servers the host's apply() will create, in order.
  const excluded = new Set(readStrings('chat.excludedServers'));
  const declared = parseServers(allowed).servers.map(d => ({ name: d.name, transport: d.type, disabled: d.disabled === true, excluded: excluded.has(d.name) }));
  return { processes, ready, declared };
};

/**
 * The declarations the host will start as soon as it loads: `always`, and `onDemand` without a cached
 * catalogue (they start once to fill it). A cached on-demand server waits for its first use; `never` waits for the user.
 */
function startingAtOnce(allowed: Record<string, unknown>, scopes: ReadonlyMap<string, DeclarationScope>, catalogDir: string | undefined): Record<string, unknown> {
  const fallback = readAutostart();
  const workspace = workspaceIdentity();
  // The host's key with the launch folder and the open folders: a declaration with an env file (whose
  // content the key also holds) never starts early anyway (core/connection/earlyProcesses.ts), and its
  // file is not read here.
  const ctx = variableContext();
  const inputs = { launchBase: launchBase(ctx), workspaceFolders: ctx.workspaceFolders };
  return Object.fromEntries(Object.entries(allowed).filter(([name, decl]) => {
    const own = (decl as { autostart?: unknown } | null)?.autostart;
    const policy = autostartOf(isAutostart(own) ? own : undefined, { autostart: () => fallback });
    if (policy !== 'onDemand') return policy === 'always';
    const key = catalogDir ? catalogCacheKey(decl, { scope: scopes.get(name) ?? 'workspace', workspace }, inputs) : undefined;
    return !key || !hasCatalogEntry(catalogDir!, key);
  }));
}

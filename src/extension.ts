/**
 * The activation entry (dist/extension.js): registers the contributions (views, commands, the `@mcp`
 * participant, language-model tools) and returns the API without loading the MCP SDK, so activate()
 * stays fast. The host bundle (src/host.ts → dist/host.js) is `require`d right after activate()
 * returned, or earlier when something needs it; everything that arrives meanwhile waits for it.
 * This file and what it imports must not reach src/core or the SDK (a unit test reads the bundle).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpHostApi } from './vscode/api';
import { catalogDir, EARLY_BUNDLE_FILE, HOST_BUNDLE_FILE, ledgerDir, PARTICIPANT_ID, RESOURCES_VIEW_ID, SERVERS_VIEW_ID, type EarlyBundle, type EarlyOutcome, type HostBundle, type LoadedHost } from './vscode/lazy/contract';
import { ActivationContributions } from './vscode/lazy/lateContributions';
import { createLazyApi } from './vscode/lazy/lazyApi';

// activationMs is what MCP Host's activation costs the extension host: evaluating this bundle plus the
// activate() call. The bundle's first statement (esbuild banner) sets __mcpHostLoadStart; unbundled (tsc
// output) this module's load stands in. VS Code evaluates the bundle while it loads the extension's
// context (storage over IPC) and calls activate() when both are done, so the time between the two is
// VS Code's, not ours, and is left out (as in VS Code's own split of code loading and activate call).
declare const __mcpHostLoadStart: number | undefined;
const loadStart = typeof __mcpHostLoadStart === 'number' ? __mcpHostLoadStart : performance.now();

let loaded: Promise<LoadedHost> | undefined;
let early: EarlyOutcome | undefined;
let loadHost: (() => Promise<LoadedHost>) | undefined;

export function activate(context: vscode.ExtensionContext): McpHostApi {
  const activateStart = performance.now();
  loaded = undefined;
  early = undefined;
  // Whatever needs the host first (activation being over, a command, a view, a tool, the API) loads it,
  // and every load starts the early bundle first: the local servers that need no question boot while
  // the host bundle evaluates the SDK, then the host takes them over.
  const storage = context.globalStorageUri?.fsPath;
  const load = (): Promise<LoadedHost> => loaded ??= startEarly(storage && ledgerDir(storage), storage && catalogDir(storage)).then(() => {
    // Synchronous from here on: between retiring the command proxies and the host registering the
    // real commands nothing else runs, so no command is ever missing.
    const bundle = require(path.join(__dirname, HOST_BUNDLE_FILE)) as HostBundle;
    contributions.retire();
    const host = bundle.start(context, contributions, activationMs, early);
    context.subscriptions.push(lazy.attach(host));
    return host;
  }).catch((e: unknown) => {
    // No host will take them: the servers started early would run until the window closes.
    void releaseEarly();
    throw e;
  });
  loadHost = load;
  const contributions = new ActivationContributions(context, () => load(), {
    [SERVERS_VIEW_ID]: { showCollapseAll: false },
    [RESOURCES_VIEW_ID]: { canSelectMany: true, showCollapseAll: true },
  }, PARTICIPANT_ID);
  context.subscriptions.push(contributions);
  const activationMs = evaluationMs + (performance.now() - activateStart);
  // A caller of listServers() right after activate() gets the declared servers: asking starts the early
  // bundle (synchronously: it reads the settings before it spawns anything), which the host takes over.
  const lazy = createLazyApi(() => load(), activationMs, () => {
    load().catch(() => undefined); // reported where activation starts the load
    return early && 'declared' in early ? early.declared : undefined;
  });
  // The servers start as soon as activation is over.
  setImmediate(() => {
    // Not notify.ts: the activation bundle holds nothing of the core (activationBundle.test.ts), and this
    // message quotes only a failure to load our own host bundle, no server's text.
    load().catch(e => vscode.window.showErrorMessage(vscode.l10n.t('MCP Host could not start: {0}', e instanceof Error ? e.message : String(e))));
  });
  return lazy.api;
}

/**
 * The host bundle's result, loading it first if nothing has yet: what the contributions and the API
 * wait on. For a bundle built on this entry (the test build's, test/hooks/extension.ts).
 */
export function loadedHost(): Promise<LoadedHost> {
  return loadHost?.() ?? Promise.reject(new Error('MCP Host is not active'));
}

/**
 * Runs the early bundle. Never fails the start: without it the host spawns the servers a few tens of
 * milliseconds later, and says why in its log.
 */
async function startEarly(ledger: string | undefined, catalogs: string | undefined): Promise<void> {
  try {
    const started = (require(path.join(__dirname, EARLY_BUNDLE_FILE)) as EarlyBundle).start(ledger, catalogs);
    early = started;
    await started.ready;
  } catch (e) {
    if (!early) early = { error: e instanceof Error ? e.message : String(e) };
  }
}

/** Stops what the early bundle started and no server took over. */
function releaseEarly(): Promise<void> {
  return early && 'processes' in early ? early.processes.release() : Promise.resolve();
}

/** Stops every server and waits for their process trees to exit (VS Code awaits this promise). */
export async function deactivate(): Promise<void> {
  const host = await loaded?.catch(() => undefined);
  loaded = undefined;
  loadHost = undefined;
  await Promise.all([host?.shutdown(), releaseEarly()]);
  early = undefined;
}

// Last statement of the bundle (this entry is evaluated after everything it imports): evaluation ends here.
const evaluationMs = performance.now() - loadStart;

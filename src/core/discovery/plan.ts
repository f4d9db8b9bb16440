/**
 * Which discovered servers run. The same program (command, arguments and working folder) or the same
 * URL declared in several places runs once, and the first declaration wins, in this order:
 * 1. the user's and the workspace's `mcpHost.servers` (MCP Host's own settings);
 * 2. VS Code's own `mcp.json` (enabled but not set to `"run"`): VS Code's host runs those already, so
 *    neither they nor a copy from another file start a second process in this window;
 * 3. the other sources, user files before workspace files, in `DISCOVERY_SOURCES` order.
 * Environment and headers do not count: two files naming the same command are the same server to a user.
 */
import { isRecord } from '../isRecord';
import { EDITOR_SOURCES, isWorkspaceSource, type DiscoverySource } from './sources';

export interface DiscoveredServer {
  /** The host's name for it, `<name>@<source>` (`<name>@<source>:<folder>` when several folders are open): never a name of the user's. */
  readonly key: string;
  /** The name the file gives it. */
  readonly name: string;
  readonly source: DiscoverySource;
  readonly file: string;
  readonly declaration: Record<string, unknown>;
}

export type WithheldReason =
  /** Runs already as `of` (a settings name or another discovered key). */
  | { readonly kind: 'duplicate'; readonly of: string }
  /** VS Code's own MCP host runs it. */
  | { readonly kind: 'editorRuns' }
  /** A workspace file while the workspace is not trusted. */
  | { readonly kind: 'untrusted' }
  /** `mcpHost.servers` declares a server of that very name. */
  | { readonly kind: 'nameTaken' };

export interface DiscoveryPlan {
  /** Declarations to run, by key. */
  readonly run: Readonly<Record<string, Record<string, unknown>>>;
  readonly withheld: readonly { readonly server: DiscoveredServer; readonly why: WithheldReason }[];
}

export interface PlanOptions {
  readonly trusted: boolean;
  /** VS Code sources the user set to `"run"`: their servers start here as well. */
  readonly runHere: ReadonlySet<DiscoverySource>;
}

/** `settings`: the declarations MCP Host runs from its own settings (those Workspace Trust allows). */
export function planDiscovered(settings: Readonly<Record<string, unknown>>, discovered: readonly DiscoveredServer[], options: PlanOptions): DiscoveryPlan {
  const claimed = new Map<string, string>();
  const claim = (identity: string | undefined, by: string) => { if (identity !== undefined && !claimed.has(identity)) claimed.set(identity, by); };
  for (const [name, decl] of Object.entries(settings)) if (!isDisabled(decl)) claim(launchIdentity(decl), name);

  const run: [string, Record<string, unknown>][] = [];
  const withheld: { server: DiscoveredServer; why: WithheldReason }[] = [];
  const editorRuns = (s: DiscoveredServer) => EDITOR_SOURCES.has(s.source) && !options.runHere.has(s.source);
  const ordered = [...discovered.filter(editorRuns), ...discovered.filter(s => !editorRuns(s))];
  for (const server of ordered) {
    if (isWorkspaceSource(server.source) && !options.trusted) { withheld.push({ server, why: { kind: 'untrusted' } }); continue; }
    if (Object.prototype.hasOwnProperty.call(settings, server.key)) { withheld.push({ server, why: { kind: 'nameTaken' } }); continue; }
    const identity = isDisabled(server.declaration) ? undefined : launchIdentity(server.declaration);
    const of = identity === undefined ? undefined : claimed.get(identity);
    if (of !== undefined) { withheld.push({ server, why: { kind: 'duplicate', of } }); continue; }
    claim(identity, server.key);
    if (editorRuns(server)) { withheld.push({ server, why: { kind: 'editorRuns' } }); continue; }
    run.push([server.key, server.declaration]);
  }
  return { run: Object.fromEntries(run), withheld };
}

/** What a declaration runs, for deduplication: the program with its arguments and folder, or the URL without a trailing slash. */
export function launchIdentity(decl: unknown): string | undefined {
  if (!isRecord(decl)) return undefined;
  if (typeof decl.url === 'string' && decl.command === undefined) {
    let url = decl.url.trim();
    try { url = new URL(url).href; } catch { /* compared as written */ }
    return `url ${url.replace(/\/+(?=$|\?)/, '')}`;
  }
  if (typeof decl.command !== 'string') return undefined;
  const args = Array.isArray(decl.args) ? decl.args : [];
  return `command ${JSON.stringify([decl.command.trim(), ...args, typeof decl.cwd === 'string' ? decl.cwd : null])}`;
}

const isDisabled = (decl: unknown): boolean => isRecord(decl) && decl.disabled === true;

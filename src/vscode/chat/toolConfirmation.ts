/**
 * Consent prompts for what a model asks of a server: running a tool, reading a resource.
 *
 * What the server chose is shown as what it is: the server's name and the tool's real name first
 * (its title only as a secondary line), every piece of server or model text cleaned by the core's
 * `plainText` and with `$(icon)` syntax escaped (QuickPick labels render codicons, nothing else), and
 * the full arguments one "Show" away in a read-only editor. The safe answer (Deny) is the first and
 * active item, so a stray Enter on a prompt that appeared unasked denies. Closing it denies too.
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { pickText } from '../pickText';
import type { ReadOnlySnapshots } from '../readOnlySnapshots';

/** `tool`/`server` alone last always; `:session` this window's life, `:workspace` this workspace. */
export type ToolDecision = 'once' | 'deny' | `${'tool' | 'server'}${'' | ':session' | ':workspace'}`;
export type ReadDecision = 'once' | 'server' | 'deny';

export interface ToolCallRequest {
  readonly server: string;
  readonly tool: Tool;
  readonly args: unknown;
  /** The tool had been approved, but its definition changed since. */
  readonly changed?: boolean;
  /** The user's settings allowed this server name, but for another command or URL than it runs now. */
  readonly programChanged?: boolean;
  /** Who asks: a model (default) or the server's own MCP App, whose approvals are kept apart. */
  readonly caller?: 'model' | 'app';
  /** Who sent the call when it is not this window's chat (a terminal agent the user connected). */
  readonly via?: string;
  /** The window has a workspace that a "this workspace" approval can be held in. */
  readonly inWorkspace?: boolean;
}

export async function confirmToolCall(r: ToolCallRequest, snapshots: ReadOnlySnapshots, token?: vscode.CancellationToken): Promise<ToolDecision> {
  const server = pickText(r.server, 100), tool = pickText(r.tool.name, 100);
  const title = r.tool.title ?? r.tool.annotations?.title;
  const args = r.args && typeof r.args === 'object' && !Array.isArray(r.args) ? Object.entries(r.args as Record<string, unknown>) : [];
  const app = r.caller === 'app';
  const items: Item<ToolDecision>[] = [
    { label: `$(close) ${vscode.l10n.t('Deny')}`, action: 'deny' },
    { label: `$(check) ${vscode.l10n.t('Allow once')}`, action: 'once' },
    { label: `$(history) ${vscode.l10n.t('Allow "{0}" for this session', tool)}`, description: vscode.l10n.t('until the window closes or reloads'), action: 'tool:session' },
    ...(r.inWorkspace ? [{ label: `$(folder) ${vscode.l10n.t('Allow "{0}" in this workspace', tool)}`, action: 'tool:workspace' as const }] : []),
    { label: `$(check-all) ${vscode.l10n.t('Always allow "{0}"', tool)}`, description: app ? vscode.l10n.t('from {0}, when its app asks', server) : vscode.l10n.t('from {0}', server), action: 'tool' },
    { label: `$(history) ${vscode.l10n.t('Allow every tool from "{0}" for this session', server)}`, action: 'server:session' },
    ...(r.inWorkspace ? [{ label: `$(folder) ${vscode.l10n.t('Allow every tool from "{0}" in this workspace', server)}`, action: 'server:workspace' as const }] : []),
    { label: `$(server) ${vscode.l10n.t('Always allow every tool from "{0}"', server)}`, description: app ? vscode.l10n.t('when its app asks') : undefined, action: 'server' },
    { label: `$(go-to-file) ${vscode.l10n.t('Show the full arguments')}`, action: 'show' },
    separator(vscode.l10n.t('Tool')),
    { label: tool, description: title ? vscode.l10n.t('title given by the server: {0}', pickText(title, 200)) : undefined, detail: r.tool.description ? pickText(r.tool.description) : undefined, action: 'show' },
    separator(vscode.l10n.t('Arguments')),
    ...args.map(([key, value]) => ({ label: pickText(key, 100), detail: pickText(JSON.stringify(value) ?? 'undefined', 300), action: 'show' as const })),
  ];
  for (;;) {
    const choice = await pick({
      title: vscode.l10n.t('MCP server "{0}" wants to run tool "{1}"', server, tool),
      placeholder: (app ? `${vscode.l10n.t('Its app asks (not a language model); approvals given to models do not count for it.')} ` : '')
        + (r.via ? `${vscode.l10n.t('Asked by {0}, connected through MCP Host\'s gateway.', pickText(r.via, 100))} ` : '') + (r.programChanged
        ? vscode.l10n.t('Your settings allowed "{0}" when it ran another command or URL: allow this one?', server)
        : r.changed
          ? vscode.l10n.t('The tool changed its description or parameters since you allowed it: allow it again?')
          : vscode.l10n.t('Deny, or allow this call ({0} argument(s), {1} characters)', args.length, JSON.stringify(r.args ?? {}).length)),
      items,
    }, token);
    if (choice !== 'show') return choice ?? 'deny';
    await snapshots.show(`${safeFileName(r.server)}-${safeFileName(r.tool.name)}-arguments.json`, toolCallDocument(r));
  }
}

/** The full call as a JSON document: every argument, unshortened, and the tool's definition. */
function toolCallDocument(r: ToolCallRequest): string {
  return `${JSON.stringify({ server: r.server, tool: r.tool.name, title: r.tool.title, description: r.tool.description, arguments: r.args ?? {} }, null, 2)}\n`;
}

export async function confirmResourceRead(server: string, uri: string, token?: vscode.CancellationToken): Promise<ReadDecision> {
  const s = pickText(server, 100);
  const choice = await pick<ReadDecision>({
    title: vscode.l10n.t('A language model wants to read a resource of MCP server "{0}"', s),
    placeholder: pickText(uri, 1000),
    items: [
      { label: `$(close) ${vscode.l10n.t('Deny')}`, action: 'deny' },
      { label: `$(check) ${vscode.l10n.t('Allow once')}`, action: 'once' },
      { label: `$(server) ${vscode.l10n.t('Always allow reading resources of "{0}"', s)}`, action: 'server' },
    ],
  }, token);
  return choice === undefined || choice === 'show' ? 'deny' : choice;
}

export type Item<A> = vscode.QuickPickItem & { action?: A | 'show' };
export const separator = <A>(label: string): Item<A> => ({ label, kind: vscode.QuickPickItemKind.Separator });
export const safeFileName = (s: string) => s.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60) || 'x';

/**
 * A QuickPick whose first item is active; it stays active while the user types (a filter must not
 * move the highlight onto an "allow"). Resolves with the accepted item's action, undefined when closed.
 */
export function pick<A>(options: { title: string; placeholder: string; items: Item<A>[] }, token?: vscode.CancellationToken): Promise<A | 'show' | undefined> {
  const qp = vscode.window.createQuickPick<Item<A>>();
  const safe: Item<A> = { ...options.items[0], alwaysShow: true };
  qp.title = options.title;
  qp.placeholder = options.placeholder;
  qp.items = [safe, ...options.items.slice(1)];
  qp.ignoreFocusOut = true;
  qp.activeItems = [safe];
  const disposables: vscode.Disposable[] = [qp];
  return new Promise<A | 'show' | undefined>(resolve => {
    disposables.push(
      qp.onDidChangeValue(() => { qp.activeItems = [safe]; }),
      qp.onDidAccept(() => resolve((qp.selectedItems[0] ?? qp.activeItems[0])?.action)),
      qp.onDidHide(() => resolve(undefined)),
    );
    if (token) disposables.push(token.onCancellationRequested(() => resolve(undefined)));
    qp.show();
  }).finally(() => { for (const d of disposables) d.dispose(); });
}

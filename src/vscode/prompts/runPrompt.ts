/**
 * Running a prompt: pick it (unless named), collect its arguments step by step (unless given), get
 * it, and deliver it to chat or an editor. Failures are shown with an action that helps (start the
 * server, show its log) and returned, so callers of `executeCommand` learn what happened too.
 */
import * as vscode from 'vscode';
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { McpHost, RootsPort } from '../../core';
import { checkArguments, cleanArguments, collectArguments, findPrompt, getPrompt, promptChatRequest, PromptError, renderPromptMarkdown, type DroppedFileLink, type PromptErrorCode } from '../../core/prompts';
import type { ServerLogs } from '../logs';
import { askArgument } from './argumentQuickPick';
import { configuredTarget, openInEditor, sendToChat, type PromptTarget } from './promptDelivery';
import { pickPrompt, promptItemLabel } from './promptPicker';
import { showError, showWarning, withProgress } from '../notify';

export interface RunPromptRequest {
  readonly server?: string;
  readonly prompt?: string;
  /** Argument values; their steps are skipped. `''`/`null` leaves an argument out without asking. */
  readonly args?: Readonly<Record<string, unknown>>;
  /** Values prefilled in the argument steps (still shown, so they can be changed). */
  readonly defaults?: Readonly<Record<string, unknown>>;
  /** Overrides the `mcpHost.prompts.openIn` setting. */
  readonly openIn?: PromptTarget;
  /** Prefills the filter of the prompt list. */
  readonly filter?: string;
  /** `false`: never show argument steps; a missing required argument is an error. */
  readonly ask?: boolean;
}

export type RunPromptOutcome =
  | {
    readonly status: 'done'; readonly server: string; readonly prompt: string; readonly args: Readonly<Record<string, string>>;
    readonly result: GetPromptResult; readonly markdown: string; readonly openedIn: PromptTarget;
    /** Set when put into the chat input: the query, the attached files and the `file:` links that were not attached. */
    readonly chat?: { readonly query: string; readonly attachments: readonly string[]; readonly dropped: readonly DroppedFileLink[] };
    /** Set when opened in an editor: the untitled document's URI. */
    readonly document?: string;
  }
  | { readonly status: 'cancelled' }
  | { readonly status: 'error'; readonly code: PromptErrorCode | 'internal'; readonly message: string };

export interface PromptRunnerDeps {
  readonly host: McpHost;
  readonly logs: ServerLogs;
  /** Folder for chat attachments (the extension's global storage). */
  readonly storage: vscode.Uri;
  /** The roots each server is given: with the workspace folders, where a prompt's `file:` links may point. */
  readonly roots?: RootsPort;
}

export async function runPrompt(deps: PromptRunnerDeps, req: RunPromptRequest = {}): Promise<RunPromptOutcome> {
  const { host } = deps;
  try {
    let server = req.server, name = req.prompt;
    if (!server || !name) {
      const picked = await pickPrompt(host, { server, filter: req.filter });
      if (!picked) return { status: 'cancelled' };
      server = picked.server;
      name = picked.prompt.name;
    }
    const { conn, prompt } = await findPrompt(host, server, name);
    // Keys given with an empty value count as answered ("leave it out"), so keep them for the loop.
    const given: Record<string, string> = cleanArguments(req.args);
    for (const [k, v] of Object.entries(req.args ?? {})) if (v === '' || v === null) given[k] = '';
    checkArguments(server, prompt, given, { missing: false });
    let args: Record<string, string>;
    if (req.ask === false) {
      args = cleanArguments(given);
    } else {
      const log = deps.logs.get(conn.name);
      const collected = await collectArguments(prompt.arguments ?? [], given,
        step => askArgument(step, { conn, promptName: prompt.name, promptLabel: promptItemLabel(prompt), log: m => log.warn(m) }),
        cleanArguments(req.defaults));
      if (!collected) return { status: 'cancelled' };
      args = collected;
    }
    const label = promptItemLabel(prompt);
    const { result } = await withProgress(
      { location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Getting prompt "{0}" from {1}…', label, server) },
      () => getPrompt(host, server, name, args),
    );
    const markdown = renderPromptMarkdown(result, { server, prompt, args });
    const base = { status: 'done', server, prompt: name, args, result, markdown } as const;
    if ((req.openIn ?? configuredTarget()) === 'chat') {
      try {
        const sent = await sendToChat(promptChatRequest(result), deps.storage, await allowedFolders(deps, conn.name));
        if (sent.dropped.length) reportDropped(deps, conn.name, label, sent.dropped, sent.attachments);
        return { ...base, openedIn: 'chat', chat: { query: sent.query, attachments: sent.attachments.map(u => u.toString()), dropped: sent.dropped } };
      } catch (e) {
        void showWarning(vscode.l10n.t('Chat is not available ({0}); the prompt opened in an editor instead.', e instanceof Error ? e.message : String(e)));
      }
    }
    const doc = await openInEditor(markdown, `${label} (${server})`);
    return { ...base, openedIn: 'editor', document: doc.uri.toString() };
  } catch (e) {
    return report(deps, e);
  }
}

/** Folders a prompt's `file:` links may point into: the workspace folders and the server's roots. */
async function allowedFolders(deps: PromptRunnerDeps, server: string): Promise<string[]> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter(f => f.uri.scheme === 'file').map(f => f.uri.toString());
  const roots = deps.roots ? await deps.roots.getRoots({ name: server }) : [];
  return [...folders, ...roots.map(r => r.uri)];
}

/**
 * Says which links were not attached (by their real path: the name the server gave a link is what
 * disguises it) and what was. Server-chosen text loses `[`/`]`, which notifications turn into links.
 */
function reportDropped(deps: PromptRunnerDeps, server: string, prompt: string, dropped: readonly DroppedFileLink[], attached: readonly vscode.Uri[]): void {
  deps.logs.get(server).warn(`Prompt "${prompt}": not attached to chat (${dropped.length}): ${dropped.map(d => `${d.uri} [${d.reason}]`).join(', ')}`);
  const plain = (s: string) => s.replace(/[[\]]/g, '');
  const list = dropped.map(d => plain(d.path ?? d.uri)).join(', ');
  const files = attached.map(u => plain(u.path.split('/').pop() ?? u.path)).join(', ');
  void showWarning(files
    ? vscode.l10n.t('Prompt "{0}" of {1} linked files outside your workspace folders and the server\'s roots; they were not attached: {2}. Attached: {3}. Review the chat input before sending it.', plain(prompt), server, list, files)
    : vscode.l10n.t('Prompt "{0}" of {1} linked files outside your workspace folders and the server\'s roots; they were not attached: {2}. Review the chat input before sending it.', plain(prompt), server, list));
}

function report(deps: PromptRunnerDeps, e: unknown): RunPromptOutcome {
  if (!(e instanceof PromptError)) {
    const message = vscode.l10n.t('Running the MCP prompt failed: {0}', e instanceof Error ? e.message : String(e));
    void showError(message);
    return { status: 'error', code: 'internal', message };
  }
  const server = e.server;
  const actions: { title: string; run: () => unknown }[] = [];
  const conn = server ? deps.host.get(server) : undefined;
  if (e.code === 'not-running' && conn) actions.push({ title: vscode.l10n.t('Start Server'), run: () => conn.start() });
  if (e.code === 'unknown-server') actions.push({ title: vscode.l10n.t('Configure Servers'), run: () => vscode.commands.executeCommand('mcpHost.openSettings') });
  if (conn && (e.code === 'server-error' || e.code === 'not-running')) actions.push({ title: vscode.l10n.t('Show Log'), run: () => deps.logs.show(conn.name) });
  void showError(e.message, ...actions.map(a => a.title)).then(choice => actions.find(a => a.title === choice)?.run());
  return { status: 'error', code: e.code, message: e.message };
}

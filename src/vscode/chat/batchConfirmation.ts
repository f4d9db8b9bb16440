/**
 * Several tool calls a model asked for in one turn, asked about together: one prompt lists every call
 * that needs a confirmation, each named by server and real tool name with its arguments summarised and
 * cleaned (core `argumentSummary`), and the full calls one "Show" away. Deny all is the active item;
 * "one by one" leaves each call to its own prompt. A turn with more calls than the prompt lists
 * (core `MAX_BATCH_CALLS`) has the rest refused, never run unasked.
 */
import * as vscode from 'vscode';
import type { Tool } from '@modelcontextprotocol/client';
import { argumentSummary, MAX_BATCH_CALLS } from '../../core';
import { pickText } from '../pickText';
import type { ReadOnlySnapshots } from '../readOnlySnapshots';
import { pick, separator, type Item } from './toolConfirmation';

export interface BatchCall { readonly server: string; readonly tool: Tool; readonly args: unknown }

/** `all`: every listed call allowed once; `none`: all denied; `each`: ask one by one. */
export type BatchDecision = 'all' | 'none' | 'each';

export async function confirmBatch(calls: readonly BatchCall[], snapshots: ReadOnlySnapshots, token?: vscode.CancellationToken): Promise<BatchDecision> {
  const listed = calls.slice(0, MAX_BATCH_CALLS);
  const items: Item<BatchDecision>[] = [
    { label: `$(close) ${vscode.l10n.t('Deny all {0} calls', listed.length)}`, action: 'none' },
    { label: `$(check-all) ${vscode.l10n.t('Allow all {0} calls once', listed.length)}`, action: 'all' },
    { label: `$(list-ordered) ${vscode.l10n.t('Decide one by one')}`, action: 'each' },
    { label: `$(go-to-file) ${vscode.l10n.t('Show the full calls')}`, action: 'show' },
    separator(vscode.l10n.t('Calls')),
    ...listed.map(c => ({ label: `${pickText(c.server, 60)} › ${pickText(c.tool.name, 80)}`, detail: argumentSummary(c.args) || vscode.l10n.t('(no arguments)'), action: 'show' as const })),
  ];
  for (;;) {
    const choice = await pick({
      title: vscode.l10n.t('A language model wants to run {0} MCP tool calls', listed.length),
      placeholder: calls.length > listed.length
        ? vscode.l10n.t('{0} more calls of this turn are not run: at most {1} are asked about at once', calls.length - listed.length, MAX_BATCH_CALLS)
        : vscode.l10n.t('Deny all, allow all once, or decide one by one'),
      items,
    }, token);
    if (choice !== 'show') return choice ?? 'none';
    await snapshots.show('tool-calls.json', `${JSON.stringify(listed.map(c => ({ server: c.server, tool: c.tool.name, arguments: c.args ?? {} })), null, 2)}\n`);
  }
}

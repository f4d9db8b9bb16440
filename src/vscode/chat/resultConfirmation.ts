/**
 * The result gate's prompt (`mcpHost.tools.reviewResults`, core/tools/resultReview.ts): what a tool
 * returned is shown to the user before a model reads it, with Block as the active item (a stray Enter
 * blocks, closing the prompt blocks). The start of the result is shown cleaned in the prompt and the
 * whole of it one "Show" away in a read-only editor, so an injection can be read without being run.
 */
import * as vscode from 'vscode';
import { plainText } from '../../core';
import { pickText } from '../pickText';
import type { ReadOnlySnapshots } from '../readOnlySnapshots';
import { pick, safeFileName, separator, type Item } from './toolConfirmation';

/** Lines of the result shown in the prompt itself. */
const SHOWN_LINES = 8;

export async function confirmResult(server: string, tool: string, text: string, snapshots: ReadOnlySnapshots, token?: vscode.CancellationToken): Promise<boolean> {
  const s = pickText(server, 100), t = pickText(tool, 100);
  const lines = plainText(text).split('\n').map(l => l.trim()).filter(Boolean);
  const items: Item<'allow' | 'block'>[] = [
    { label: `$(shield) ${vscode.l10n.t('Block this result')}`, description: vscode.l10n.t('the model is told the result was blocked'), action: 'block' },
    { label: `$(check) ${vscode.l10n.t('Allow the model to read this result')}`, action: 'allow' },
    { label: `$(go-to-file) ${vscode.l10n.t('Show the full result')}`, action: 'show' },
    separator(vscode.l10n.t('Result')),
    ...lines.slice(0, SHOWN_LINES).map(l => ({ label: pickText(l, 200), action: 'show' as const })),
    ...(lines.length > SHOWN_LINES ? [{ label: vscode.l10n.t('… {0} more line(s)', lines.length - SHOWN_LINES), action: 'show' as const }] : []),
  ];
  for (;;) {
    const choice = await pick({
      title: vscode.l10n.t('Review the result of tool "{1}" of MCP server "{0}" before the model reads it', s, t),
      placeholder: vscode.l10n.t('Fetched content can hold instructions that did not come from you ({0} characters)', text.length),
      items,
    }, token);
    if (choice !== 'show') return choice === 'allow';
    await snapshots.show(`${safeFileName(server)}-${safeFileName(tool)}-result.txt`, text);
  }
}

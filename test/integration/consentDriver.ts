/** Answering MCP Host's consent prompts from the extension host: find the prompt, move the highlight, accept. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from './mcpHost';
import { waitFor } from './helpers';

export type Pick = vscode.QuickPick<vscode.QuickPickItem>;
const seen = new WeakSet<vscode.QuickInput>();

/** The next quick input (not seen before) whose title matches `title`. */
export async function nextPrompt(api: TestApi, title: RegExp, ms = 20_000): Promise<Pick> {
  const hooks = api.testing;
  assert.ok(hooks, 'the API exposes test hooks');
  const input = await waitFor(() => { const a = hooks.quickInput.active; return a && !seen.has(a) && title.test(a.title ?? '') ? a : undefined; }, ms, `a prompt titled ${title}`);
  seen.add(input);
  assert.ok('items' in input, `expected a QuickPick titled ${title}`);
  // The extension host sends the prompt to the workbench on its next timer tick; commands sent after ours arrive after it.
  await new Promise(r => setTimeout(r, 0));
  return input as Pick;
}

export function items(qp: Pick): vscode.QuickPickItem[] { return qp.items.filter(i => i.kind !== vscode.QuickPickItemKind.Separator); }

/** Moves the highlight (workbench.action.quickOpenSelectNext, waiting for each move) until `label` is active, then accepts. */
export async function choose(qp: Pick, label: RegExp): Promise<void> {
  const move = async () => {
    const before = qp.activeItems[0];
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => qp.activeItems[0] !== before, 5_000, 'the highlight to move');
  };
  if (items(qp).length === 1) {
    // One row: moving cannot change the highlight (the list wraps to the same row). The workbench
    // highlights it once it shows the prompt and tells the extension host, which proves the prompt is up.
    const only = await waitFor(() => qp.activeItems[0], 5_000, 'the only row to be highlighted');
    assert.match(only.label, label);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return;
  }
  await move(); // also proves the workbench shows the prompt before anything is accepted
  for (let i = 0; i <= qp.items.length + 1; i++) {
    if (qp.activeItems[0] && label.test(qp.activeItems[0].label)) { await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem'); return; }
    await move();
  }
  assert.fail(`no item matching ${label} in ${qp.items.map(i => i.label).join(' | ')}`);
}

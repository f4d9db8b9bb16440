/**
 * The workbench's own file dialog (a quick input in the browser), answered from the extension host:
 * `accept` takes what it proposes, `cancel` closes it. The dialog cannot be seen from here, so the answer
 * is sent until the command settles (bounded).
 */
import * as vscode from 'vscode';

export async function answerFileDialog<T>(run: Thenable<T>, answer: 'accept' | 'cancel', ms = 30_000): Promise<T> {
  let settled = false;
  const done = Promise.resolve(run).finally(() => { settled = true; });
  const end = Date.now() + ms;
  while (!settled && Date.now() < end) {
    await Promise.race([done.catch(() => undefined), new Promise(r => setTimeout(r, 500))]);
    if (!settled) await vscode.commands.executeCommand(answer === 'accept' ? 'workbench.action.acceptSelectedQuickOpenItem' : 'workbench.action.closeQuickOpen');
  }
  return done;
}

/**
 * Drives MCP Host's multi-step quick inputs from the extension host through the quick-input test hook
 * (the extension host cannot type into the workbench): wait for the next input, type into a box, move the
 * highlight to an item and accept it as a keyboard user would.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { McpHostTestHooks } from '../hooks/testHooks';
import { waitFor } from './helpers';

type Pick = vscode.QuickPick<vscode.QuickPickItem>;

const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
const describeInput = (i: vscode.QuickInput | undefined) => i ? `${i.title ?? ''} ${(i as vscode.InputBox).prompt ?? (i as Pick).placeholder ?? ''} (step ${i.step})` : 'none';

export class QuickInputDriver {
  private last: vscode.QuickInput | undefined;
  constructor(private readonly hooks: McpHostTestHooks) { this.last = hooks.quickInput.active; }

  async next(): Promise<vscode.QuickInput> {
    const input = await waitFor(() => { const a = this.hooks.quickInput.active; return a && a !== this.last ? a : undefined; }, 15_000,
      `the next quick input after "${describeInput(this.last)}"`);
    this.last = input;
    return input;
  }

  async nextPick(title?: RegExp): Promise<Pick> {
    const i = await this.next();
    assert.ok('items' in i, `expected a QuickPick, got an InputBox: ${(i as vscode.InputBox).prompt}`);
    if (title) assert.match(i.title ?? '', title);
    return i as Pick;
  }

  async nextBox(prompt?: RegExp): Promise<vscode.InputBox> {
    const i = await this.next();
    assert.ok(!('items' in i), `expected an InputBox, got a QuickPick titled ${i.title}`);
    if (prompt) assert.match((i as vscode.InputBox).prompt ?? '', prompt);
    return i as vscode.InputBox;
  }

  async type(text: string, prompt?: RegExp): Promise<vscode.InputBox> {
    const box = await this.nextBox(prompt);
    box.value = text;
    await accept();
    return box;
  }

  /** Makes the item whose label matches active and accepts it. */
  async choose(label: RegExp, title?: RegExp): Promise<Pick> {
    return this.chooseIn(await this.nextPick(title), label);
  }

  /** The same in a pick already taken with nextPick. */
  async chooseIn(qp: Pick, label: RegExp): Promise<Pick> {
    const item = qp.items.find(i => label.test(i.label));
    assert.ok(item, `no item matching ${label} in ${qp.items.map(i => i.label).join(' | ')}`);
    for (let n = 0; n <= qp.items.length && qp.activeItems[0] !== item; n++) {
      const before = qp.activeItems[0];
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await waitFor(() => qp.activeItems[0] !== before, 2000, 'the highlight to move');
    }
    assert.equal(qp.activeItems[0], item);
    await accept();
    return qp;
  }

  accept(): Thenable<unknown> { return accept(); }
}

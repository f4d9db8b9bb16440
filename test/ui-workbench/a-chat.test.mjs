// Tool confirmation answered like a person (issue 8): the extension-host test (test/integration/workbench/
// a-chat.test.ts) asks @mcp to add 2 and 40, the scripted model calls everything_get-sum, and MCP Host
// shows its confirmation QuickPick; here we find it in the page by its title, click "Allow once" or
// "Deny" and report the step done. The extension-host test checks what the model and the log got.
import * as assert from 'node:assert/strict';
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

const widget = () => workbench.page.locator('.quick-input-widget');

function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

/** Waits for the confirmation of `server`'s `tool` (its title names both) and returns the widget. */
async function confirmation({ server, tool }) {
  const title = new RegExp(`"${escapeRegExp(server)}".*"${escapeRegExp(tool)}"`);
  await widget().locator('.quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: 30_000 });
  return widget();
}

/** The row whose label reads `label` (the codicon is not part of the text). */
function row(label) {
  return widget().locator('.monaco-list-row').filter({ has: workbench.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) });
}

describe('chat in the workbench: tool confirmation (Playwright)', function () {
  this.timeout(180_000);

  it('"Allow once" in the confirmation QuickPick', async () => {
    const expected = await waitForStep('chat-approve', 170_000);
    const w = await confirmation(expected);
    // The choices in order: the safe one first.
    const labels = (await w.locator('.monaco-list-row .label-name').allInnerTexts()).map(s => s.trim());
    // Each approval's lifetime: this session, this workspace (when the window has one), always.
    const inWorkspace = labels.includes(`Allow "get-sum" in this workspace`);
    assert.deepEqual(labels.slice(0, inWorkspace ? 9 : 7), [
      'Deny', 'Allow once',
      `Allow "get-sum" for this session`, ...(inWorkspace ? [`Allow "get-sum" in this workspace`] : []), `Always allow "get-sum"`,
      `Allow every tool from "${expected.server}" for this session`, ...(inWorkspace ? [`Allow every tool from "${expected.server}" in this workspace`] : []), `Always allow every tool from "${expected.server}"`,
      'Show the full arguments',
    ]);
    await screenshot('tool-confirmation');
    await row('Allow once').click();
    await w.waitFor({ state: 'hidden', timeout: 15_000 });
    await stepDone('chat-approve', { clicked: 'Allow once' });
  });

  it('"Deny" in the confirmation QuickPick', async () => {
    const expected = await waitForStep('chat-deny', 170_000);
    const w = await confirmation(expected);
    // What the person sees before denying: the tool by its real name and every argument with its value.
    await row(expected.tool).waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await row('a').innerText(), /\b2\b/);
    assert.match(await row('b').innerText(), /\b40\b/);
    await row('Deny').click();
    await w.waitFor({ state: 'hidden', timeout: 15_000 });
    await stepDone('chat-deny', { clicked: 'Deny' });
  });

  it('Enter on the fresh confirmation QuickPick denies', async () => {
    const expected = await waitForStep('chat-enter', 170_000);
    const w = await confirmation(expected);
    // A stray Enter (the user was typing elsewhere when the prompt appeared) picks the active item: Deny.
    await widget().locator('.monaco-list-row.focused').first().waitFor({ timeout: 10_000 });
    await workbench.page.keyboard.press('Enter');
    await w.waitFor({ state: 'hidden', timeout: 15_000 });
    await stepDone('chat-enter', { clicked: 'Enter' });
  });
});

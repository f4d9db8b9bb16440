// "MCP: Run Prompt…" as a person uses it, in the workbench of the `installed` run (server-everything
// declared as `everything`): pick a prompt from the palette, answer its argument steps with the
// server's completions (the second depends on the first), go Back once, see the prompt fill the chat
// input as a request to @mcp, and send it. Screenshots: .test-artifacts/installed-prompt-{list,step,chat-input,chat}.png.
import * as assert from 'node:assert/strict';
import { activityBarItem, runCommand, screenshot, workbench, workbenchReady } from './workbench.mjs';

const widget = () => workbench.page.locator('.quick-input-widget');
const row = (text) => widget().locator('.monaco-list-row', { hasText: text });
const focusedRow = (text) => widget().locator('.monaco-list-row.focused', { hasText: text });
const input = () => widget().locator('input.input').first();

describe('Run Prompt (workbench UI)', () => {
  before(() => workbenchReady());

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot('prompt-failure').catch(() => undefined);
  });

  after(async () => {
    const { page } = workbench;
    await page.keyboard.press('Escape');
    // Leave the layout as the other UI tests expect it (no chat in the secondary side bar).
    if (await page.locator('.part.auxiliarybar').isVisible()) await runCommand('View: Toggle Secondary Side Bar Visibility');
  });

  it('runs completable-prompt from the palette through its argument steps, with Back, into chat', async function () {
    this.timeout(60_000); // includes waiting for the servers to start
    const { page } = workbench;
    // Installed extensions' contributions reach the palette a moment after the workbench renders.
    await activityBarItem('MCP').waitFor({ timeout: 25_000 });
    await runCommand('MCP: Run Prompt');
    // The list fills in as servers start.
    await row('Team Management').waitFor({ timeout: 25_000 });
    await input().fill('team');
    await row('Team Management').waitFor();
    await screenshot('prompt-list');
    await page.keyboard.press('Enter');
    // Step 1/2: department, suggestions from completion/complete.
    await row('Engineering').waitFor();
    const title = await widget().textContent();
    assert.match(title ?? '', /Team Management \(everything\): department/);
    assert.match(title ?? '', /1\s*\/\s*2/);
    await input().fill('Sa');
    // The server's answer for "Sa" leaves only Sales (next to the typed text).
    await row('Marketing').waitFor({ state: 'detached' });
    await row('Sales').waitFor();
    await page.keyboard.press('ArrowDown'); // past the typed "Sa" to the suggestion
    await focusedRow('Sales').waitFor();
    await page.keyboard.press('Enter');
    // Step 2/2: the names depend on the department picked before.
    await row('David').waitFor();
    assert.equal(await row('Alice').count(), 0, 'no Engineering names for Sales');
    assert.match((await widget().textContent()) ?? '', /2\s*\/\s*2/);
    await screenshot('prompt-step');
    // Back: step 1 again, with the earlier answer prefilled.
    await widget().locator('.action-label[aria-label^="Back"]').click();
    await row('Engineering').or(row('Sales')).first().waitFor();
    await page.waitForFunction(() => document.querySelector('.quick-input-widget input.input')?.value === 'Sales');
    await row('Sales').waitFor();
    await page.keyboard.press('Enter');
    await row('Eve').waitFor();
    await input().fill('Ev');
    await row('David').waitFor({ state: 'detached' });
    await row('Eve').waitFor();
    await page.keyboard.press('ArrowDown');
    await focusedRow('Eve').waitFor();
    await page.keyboard.press('Enter');
    // Default mcpHost.prompts.openIn = chat: the prompt's text fills the chat input as a request to
    // @mcp, and waits there until the user sends it (the server wrote it).
    const text = 'Please promote Eve to the head of the Sales team.';
    const chatInput = page.locator('.interactive-input-part .interactive-input-editor');
    await page.waitForFunction(t => [...document.querySelectorAll('.interactive-input-part .interactive-input-editor')]
      .some(e => (e.textContent ?? '').replace(/\u00a0/g, ' ').includes(t)), text, { timeout: 15_000 });
    const request = page.locator('.interactive-request', { hasText: text });
    assert.equal(await request.count(), 0, 'not sent before the user sends it');
    await screenshot('prompt-chat-input');
    await chatInput.filter({ hasText: /Please\s+promote\s+Eve/ }).first().click();
    await page.keyboard.press('Enter');
    await request.waitFor({ timeout: 15_000 });
    assert.match((await request.textContent()) ?? '', /@mcp/);
    await screenshot('prompt-chat');
  });
});

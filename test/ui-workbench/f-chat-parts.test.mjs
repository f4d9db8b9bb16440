// Reads @mcp's response in the Chat view (test/integration/workbench/f-chat-parts.test.ts asked it):
// the progress of the tools that ran and the resources the tool linked to, listed as references.
import * as assert from 'node:assert/strict';
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

describe('chat response parts in the workbench (Playwright)', function () {
  this.timeout(180_000);

  it('shows tool progress and the linked resources as references', async () => {
    await waitForStep('chat-parts', 170_000);
    const { page } = workbench;
    try {
      // Progress shows while the tool runs (a finished response folds it into "Completed N steps").
      const chat = page.locator('.interactive-session');
      const progress = chat.getByText(/Trigger Long Running Operation Tool: [1-3]\/4/).first();
      await progress.waitFor({ timeout: 20_000 });
      const progressText = (await progress.innerText()).replace(/\u00a0/g, ' ');
      const response = page.locator('.interactive-item-container', { hasText: 'parts-marker' }).last();
      await response.waitFor({ timeout: 20_000 });
      // Once the response is complete its steps are folded under "Completed N steps": unfold them,
      // then the references inside.
      const steps = response.locator('.completed-response-summary', { hasText: /Completed \d+ steps/ });
      await steps.waitFor({ timeout: 20_000 });
      // The fold follows the summary (animated): wait until it is folded, so the click below unfolds it.
      const used = response.getByText(/Used 2 references/);
      await used.waitFor({ state: 'hidden', timeout: 10_000 });
      await steps.click();
      await used.waitFor({ state: 'visible', timeout: 10_000 });
      await used.click();
      const references = (await response.locator('.chat-used-context-list .monaco-list-row').allInnerTexts()).map(s => s.trim()).filter(Boolean);
      await screenshot('chat-parts');
      await stepDone('chat-parts', { references, progress: [progressText] });
    } catch (e) {
      await screenshot('chat-parts-failure').catch(() => undefined);
      await stepDone('chat-parts', { error: String(e) });
      throw e;
    }
  });
});

// Clicks "Show instructions" in @mcp's response (test/integration/workbench/h-show-instructions.test.ts
// asked for it and checks the editor that opens).
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

describe('chat: "Show instructions" link (Playwright)', function () {
  this.timeout(150_000);

  it('clicks "Show instructions" in the response', async () => {
    await waitForStep('show-instructions', 140_000);
    const { page } = workbench;
    try {
      const response = page.locator('.interactive-item-container', { hasText: 'instructions-marker' }).last();
      await response.waitFor({ timeout: 20_000 });
      // A finished response folds its steps (the button among them) under "Completed N steps": wait
      // for that final state, unfold it, then click — as a person reading the finished answer does.
      const steps = response.locator('.completed-response-summary', { hasText: /Completed \d+ steps/ });
      await steps.waitFor({ timeout: 20_000 });
      const link = response.getByText('Show instructions').first();
      await link.waitFor({ state: 'hidden', timeout: 10_000 });
      await steps.click();
      await link.waitFor({ state: 'visible', timeout: 10_000 });
      await link.click();
      await page.locator('.tabs-container .tab', { hasText: 'server-instructions' }).first().waitFor({ timeout: 15_000 });
      await screenshot('show-instructions');
      await stepDone('show-instructions', {});
    } catch (e) {
      await screenshot('show-instructions-failure').catch(() => undefined);
      await stepDone('show-instructions', { error: String(e) });
      throw e;
    }
  });
});

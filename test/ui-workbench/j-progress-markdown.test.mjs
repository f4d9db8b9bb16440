// Reads @mcp's progress line while the tool of test/integration/workbench/j-progress-markdown.test.ts runs:
// its text, its links and its bold text, as rendered.
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

describe('progress in @mcp\'s chat response (Playwright)', function () {
  this.timeout(180_000);

  it('a server\'s progress message, as a person reads it in the chat', async () => {
    await waitForStep('progress-markdown', 170_000);
    const { page } = workbench;
    try {
      const line = page.locator('.interactive-session').getByText(/Open the review/).first();
      await line.waitFor({ timeout: 20_000 });
      const holder = line.locator('xpath=ancestor-or-self::*[contains(@class,"rendered-markdown")][1]');
      const text = await holder.evaluate(e => e.textContent ?? '');
      const links = await holder.locator('a').evaluateAll(as => as.map(a => `${a.textContent} -> ${a.getAttribute('href') ?? a.getAttribute('data-href')}`));
      const bold = await holder.locator('strong, b').allInnerTexts();
      await screenshot('progress-markdown');
      await stepDone('progress-markdown', { text, links, bold });
    } catch (e) {
      await screenshot('progress-markdown-failure').catch(() => undefined);
      await stepDone('progress-markdown', { error: String(e) });
      throw e;
    }
  });
});

// The first @mcp request of a fresh window, typed like a person (issue 15): click into the Chat view's
// input, type `@mcp hello`, press Enter, wait until the answer (or an error) is shown, and hand the
// text the Chat view shows to the extension-host test (test/integration/workbench/0-first-request.test.ts).
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

describe('chat: the first @mcp request of a fresh window, typed by a person (Playwright)', function () {
  this.timeout(180_000);

  it('reaches the language model on the first try', async () => {
    await waitForStep('chat-first-request', 170_000);
    const { page } = workbench;
    let shown = '';
    try {
      const input = page.locator('.interactive-input-part .interactive-input-editor .monaco-editor').first();
      await input.waitFor({ state: 'visible', timeout: 30_000 });
      await input.click();
      await page.keyboard.type('@mcp hello');
      await page.keyboard.press('Enter');
      // The scripted model echoes the request; an error ("Language model unavailable") is shown in its place.
      await page.locator('.interactive-item-container.interactive-response', { hasText: /echo: hello|unavailable|error/i }).last().waitFor({ state: 'visible', timeout: 30_000 });
      shown = (await page.locator('.interactive-session').first().innerText()).replace(/\s+/g, ' ').trim();
      await screenshot('chat-first-request');
    } catch (e) {
      shown = `${shown} [UI: ${e.message.split('\n')[0]}]`;
      await screenshot('chat-first-request-failed').catch(() => undefined);
    } finally {
      await stepDone('chat-first-request', { shown });
    }
  });
});

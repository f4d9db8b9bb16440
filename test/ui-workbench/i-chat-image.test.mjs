// Finds the image @mcp showed in its response (test/integration/workbench/i-chat-image.test.ts asked).
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

describe('chat: a tool\'s image in the response (Playwright)', function () {
  this.timeout(150_000);

  it('finds the rendered image', async () => {
    await waitForStep('chat-image', 140_000);
    const { page } = workbench;
    try {
      const response = page.locator('.interactive-item-container', { hasText: 'image-marker' }).last();
      await response.waitFor({ timeout: 20_000 });
      const img = response.locator('img[src^="data:image/"]');
      await img.first().waitFor({ timeout: 10_000 });
      await page.waitForFunction(el => el.complete, await img.first().elementHandle(), { timeout: 10_000 });
      const images = await img.evaluateAll(els => els.map(e => ({ src: e.getAttribute('src').slice(0, 60), width: e.naturalWidth })));
      await screenshot('chat-image');
      await stepDone('chat-image', { images });
    } catch (e) {
      await screenshot('chat-image-failure').catch(() => undefined);
      await stepDone('chat-image', { error: String(e) });
      throw e;
    }
  });
});

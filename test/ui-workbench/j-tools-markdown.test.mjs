// Reads @mcp /tools's response in the Chat view (test/integration/workbench/j-tools-markdown.test.ts
// asked it): the line of the hostile server's tool, and any link, image or bold text rendered from it.
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

describe('@mcp /tools with a hostile server description (Playwright)', function () {
  this.timeout(150_000);

  it('reads the listing as rendered', async () => {
    await waitForStep('tools-markdown', 140_000);
    try {
      const item = workbench.page.locator('.interactive-response').last().locator('li', { hasText: 'hostile_tool-0' });
      await item.waitFor({ state: 'visible', timeout: 30_000 });
      const line = (await item.innerText()).replace(/\u00a0/g, ' ').replace(/\s+/g, ' ').trim();
      // A bare URL may be linkified by the chat (its text is then its address); a link whose text is
      // something else was made from the server's Markdown.
      const disguisedLinks = await item.locator('a').evaluateAll(as => as
        .map(a => ({ text: a.textContent?.trim() ?? '', href: a.getAttribute('href') ?? a.getAttribute('data-href') ?? '' }))
        .filter(l => l.href && !l.href.startsWith(l.text) && !l.text.startsWith(l.href))
        .map(l => `${l.text} -> ${l.href}`));
      const images = await item.locator('img').count();
      const bold = await item.locator('strong, b').filter({ hasText: 'Approved' }).count();
      await screenshot('tools-markdown');
      await stepDone('tools-markdown', { line, disguisedLinks, images, bold });
    } catch (e) {
      await screenshot('tools-markdown-failure').catch(() => undefined);
      await stepDone('tools-markdown', { error: String(e) });
      throw e;
    }
  });
});

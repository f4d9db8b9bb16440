// Reads the invocation message VS Code shows for mcpHost_callTool in the Chat view (test/integration/
// workbench/g-invocation-message.test.ts started it), while MCP Host's consent QuickPick is open; then denies.
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

const widget = () => workbench.page.locator('.quick-input-widget');

describe('chat: mcpHost_callTool invocation message (Playwright)', function () {
  this.timeout(150_000);

  it('shows the invocation message while the consent is open, then denies', async () => {
    const expected = await waitForStep('invocation-message', 140_000);
    const { page } = workbench;
    try {
      await widget().locator('.quick-input-title', { hasText: `"${expected.server}"` }).waitFor({ state: 'visible', timeout: 30_000 });
      const response = page.locator('.interactive-item-container', { hasText: 'Running MCP tool' }).last();
      await response.waitFor({ timeout: 20_000 });
      const message = (await response.innerText()).replace(/\u00a0/g, ' ').split('\n').find(l => l.includes('Running MCP tool'))?.trim();
      const links = await response.locator('a[href*="attacker.example"]').count();
      const headings = await response.locator('h1, h2, h3').filter({ hasText: 'Approved' }).count();
      await screenshot('invocation-message');
      await widget().locator('.monaco-list-row', { hasText: 'Deny' }).first().click();
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
      await stepDone('invocation-message', { message, links, headings });
    } catch (e) {
      await screenshot('invocation-message-failure').catch(() => undefined);
      await stepDone('invocation-message', { error: String(e) });
      throw e;
    }
  });
});

// The empty Servers view's welcome, then its "Add Server" button through to "Workspace settings"
// (test/integration/workbench/e-welcome.test.ts declares no servers first and checks where the
// declaration landed).
import * as assert from 'node:assert/strict';
import { stepDone, waitForStep } from './bridge.mjs';
import { activityBarItem, screenshot, sidebarTree, workbench } from './workbench.mjs';

const widget = () => workbench.page.locator('.quick-input-widget');
const row = (text) => widget().locator('.monaco-list-row', { hasText: text });
async function answer(expect, text) {
  await widget().getByText(expect).first().waitFor();
  await widget().locator('input.input').first().fill(text);
  await workbench.page.keyboard.press('Enter');
}

describe('welcome view in the workbench (Playwright)', function () {
  this.timeout(180_000);

  it('shows the welcome with no servers; "Add Server" adds one to the workspace settings', async () => {
    const { script, name } = await waitForStep('welcome-add', 170_000);
    const { page } = workbench;
    try {
      if (!(await page.locator('.part.sidebar .pane-header', { hasText: 'Servers' }).isVisible())) await activityBarItem('MCP').click();
      const welcome = page.locator('.part.sidebar .welcome-view-content', { hasText: 'No MCP servers are configured yet.' });
      await welcome.waitFor({ timeout: 15_000 });
      assert.equal(await sidebarTree('Servers').locator('.monaco-list-row').count(), 0);
      for (const b of ['Add Server', 'Import from Claude Desktop, Cursor or VS Code']) await welcome.getByRole('button', { name: b }).waitFor();
      await screenshot('servers-welcome');
      await welcome.getByRole('button', { name: 'Add Server' }).click();
      await answer('Command (stdio)', 'Command');
      await answer('Command line that starts the server', `node "${script}"`);
      await row('Continue').click();
      await answer('Name of the server', name);
      await answer('Workspace settings', 'Workspace settings');
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
      await stepDone('welcome-add', {});
    } catch (e) {
      await screenshot('welcome-failure').catch(() => undefined);
      await stepDone('welcome-add', { error: String(e) });
      throw e;
    }
  });
});

// A server's icon and Open Website in the Servers view (test/integration/workbench/k-server-website.test.ts
// declared an honest and a hostile server): reads the row's icon as drawn, the hostile row's context menu,
// then Open Website on the honest row, which asks for confirmation first (a modal, which VS Code refuses
// while tests run, so the page is not opened).
import * as assert from 'node:assert/strict';
import { stepDone, waitForStep } from './bridge.mjs';
import { activityBarItem, screenshot, treeRow, workbench } from './workbench.mjs';

/** The context menu a right-click on `row` opens, and its labels. */
async function contextMenu(row) {
  const { page } = workbench;
  await row.click({ button: 'right' });
  const menu = page.locator('.monaco-menu:visible').last();
  await menu.waitFor({ state: 'visible', timeout: 10_000 });
  const labels = (await menu.locator('.action-item .action-label').allInnerTexts()).map(s => s.trim()).filter(Boolean);
  return { menu, labels };
}

describe('a server\'s icon and Open Website (Playwright)', function () {
  this.timeout(150_000);

  it('reads the icon and the hostile row\'s menu; Open Website on the honest row asks before opening', async () => {
    const { iconFile } = await waitForStep('server-website', 140_000);
    const { page } = workbench;
    try {
      if (!(await page.locator('.part.sidebar .pane-header', { hasText: 'Servers' }).isVisible())) await activityBarItem('MCP').click();
      const branded = treeRow('Servers', 'branded');
      await branded.waitFor({ timeout: 20_000 });
      // VS Code draws a TreeItem's file icon as the background image of the row's icon element.
      const icon = branded.locator('.custom-view-tree-node-item-icon');
      await page.waitForFunction(([el, file]) => getComputedStyle(el).backgroundImage.includes(file), [await icon.elementHandle(), iconFile], { timeout: 15_000 });

      const hostile = treeRow('Servers', 'hostile');
      await hostile.waitFor({ timeout: 20_000 });
      const { labels: hostileMenu } = await contextMenu(hostile);
      await page.keyboard.press('Escape');
      await page.locator('.monaco-menu:visible').waitFor({ state: 'detached', timeout: 10_000 });

      const { menu, labels } = await contextMenu(branded);
      assert.ok(labels.includes('Open Website'), `the menu: ${JSON.stringify(labels)}`);
      // VS Code refuses modal dialogs while extension tests run ("refused to show dialog in tests") and
      // says so on the console with the dialog's message: proof the command asked before opening anything.
      const refused = page.waitForEvent('console', { predicate: m => /refused to show dialog in tests\. Contents: Open the website of MCP server "branded"\?/.test(m.text()), timeout: 15_000 });
      // Hover to focus the entry, then Enter, as a keyboard user does: a click right after the menu opens is sometimes taken as the end of the right-click.
      await menu.locator('.action-item .action-label', { hasText: /^Open Website$/ }).hover();
      await menu.locator('.action-item.focused .action-label', { hasText: /^Open Website$/ }).waitFor({ timeout: 5_000 });
      await page.keyboard.press('Enter');
      await refused;
      await screenshot('server-website');
      await stepDone('server-website', { hostileMenu });
    } catch (e) {
      await screenshot('server-website-failure').catch(() => undefined);
      await stepDone('server-website', { error: String(e) });
      throw e;
    }
  });
});

// The Simplified Chinese UI as a person sees it, in the workbench of the `zh-cn` run (display language
// zh-cn through the fixture language pack): the MCP view's titles and a disabled server's state, and our
// commands in the Command Palette. Screenshot: .test-artifacts/zh-cn-zh-cn.png (with
// MCP_HOST_UPDATE_SCREENSHOTS=1 also media/screenshots/zh-cn.png for the README).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { activityBarItem, mouseAway, screenshot, setSidebarWidth, treeRow, workbench, workbenchReady } from './workbench.mjs';

const README_SHOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'media', 'screenshots', 'zh-cn.png');

describe('Simplified Chinese (workbench UI)', function () {
  this.timeout(60_000);
  before(async () => {
    await workbenchReady();
    await workbench.page.setViewportSize({ width: 1100, height: 620 });
  });
  after(() => workbench.page.keyboard.press('Escape'));

  it('shows the MCP view and our commands in Chinese', async () => {
    const { page } = workbench;
    await activityBarItem('MCP').click();
    const sidebar = page.locator('.part.sidebar');
    await sidebar.locator('.pane-header', { hasText: '服务器' }).first().waitFor();
    await sidebar.locator('.pane-header', { hasText: '资源' }).first().waitFor();
    const paused = treeRow('服务器', 'paused');
    await paused.locator('.label-description', { hasText: '已禁用' }).waitFor({ timeout: 25_000 });
    await treeRow('服务器', 'everything').locator('.label-description', { hasText: '个工具' }).waitFor({ timeout: 25_000 });
    await setSidebarWidth(380);

    const input = page.locator('.quick-input-widget input');
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    // Every command whose Chinese title mentions 服务器 ("server"); the palette list is virtualised, so filter it short.
    const query = '>服务器';
    // The extension-host tests of this run open their own QuickInput (the Add Server flow) and close it
    // while this suite runs, which can replace or close the palette at any step here, even once our rows
    // were asked for. That, and only that, is a reason to open it again: a palette still showing our query
    // without the rows is a failure.
    for (let attempt = 0; ; attempt++) {
      await page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 5_000 });
        await input.fill(query, { timeout: 5_000 });
        for (const title of ['MCP: 向 MCP Host 添加服务器…', 'MCP: 导入服务器…']) {
          await rows.filter({ hasText: title }).first().waitFor({ timeout: 10_000 });
        }
        break;
      } catch (e) {
        const stillOurs = await input.isVisible() && (await input.inputValue({ timeout: 1_000 }).catch(() => '')) === query;
        if (stillOurs || attempt >= 4) throw e;
        console.log(`      (the palette was closed or taken over by another QuickInput; opening it again: ${String(e.message ?? e).split('\n')[0]})`);
        await page.keyboard.press('Escape');
        await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      }
    }
    await mouseAway(1000, 600);
    await screenshot('zh-cn', { also: process.env.MCP_HOST_UPDATE_SCREENSHOTS === '1' ? [README_SHOT] : [] });
  });
});

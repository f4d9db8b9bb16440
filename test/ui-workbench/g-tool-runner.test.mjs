// The tool runner driven like a person (issue 21): the extension-host test (test/integration/workbench/
// g-tool-runner.test.ts) declares server-everything and hands over; here we open the Servers view,
// expand the server, click the "Run Tool…" action on get-sum's row, type both numbers, run, allow the
// call in the consent prompt and read the result in the editor.
import { stepDone, waitForStep } from './bridge.mjs';
import { activityBarItem, screenshot, sidebarTree, treeRow, workbench } from './workbench.mjs';

const widget = () => workbench.page.locator('.quick-input-widget');
const box = () => widget().locator('.quick-input-box input');
const title = () => widget().locator('.quick-input-title');

/** Waits until the widget shows step `n` of `total` and accepts keys. */
async function atStep(n, total) {
  await title().filter({ hasText: new RegExp(`\\(${n}/${total}\\)\\s*$`) }).waitFor({ state: 'visible', timeout: 15_000 });
  const end = Date.now() + 15_000;
  while (!(await box().isEnabled())) {
    if (Date.now() > end) throw new Error('the quick input stayed disabled');
    await workbench.page.waitForTimeout(50);
  }
}

async function typeAndEnter(text) {
  await box().focus();
  await workbench.page.keyboard.type(text);
  await workbench.page.keyboard.press('Enter');
}

describe('tool runner in the workbench (server-everything, Playwright)', function () {
  this.timeout(180_000);

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot('tool-runner-failed').catch(() => undefined);
  });

  it('Run Tool… on a tool row: fill the form, allow, see the result', async () => {
    await waitForStep('tool-runner', 150_000);
    const { page } = workbench;
    try {
      if (!(await page.locator('.part.sidebar .pane-header', { hasText: 'Servers' }).isVisible())) await activityBarItem('MCP').click();
      const server = treeRow('Servers', 'everything');
      await server.waitFor({ timeout: 20_000 });
      if ((await server.getAttribute('aria-expanded')) !== 'true') await server.click();
      // The list is virtual: scroll until the tool's row is rendered.
      const tool = treeRow('Servers', 'Get Sum Tool');
      for (let i = 0; i < 40 && !(await tool.count()); i++) {
        await sidebarTree('Servers').hover();
        await page.mouse.wheel(0, 120);
        await page.waitForTimeout(50);
      }
      await tool.hover();
      await tool.locator('.action-label[aria-label^="Run Tool"]').click();

      await atStep(1, 3);
      await title().filter({ hasText: /Run tool Get Sum Tool \(everything\)/ }).waitFor({ timeout: 5000 });
      await typeAndEnter('2');
      await atStep(2, 3);
      await typeAndEnter('3');
      await atStep(3, 3);
      await page.keyboard.press('Enter'); // "Run" is the active item of the review

      // The usual consent: Deny is the active item, so a person clicks "Allow once".
      await title().filter({ hasText: /wants to run tool "get-sum"/ }).waitFor({ timeout: 15_000 });
      await widget().locator('.monaco-list-row', { hasText: 'Allow once' }).click();

      await page.locator('.monaco-editor .view-lines', { hasText: /The\s+sum\s+of\s+2\s+and\s+3\s+is\s+5/ }).first().waitFor({ timeout: 20_000 });
      await screenshot('tool-runner');
    } finally {
      await stepDone('tool-runner');
    }
  });
});

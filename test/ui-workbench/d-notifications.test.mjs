// Clicks "Show Log" on the error notification of the failing server that test/integration/workbench/
// d-notifications.test.ts declared, and checks that the Output view shows that server's channel
// with the failure in it. Reports `{ channel }` (or `{ error }`) back to the extension-host test.
import * as assert from 'node:assert/strict';
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

describe('error notification in the workbench (Playwright)', function () {
  this.timeout(180_000);

  it('"Show Log" on the notification shows the server\'s output channel', async () => {
    const { server } = await waitForStep('show-log', 170_000);
    const { page } = workbench;
    try {
      // In this run the workbench keeps new notifications out of the toasts (they go to the
      // notification center): open the center as a person would, from the status-bar bell.
      await page.locator('.part.statusbar .statusbar-item[id="status.notifications"] a, .part.statusbar .statusbar-item[id="status.notifications"]').first().click();
      const item = page.locator('.notifications-center .notification-list-item', { hasText: `MCP server "${server}"` });
      await item.waitFor({ state: 'visible', timeout: 20_000 });
      await item.getByRole('button', { name: 'Show Log' }).click();
      const picker = page.locator('.part.panel select.monaco-select-box').first();
      await page.waitForFunction(
        (name) => [...document.querySelectorAll('.part.panel select.monaco-select-box')].some(s => s.selectedOptions[0]?.text === name),
        `MCP: ${server}`, { timeout: 15_000 });
      const channel = await picker.evaluate(s => s.selectedOptions[0]?.text);
      // The channel's content: the server's own stderr line, so it is this server's log.
      await page.locator('.part.panel .monaco-editor .view-lines', { hasText: /broken-server-marker/ }).waitFor({ timeout: 15_000 });
      assert.equal(channel, `MCP: ${server}`);
      await screenshot('show-log');
      await stepDone('show-log', { channel });
    } catch (e) {
      await screenshot('show-log-failure').catch(() => undefined);
      await stepDone('show-log', { error: String(e) });
      throw e;
    }
  });

  it('the notification of a server with hostile stderr, as a person reads it', async () => {
    const { server } = await waitForStep('hostile-notification', 170_000);
    const { page } = workbench;
    try {
      const center = page.locator('.notifications-center');
      if (!(await center.isVisible())) await page.locator('.part.statusbar .statusbar-item[id="status.notifications"] a, .part.statusbar .statusbar-item[id="status.notifications"]').first().click();
      const items = page.locator('.notifications-center .notification-list-item', { hasText: `MCP server "${server}"` });
      await items.first().waitFor({ state: 'visible', timeout: 20_000 });
      // A second notification of the same failure would arrive right after the first.
      await page.waitForTimeout(1000);
      const count = await items.count();
      const item = items.first();
      const message = item.locator('.notification-list-item-message');
      const text = await message.evaluate(e => e.textContent ?? '');
      const links = await message.locator('a').evaluateAll(as => as.map(a => a.outerHTML));
      const buttons = await item.locator('.notification-list-item-buttons-container .monaco-button').evaluateAll(bs => bs.map(b => (b.textContent ?? '').trim()));
      await screenshot('hostile-notification');
      await stepDone('hostile-notification', { count, text, links, buttons });
    } catch (e) {
      await screenshot('hostile-notification-failure').catch(() => undefined);
      await stepDone('hostile-notification', { error: String(e) });
      throw e;
    }
  });

  /** The notification whose text has `match`, read from the notification center: its text and its links. */
  async function readNotification(step) {
    const { match } = await waitForStep(step, 170_000);
    const { page } = workbench;
    try {
      const center = page.locator('.notifications-center');
      if (!(await center.isVisible())) await page.locator('.part.statusbar .statusbar-item[id="status.notifications"] a, .part.statusbar .statusbar-item[id="status.notifications"]').first().click();
      const items = page.locator('.notifications-center .notification-list-item', { hasText: match });
      await items.first().waitFor({ state: 'visible', timeout: 20_000 });
      const message = items.first().locator('.notification-list-item-message');
      const text = await message.evaluate(e => e.textContent ?? '');
      const links = await message.locator('a').evaluateAll(as => as.map(a => a.outerHTML));
      await screenshot(step);
      const count = await items.count();
      // Close the center again: it would cover what the next suites click.
      await page.keyboard.press('Escape');
      await stepDone(step, { count, text, links });
    } catch (e) {
      await screenshot(`${step}-failure`).catch(() => undefined);
      await stepDone(step, { error: String(e) });
      throw e;
    }
  }

  it('the binary-resource notification, as a person reads it: no link', () => readNotification('binary-notification'));

  it('the dev.watch limit notification, as a person reads it: no link', () => readNotification('watch-notification'));

  it('the Run Prompt error notification, as a person reads it: no link', () => readNotification('prompt-error-notification'));

  it('the elicitation notification, as a person reads it: no link', () => readNotification('elicitation-notification'));

  it('the Run Tool progress notification, as a person reads it: no link', () => readNotification('progress-notification'));

  it('the elicitation InputBox (notification suite) is on screen before its validation message is read', async () => {
    await waitForStep('validation-box-shown', 170_000);
    try {
      await workbench.page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'visible', timeout: 20_000 });
      await stepDone('validation-box-shown', {});
    } catch (e) {
      await stepDone('validation-box-shown', { error: String(e) });
      throw e;
    }
  });

  it('the elicitation InputBox\'s validation message (notification suite), as a person reads it: no link', async () => {
    await waitForStep('validation-message', 170_000);
    const { page } = workbench;
    try {
      const message = page.locator('.quick-input-widget .quick-input-message');
      await page.waitForFunction(() => /is required/.test(document.querySelector('.quick-input-widget .quick-input-message')?.textContent ?? ''), undefined, { timeout: 20_000 });
      const text = await message.evaluate(e => e.textContent ?? '');
      const links = await message.locator('a').evaluateAll(as => as.map(a => a.outerHTML));
      await screenshot('validation-message');
      await stepDone('validation-message', { text, links });
    } catch (e) {
      await screenshot('validation-message-failure').catch(() => undefined);
      await stepDone('validation-message', { error: String(e) });
      throw e;
    }
  });
});

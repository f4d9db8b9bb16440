// MCP Apps driven like a person (issue 18): the extension-host test (test/integration/workbench/
// d-apps.test.ts) has @mcp run server-basic-vanillajs's get-time; here we find the app's frame inside
// the webview (page.frames()), click its buttons and answer what MCP Host asks.
import * as assert from 'node:assert/strict';
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

/** Polls `check` until it returns something truthy (the state a person would wait to see). */
async function until(check, what, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise(r => setTimeout(r, 100));
  }
}

/** The app's own frame: the sandboxed srcdoc frame inside MCP Host's webview. */
async function appFrame() {
  return until(async () => {
    for (const f of workbench.page.frames()) if (await f.locator('#get-time-btn').count().catch(() => 0)) return f;
    return undefined;
  }, () => `the app frame (frames: ${workbench.page.frames().map(f => f.url()).join(', ')})`);
}

const widget = () => workbench.page.locator('.quick-input-widget');

/** Runs `body` for step `name` and always answers the extension host (with `{ error }` when a check failed). */
async function answerStep(name, body) {
  const data = await waitForStep(name, 120_000);
  try {
    await stepDone(name, (await body(data)) ?? {});
  } catch (e) {
    await screenshot(`${name}-failure`).catch(() => undefined);
    await stepDone(name, { error: e instanceof Error ? e.message : String(e) });
    throw e;
  }
}

describe('MCP Apps in the workbench (Playwright)', function () {
  this.timeout(240_000);

  it('a click in the app runs get-time after consent and shows the new time', async () => {
    const { time } = await waitForStep('app-get-time', 200_000);
    const frame = await appFrame();
    const shown = () => frame.locator('#server-time').textContent();
    let last;
    await until(async () => (last = await shown()) === time, () => `the app to show ${time} (shows ${last})`);
    await screenshot('app');
    await frame.locator('#get-time-btn').click();
    // The app's call asks like a model's: the confirmation QuickPick names server and tool.
    await widget().locator('.quick-input-title', { hasText: /"basic".*"get-time"/ }).waitFor({ state: 'visible', timeout: 30_000 });
    await widget().locator('.monaco-list-row', { has: workbench.page.locator('.label-name', { hasText: /^\s*Allow once\s*$/ }) }).click();
    const after = await until(async () => { const t = await shown(); return t !== time && /^\d{4}-/.test(t ?? '') ? t : undefined; }, 'the new time in the app');
    await screenshot('app-after-click', { belowTitleBar: true, also: process.env.MCP_HOST_UPDATE_SCREENSHOTS === '1' ? [new URL('../../media/screenshots/mcp-app.png', import.meta.url).pathname] : [] });
    await stepDone('app-get-time', { before: time, after });
  });

  it('"Send Message" fills the chat input and sends nothing', async () => {
    await waitForStep('app-message', 120_000);
    const frame = await appFrame();
    await frame.locator('#send-message-btn').click();
    const { page } = workbench;
    await page.waitForFunction(t => [...document.querySelectorAll('.interactive-input-part .interactive-input-editor')]
      .some(e => (e.textContent ?? '').replace(/\u00a0/g, ' ').includes(t)), 'This is message text.', { timeout: 15_000 });
    assert.equal(await page.locator('.interactive-request', { hasText: 'This is message text.' }).count(), 0, 'not sent');
    await stepDone('app-message');
  });

  it('"Open Link" asks first, naming the host; Cancel opens nothing', async () => {
    await waitForStep('app-link', 120_000);
    const frame = await appFrame();
    await frame.locator('#open-link-btn').click();
    // The confirmation names the full host; Cancel is the active item.
    await widget().locator('.quick-input-title', { hasText: /"basic".*modelcontextprotocol\.io/ }).waitFor({ state: 'visible', timeout: 15_000 });
    // Only the labels on screen: the workbench recycles row elements and hides (display: none) a detail
    // line the new item lacks, keeping the old text (e.g. a sampling prompt's system prompt), and
    // innerText of a hidden element is its text content.
    const rows = (await widget().locator('.monaco-list-row').filter({ visible: true }).locator('.label-name').filter({ visible: true }).allInnerTexts()).map(t => t.trim());
    assert.deepEqual(rows, ['Cancel', 'Open modelcontextprotocol.io', 'https://modelcontextprotocol.io/']);
    await screenshot('app-link-consent');
    await widget().locator('.monaco-list-row', { has: workbench.page.locator('.label-name', { hasText: /^\s*Cancel\s*$/ }) }).click();
    await widget().waitFor({ state: 'hidden', timeout: 15_000 });
    await stepDone('app-link');
  });

  it('the theme switch reaches the app', async () => {
    const { theme } = await waitForStep('app-theme', 120_000);
    const frame = await appFrame();
    await until(async () => (await frame.evaluate(() => document.documentElement.getAttribute('data-theme'))) === theme, `data-theme=${theme} in the app`);
    await stepDone('app-theme');
  });

  it('"Open app" in the response brings the closed app back', async () => {
    await answerStep('app-reopen', async ({ time }) => {
      const { page } = workbench;
      // (its accessible name is the tooltip, so find it by its text)
      const button = page.locator('.interactive-response').last().locator('.monaco-button', { hasText: /^\s*Open app\s*$/ });
      await button.waitFor({ state: 'visible', timeout: 15_000 });
      await screenshot('app-open-button');
      await button.click();
      const frame = await appFrame();
      await until(async () => (await frame.locator('#server-time').textContent()) === time, `the reopened app to show ${time}`);
    });
  });

  it('/tools marks the tool that has an app', async () => {
    await answerStep('app-tools', async () => {
      const item = workbench.page.locator('.interactive-response').last().locator('li', { hasText: 'basic_get-time' });
      await item.waitFor({ state: 'visible', timeout: 15_000 });
      return { line: (await item.innerText()).replace(/\s+/g, ' ') };
    });
  });

  /**
   * The save dialog (the workbench's own file dialog in the browser), its title naming the server, once
   * it shows `expected` (it shows other folders first while it reads them; a different proposal times out).
   */
  async function saveDialog(expected) {
    await widget().locator('.quick-input-title', { hasText: /app of MCP server "pushy" offers/ }).waitFor({ state: 'visible', timeout: 30_000 });
    const input = widget().locator('input.input').first();
    let value = '';
    await until(async () => (value = await input.inputValue()) === expected, () => `the save dialog to propose ${expected} (shows "${value}")`, 15_000);
    return { input, value };
  }

  it('a download asks where to save: Escape writes nothing', async () => {
    await answerStep('app-download-cancel', async ({ expected }) => {
      const { input, value } = await saveDialog(expected);
      await screenshot('app-download');
      // On the dialog's input: the app's webview may have the keyboard focus.
      await input.press('Escape');
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
      return { value };
    });
  });

  it('a download asks where to save: Enter saves to the proposed file', async () => {
    await answerStep('app-download-save', async ({ expected }) => {
      const { input, value } = await saveDialog(expected);
      await input.press('Enter');
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
      return { value };
    });
  });

  it('a click on the app\'s own button is the user gesture its fullscreen request needs', async () => {
    await answerStep('app-fullscreen-click', async () => {
      const frame = await until(async () => {
        for (const f of workbench.page.frames()) if (await f.locator('#fullscreen-btn').count().catch(() => 0)) return f;
        return undefined;
      }, 'the pushy app frame with its fullscreen button');
      await frame.locator('#fullscreen-btn').click();
    });
  });

  it('the app\'s message is in the chat input with its references inert', async () => {
    await answerStep('app-message-inert', async ({ expected }) => {
      const { page } = workbench;
      const read = () => page.evaluate(() => [...document.querySelectorAll('.interactive-input-part .interactive-input-editor')].map(e => (e.textContent ?? '').replace(/\u00a0/g, ' ')).join('\n'));
      let text = '';
      await until(async () => (text = await read()).includes(expected), () => `the chat input to hold the message (holds "${text}")`, 15_000);
      await screenshot('app-message-inert');
      return { text };
    });
  });
});

// Elicitation driven like a person (issue 7): the extension-host test (test/integration/workbench/
// b-elicitation.test.ts) starts server-everything's elicitation and hands over a step; here we type with
// the keyboard, click rows and buttons of `.quick-input-widget`, then report the step done. The
// extension-host test checks what the server received.
import * as assert from 'node:assert/strict';
import { stepDone, waitForStep } from './bridge.mjs';
import { screenshot, workbench } from './workbench.mjs';

const TOTAL = 14; // 13 fields of trigger-elicitation-request + the review
const widget = () => workbench.page.locator('.quick-input-widget');
const box = () => widget().locator('.quick-input-box input');
const title = () => widget().locator('.quick-input-title');
const message = () => widget().locator('.quick-input-message');

function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

/** Waits until the widget shows step `n` of the form (the title ends with "(n/14)") and is enabled again. */
async function atStep(n, total = TOTAL) {
  await title().filter({ hasText: new RegExp(`\\(${n}/${total}\\)\\s*$`) }).waitFor({ state: 'visible', timeout: 15_000 });
  await inputEnabled();
}

/** Waits until the InputBox accepts keys again (it is disabled while a step validates or changes). */
async function inputEnabled(timeoutMs = 15_000) {
  const end = Date.now() + timeoutMs;
  while (!(await box().isEnabled())) {
    if (Date.now() > end) throw new Error('the quick input stayed disabled');
    await workbench.page.waitForTimeout(50);
  }
}

/** The list row whose label reads `label` (codicons are not part of the text). */
function row(label) {
  return widget().locator('.monaco-list-row').filter({ has: workbench.page.locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) }) });
}

async function typeAndEnter(text) {
  await box().focus();
  await workbench.page.keyboard.type(text);
  await workbench.page.keyboard.press('Enter');
}

async function replaceAndEnter(text) {
  await box().focus();
  await workbench.page.keyboard.press('ControlOrMeta+A');
  await workbench.page.keyboard.type(text);
  await workbench.page.keyboard.press('Enter');
}

describe('elicitation in the workbench (server-everything, Playwright)', function () {
  this.timeout(180_000);

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot(`elicitation-failed-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  it('form: typed and clicked answers (with a rejected email and one Back) reach the server', async () => {
    await waitForStep('elicitation-form', 150_000);
    const { page } = workbench;
    try {
      await atStep(1);
      await title().filter({ hasText: /Please provide inputs/ }).waitFor({ timeout: 5000 });
      await typeAndEnter('Ada Lovelace');

      await atStep(2);
      await row('Yes').click();

      // Step 3 (first line, prefilled): go back once with the title bar's Back button and change step 2.
      await atStep(3);
      await widget().locator('.quick-input-titlebar .action-label[aria-label^="Back"]').click();
      await atStep(2);
      await row('No').click();

      await atStep(3);
      assert.equal(await box().inputValue(), 'It was a dark and stormy night.', 'the default is prefilled');
      await page.keyboard.press('Enter');

      // Email: an invalid address shows the validation message in the widget and blocks Enter.
      await atStep(4);
      await typeAndEnter('ada@');
      await message().filter({ hasText: /email address like/ }).waitFor({ state: 'visible', timeout: 10_000 });
      await screenshot('elicitation-form');
      await page.keyboard.press('Enter');
      await atStep(4); // Enter was refused: still on the email step, message still shown
      await message().filter({ hasText: /email address like/ }).waitFor({ state: 'visible', timeout: 10_000 });
      await replaceAndEnter('ada@example.com');

      await atStep(5);
      await typeAndEnter('https://ada.example.com/');
      await atStep(6);
      await page.keyboard.press('Enter'); // birthdate: optional, left empty → skipped
      await atStep(7);
      assert.equal(await box().inputValue(), '42');
      await replaceAndEnter('7');
      await atStep(8);
      await page.keyboard.press('Enter'); // number: default 3.14
      await atStep(9);
      await row('Joey').click();
      await atStep(10);
      await page.keyboard.press('Enter'); // instruments: default Guitar
      await atStep(11);
      await row('Wonder Woman').click();
      await atStep(12);
      await page.keyboard.press('Enter'); // fish: default Tuna
      await atStep(13);
      await row('Dogs').click();

      await atStep(14);
      await row('Submit').waitFor({ state: 'visible' });
      await screenshot('elicitation-form-review');
      await row('Submit').click();
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
    } finally {
      await stepDone('elicitation-form');
    }
  });

  it('form: Decline on the review step', async () => {
    await waitForStep('elicitation-form-decline', 150_000);
    const { page } = workbench;
    try {
      await atStep(1);
      await typeAndEnter('Someone');
      for (let step = 2; step < TOTAL; step++) {
        await atStep(step);
        await page.keyboard.press('Enter'); // defaults / skip
      }
      await atStep(TOTAL);
      await row('Decline').click();
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
    } finally {
      await stepDone('elicitation-form-decline');
    }
  });

  it('form: Escape cancels', async () => {
    await waitForStep('elicitation-form-escape', 150_000);
    try {
      await atStep(1);
      await box().focus();
      await workbench.page.keyboard.press('Escape');
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
    } finally {
      await stepDone('elicitation-form-escape');
    }
  });

  it('URL: the consent step shows the full URL and domain; Decline is sent and nothing opens', async () => {
    const { url, domain } = await waitForStep('elicitation-url', 150_000);
    try {
      await title().filter({ hasText: /asks you to open a link: Sign in to continue\./ }).waitFor({ state: 'visible', timeout: 15_000 });
      assert.match(await box().getAttribute('placeholder') ?? '', new RegExp(`The link goes to ${escapeRegExp(domain)}\\.`));
      const open = row(`Open ${domain}`);
      await open.waitFor({ state: 'visible' });
      await open.filter({ hasText: url }).waitFor({ state: 'visible', timeout: 5000 }); // the full URL as the item's detail
      await screenshot('elicitation-url');
      const pagesBefore = workbench.page.context().pages().length;
      await row('Decline').click();
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
      assert.equal(workbench.page.context().pages().length, pagesBefore, 'no page was opened');
    } finally {
      await stepDone('elicitation-url');
    }
  });

  it('URL: Open opens the page in the browser (the Playwright suite sees the new page)', async () => {
    const { url, domain } = await waitForStep('elicitation-url-open', 150_000);
    try {
      await title().filter({ hasText: /asks you to open a link: Sign in to continue\./ }).waitFor({ state: 'visible', timeout: 15_000 });
      const open = row(`Open ${domain}`);
      await open.filter({ hasText: url }).waitFor({ state: 'visible', timeout: 5000 });
      // The real opener: VS Code's openExternal opens a new browser page (no test hook in between).
      const opened = workbench.page.context().waitForEvent('page', { timeout: 15_000 });
      await open.click();
      const popup = await opened;
      // The page the loopback server serves (code-server may route loopback links through its own proxy path).
      await popup.locator('body', { hasText: /You can close this page/ }).waitFor({ timeout: 15_000 });
      const shown = new URL(popup.url());
      assert.ok(shown.pathname.endsWith('/signin/continue') && shown.searchParams.get('next') === '/home', popup.url());
      await popup.close();
      await widget().waitFor({ state: 'hidden', timeout: 15_000 });
    } finally {
      await stepDone('elicitation-url-open');
    }
  });
});

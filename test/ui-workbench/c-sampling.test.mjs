// Sampling consent as a person does it in the workbench (issue 6), driven step by step by
// test/integration/workbench/c-sampling.test.ts, which starts server-everything's
// trigger-sampling-request with policy "ask" and checks what the server got back.
// Screenshots: .test-artifacts/workbench-sampling-{approval,review,edit,reject}.png.
import * as assert from 'node:assert/strict';
import { screenshot, workbench, workbenchReady } from './workbench.mjs';
import { stepDone, waitForStep } from './bridge.mjs';

const widget = () => workbench.page.locator('.quick-input-widget');
const row = (text) => widget().locator('.monaco-list-row', { hasText: text });
const input = () => widget().locator('input.input').first();

/** Waits until the quick input shows a title matching `re` (the previous prompt may still be fading out). */
async function waitTitle(re, timeout = 20_000) {
  await widget().locator('.quick-input-title', { hasText: re }).waitFor({ state: 'visible', timeout });
}

/** The consent prompt of request `entryId`; checks that it names the server and shows model, maxTokens and messages. */
async function checkConsent({ entryId, prompt, maxTokens }) {
  await waitTitle(new RegExp(`MCP server "everything" wants to use a language model \\(request #${entryId}\\)`));
  await row('Allow once').waitFor();
  const placeholder = (await input().getAttribute('placeholder')) ?? '';
  assert.match(placeholder, /Scripted .* \(scripted\/scripted-[a-z]+\)/, 'the model');
  if (maxTokens !== undefined) assert.match(placeholder, new RegExp(`up to ${maxTokens} tokens`), 'maxTokens');
  for (const label of ['Always allow "everything"', 'Edit the request', 'Use another model', 'Show the full request', 'Reject']) {
    await row(label).first().waitFor({ timeout: 5_000 });
  }
  await row('You are a helpful test server.').waitFor({ timeout: 5_000 }); // system prompt
  if (prompt) await row(`Resource trigger-sampling-request context: ${prompt}`).waitFor({ timeout: 5_000 }); // the user message
}

/** Runs `body` for step `name` and always answers the extension host (with `{ error }` when a check failed). */
async function doStep(name, body) {
  const data = await waitForStep(name, 240_000);
  try {
    const result = await body(data);
    await stepDone(name, result ?? {});
  } catch (e) {
    await screenshot(`${name}-failure`).catch(() => undefined);
    await stepDone(name, { error: e instanceof Error ? e.message : String(e) });
    throw e;
  }
}

describe('sampling in the workbench (Playwright)', function () {
  this.timeout(300_000);
  before(() => workbenchReady());
  after(() => workbench.page.keyboard.press('Escape').catch(() => undefined));

  it('approve once, then send the answer back', async () => {
    await doStep('sampling-approve', async (data) => {
      await checkConsent(data);
      await screenshot('sampling-approval');
      await row('Allow once').click();
      // The review of the answer: the scripted reply, then "Send the answer".
      await waitTitle(new RegExp(`Return this answer to MCP server "everything"\\? \\(request #${data.entryId}\\)`));
      await row(data.reply).waitFor();
      assert.match((await input().getAttribute('placeholder')) ?? '', /stop reason: endTurn/);
      await screenshot('sampling-review');
      await row('Send the answer to "everything"').click();
      await widget().waitFor({ state: 'hidden' });
    });
  });

  it('edit the answer in the editor beside the review, then send it', async () => {
    const { page } = workbench;
    await doStep('sampling-edit', async (data) => {
      await checkConsent(data);
      await row('Allow once').click();
      await waitTitle(/Return this answer to MCP server "everything"/);
      await row(data.draft).waitFor();
      await row('Edit the answer').click();
      // The answer opens in an untitled editor beside; the prompt stays open while the user types.
      await waitTitle(/Edit the answer in the editor/);
      const editor = page.locator('.editor-instance .monaco-editor', { hasText: new RegExp(data.draft.replace(/ /g, '\\s')) });
      await editor.waitFor({ state: 'visible' });
      await editor.locator('.view-lines').click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(data.edited);
      // (the draft text is gone now, so look for the editor by its new text)
      await page.locator('.editor-instance .monaco-editor .view-lines', { hasText: new RegExp(`^${data.edited.replace(/ /g, '\\s')}$`) }).waitFor();
      await screenshot('sampling-edit');
      await row('Send the edited answer').click();
      // Back in the review, now with the edited text.
      await waitTitle(/Return this answer to MCP server "everything"/);
      await row(data.edited).waitFor();
      await row('Send the answer to "everything"').click();
      await widget().waitFor({ state: 'hidden' });
    });
  });

  it('reject in the consent prompt', async () => {
    await doStep('sampling-reject', async (data) => {
      await checkConsent(data);
      assert.equal(await row('Reject').count(), 1);
      await row('Reject').hover();
      await screenshot('sampling-reject');
      await row('Reject').click();
      await widget().waitFor({ state: 'hidden' });
    });
  });

  it('Enter on the fresh consent prompt rejects', async () => {
    await doStep('sampling-enter', async (data) => {
      await waitTitle(new RegExp(`MCP server "everything" wants to use a language model \\(request #${data.entryId}\\)`));
      // A stray Enter (the user was typing elsewhere when the prompt appeared) picks the active item: Reject.
      await widget().locator('.monaco-list-row.focused').first().waitFor({ timeout: 10_000 });
      await workbench.page.keyboard.press('Enter');
      await widget().waitFor({ state: 'hidden' });
    });
  });
});

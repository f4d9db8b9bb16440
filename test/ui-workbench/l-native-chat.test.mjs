// MCP Host's server in VS Code's own chat UI, worked like a person (issue 31): the extension-host test
// (test/integration/workbench/l-native-chat.test.ts) has VS Code start our native definition of
// server-everything; here we type `/mcp.everything.` into VS Code's chat input, pick the prompt from the
// suggestions, answer its arguments, and read the input VS Code fills; then Add Context… › MCP Resources…,
// pick the resource under the server's name, see the chip, and send @mcp a question with it attached.
import { stepDone, waitForStep } from './bridge.mjs';
import { mouseAway, screenshot, workbench } from './workbench.mjs';

const SCREENSHOT = new URL('../../media/screenshots/native-chat.png', import.meta.url).pathname;

const page = () => workbench.page;
const inputPart = () => page().locator('.interactive-input-part').filter({ visible: true }).first();
const inputEditor = () => inputPart().locator('.interactive-input-editor .monaco-editor').first();
const inputText = async () => (await inputPart().locator('.interactive-input-editor .view-lines').innerText()).replace(/\u00a0/g, ' ').trim();
const suggest = () => page().locator('.editor-widget.suggest-widget.visible');
const quick = () => page().locator('.quick-input-widget');
const quickBox = () => quick().locator('.quick-input-box input');
const quickTitle = () => quick().locator('.quick-input-title');

function escapeRegExp(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

/** The smallest page rectangle holding every one of `locators`, with a margin, inside the page. */
async function around(...locators) {
  const boxes = await Promise.all(locators.map(async l => {
    const b = await l.first().boundingBox();
    if (!b) throw new Error(`not visible: ${l}`);
    return b;
  }));
  const size = page().viewportSize();
  const m = 16;
  const x = Math.max(0, Math.min(...boxes.map(b => b.x)) - m);
  const y = Math.max(0, Math.min(...boxes.map(b => b.y)) - m);
  const right = Math.min(size.width, Math.max(...boxes.map(b => b.x + b.width)) + m);
  const bottom = Math.min(size.height, Math.max(...boxes.map(b => b.y + b.height)) + m);
  return { x, y, width: right - x, height: bottom - y };
}

/** Empties the chat input (select all, delete) and leaves the focus in it. */
async function clearInput() {
  await inputEditor().click();
  await page().keyboard.press('ControlOrMeta+A');
  await page().keyboard.press('Backspace');
}

/** Closes whatever quick input or suggest widget is open. */
async function escapeAll() {
  for (let i = 0; i < 3 && ((await quick().isVisible()) || (await suggest().isVisible())); i++) await page().keyboard.press('Escape');
}

/** Waits until the quick input titled `title` accepts keys; returns the title as shown. */
async function quickStep(title) {
  const t = quickTitle().filter({ hasText: new RegExp(`^\\s*${escapeRegExp(title)}`) });
  await t.waitFor({ state: 'visible', timeout: 20_000 });
  const end = Date.now() + 15_000;
  while (!(await quickBox().isEnabled())) {
    if (Date.now() > end) throw new Error(`the quick input "${title}" stayed disabled`);
    await page().waitForTimeout(50);
  }
  return title;
}

describe('VS Code\'s own chat: an MCP Host server\'s prompt as its / command, its resource through Add Context (Playwright)', function () {
  this.timeout(200_000);

  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot('native-chat-failed').catch(() => undefined);
  });

  it('the server\'s prompt is a / command of VS Code\'s chat input; run with its arguments, VS Code inserts the text MCP Host fetched', async () => {
    const { server, prompt, city, state } = await waitForStep('native-prompt', 190_000);
    const result = {};
    let failure;
    try {
      await inputEditor().waitFor({ state: 'visible', timeout: 30_000 });
      await clearInput();
      // VS Code names the command `/mcp.<definition label>.<prompt name>`: our label is the server's name.
      await page().keyboard.type(`/mcp.${server}.`);
      await suggest().locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout: 30_000 });
      result.suggestions = (await suggest().locator('.monaco-list-row .label-name').allInnerTexts()).map(s => s.trim());
      await mouseAway(5, 300);
      // The README picture: the Chat view's input with VS Code's / suggestions, our server's prompts in them.
      await screenshot('native-chat-prompts', { clip: await around(inputPart(), suggest()), also: process.env.MCP_HOST_UPDATE_SCREENSHOTS === '1' ? [SCREENSHOT] : [] });
      const row = suggest().locator('.monaco-list-row', { has: page().locator('.label-name', { hasText: new RegExp(`^\\s*/mcp\\.${escapeRegExp(server)}\\.${escapeRegExp(prompt)}\\s*$`) }) });
      await row.click();
      // VS Code's own argument quick input, one step per argument; "Insert as text" takes what is typed.
      result.titles = [];
      result.titles.push(await quickStep('Value for: city'));
      await page().keyboard.type(city);
      await page().keyboard.press('Enter');
      result.titles.push(await quickStep('Value for: state'));
      await page().keyboard.type(state);
      await page().keyboard.press('Enter');
      await quick().waitFor({ state: 'hidden', timeout: 20_000 });
      // The / command is replaced with the prompt's messages once VS Code has them.
      const end = Date.now() + 20_000;
      while ((result.input = await inputText()).startsWith('/mcp.') || result.input === '') {
        if (Date.now() > end) throw new Error(`the chat input still reads "${result.input}"`);
        await page().waitForTimeout(100);
      }
      await screenshot('native-chat-prompt-inserted');
    } catch (e) {
      failure = e;
      result.error = String(e).split('\n')[0];
      await screenshot('native-chat-prompt-failure').catch(() => undefined);
    } finally {
      await escapeAll().catch(() => undefined);
      await clearInput().catch(() => undefined);
      await stepDone('native-prompt', result);
    }
    if (failure) throw failure;
  });

  it('Add Context › MCP Resources lists the server\'s resources; the attached one is read through MCP Host when sent', async () => {
    const { resource, agent, question } = await waitForStep('native-resource', 190_000);
    const result = {};
    let failure;
    try {
      await inputEditor().waitFor({ state: 'visible', timeout: 30_000 });
      await inputPart().locator('.action-label[aria-label^="Add Context..."]').first().click();
      const mcpResources = quick().locator('.monaco-list-row', { has: page().locator('.label-name', { hasText: /^\s*MCP Resources\.\.\.\s*$/ }) });
      await mcpResources.waitFor({ state: 'visible', timeout: 20_000 });
      await mcpResources.click();
      // The resource picker: a separator per server (its definition label), a row per resource.
      await quick().locator('.quick-input-box input[placeholder="Select MCP Resource..."]').waitFor({ state: 'visible', timeout: 20_000 });
      const ours = quick().locator('.monaco-list-row', { has: page().locator('.label-name', { hasText: new RegExp(`^\\s*${escapeRegExp(resource)}\\s*$`) }) });
      await quick().locator('.monaco-list-row .label-name').first().waitFor({ state: 'visible', timeout: 30_000 });
      await quick().locator('.quick-input-progress-bar').filter({ visible: true }).waitFor({ state: 'hidden', timeout: 30_000 }).catch(() => undefined);
      result.picks = (await quick().locator('.monaco-list-row .label-name').allInnerTexts()).map(s => s.trim());
      // The whole list first (as listed), then filtered to the resource as a person types it.
      await screenshot('native-chat-resources');
      await quickBox().fill(resource);
      await ours.first().waitFor({ state: 'visible', timeout: 10_000 });
      result.row = (await ours.first().innerText()).replace(/\s+/g, ' ').trim();
      await ours.first().click();
      await quick().waitFor({ state: 'hidden', timeout: 20_000 });
      const chip = inputPart().locator('.chat-attached-context-attachment', { hasText: resource });
      await chip.first().waitFor({ state: 'visible', timeout: 20_000 });
      result.chip = ((await chip.first().getAttribute('aria-label')) ?? (await chip.first().innerText())).trim();
      await screenshot('native-chat-resource-attached');
      // Send it to @mcp, which reads what is attached (the mcp-resource: URI VS Code gives it).
      // The `@` suggestions now list the attachment as well: pick @mcp from them as a person would.
      await inputEditor().click();
      await page().keyboard.type(`@${agent}`);
      const participant = suggest().locator('.monaco-list-row', { has: page().locator('.label-name', { hasText: new RegExp(`^\\s*@${escapeRegExp(agent)}\\s*$`) }) });
      await participant.first().click({ timeout: 20_000 });
      await suggest().waitFor({ state: 'hidden', timeout: 10_000 });
      await page().keyboard.type(question);
      if (await suggest().isVisible()) await page().keyboard.press('Escape');
      const typed = `@${agent} ${question}`;
      await page().waitForFunction(t => [...document.querySelectorAll('.interactive-input-part .interactive-input-editor .view-lines')]
        .some(e => (e.textContent ?? '').replace(/\u00a0/g, ' ').trim() === t), typed, { timeout: 10_000 }).catch(() => undefined);
      result.sent = await inputText();
      await page().keyboard.press('Enter');
      await page().locator('.interactive-item-container.interactive-response').last().waitFor({ state: 'visible', timeout: 30_000 });
    } catch (e) {
      failure = e;
      result.error = String(e).split('\n')[0];
      await screenshot('native-chat-resource-failure').catch(() => undefined);
    } finally {
      await escapeAll().catch(() => undefined);
      await stepDone('native-resource', result);
    }
    if (failure) throw failure;
  });
});

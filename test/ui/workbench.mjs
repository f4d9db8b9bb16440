// What a UI test gets: the workbench page of the running integration run (set by test/rig/runUi.mjs
// before the test files load) and helpers that act like a person at the keyboard.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export const workbench = {
  /** @type {import('playwright-core').Page} */
  page: undefined,
  /** .test-artifacts/ of the repo */
  artifactsDir: '',
  /** name of the integration run (artifact prefix) */
  runName: '',
  /** http://127.0.0.1:<port> of the code-server */
  serverUrl: '',
};

/** Waits until the workbench has rendered (activity bar and status bar visible). */
export async function workbenchReady(timeout = 30_000) {
  const { page } = workbench;
  await page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout });
  await page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout });
}

/** Runs a command like a person: F1, type its title, Enter. */
export async function runCommand(title) {
  const { page } = workbench;
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  try {
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${title}`);
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().waitFor();
  } catch (e) {
    // The palette closes when something else takes the focus (VS Code hides it on blur): name what did.
    const focus = await page.evaluate(() => {
      const a = document.activeElement;
      return a ? `<${a.tagName.toLowerCase()} class="${a.className}" aria-label="${(a.getAttribute('aria-label') ?? '').slice(0, 80)}">` : 'nothing';
    }).catch(() => 'unknown');
    throw new Error(`runCommand(${JSON.stringify(title)}): the Command Palette closed or did not list the command; the focus is on ${focus}. ${e.message}`);
  }
  await page.keyboard.press('Enter');
}

/** Closes the active editor with its tab's close button, as a person does (no palette, no focus to lose). */
export async function closeActiveEditor() {
  const { page } = workbench;
  const tabs = '.part.editor .tabs-container .tab';
  const before = await page.locator(tabs).count();
  const tab = page.locator(`${tabs}.active`).first();
  await tab.hover();
  await tab.locator('.tab-actions .action-label').first().click();
  await page.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length < n, [tabs, before]);
}

/** The activity-bar entry of a view container, by its title ("MCP", "Explorer", …). */
export function activityBarItem(title) {
  return workbench.page.locator(`.part.activitybar [role="tab"] a.action-label[aria-label^="${title}"]`).first();
}

/** The tree of the sidebar view titled `viewName` (its aria-label is the view's name). */
export function sidebarTree(viewName) {
  return workbench.page.locator(`.part.sidebar .monaco-list[role="tree"][aria-label="${viewName}"]`);
}

/** The row of the item labelled `label` in the sidebar view `viewName`. */
export function treeRow(viewName, label) {
  return sidebarTree(viewName)
    .locator('.monaco-list-row', { has: workbench.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(label)}$`) }) });
}

/** Drags the sash at the sidebar's right edge so the sidebar gets `width` pixels. */
export async function setSidebarWidth(width) {
  const { page } = workbench;
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) throw new Error('the sidebar is not visible');
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width + 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width + 1, y, { steps: 5 });
  await page.mouse.up();
}

/**
 * Moves the mouse to (x, y), off anything interactive, and waits until no hover (tooltip or hover card)
 * is shown: what a screenshot should not catch. Waits for that state, not for time.
 */
export async function mouseAway(x, y) {
  const { page } = workbench;
  await page.mouse.move(x, y);
  await page.waitForFunction(() => ![...document.querySelectorAll('.monaco-hover, .workbench-hover, .workbench-hover-container')]
    .some((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'));
}

/** Waits until every picture in the page part `selector` has loaded and has a size (decoded, ready to paint). */
export async function picturesLoaded(selector) {
  await workbench.page.waitForFunction((sel) => {
    const imgs = [...document.querySelectorAll(`${sel} img`)];
    return imgs.length > 0 && imgs.every((i) => i.complete && i.naturalWidth > 0);
  }, selector);
}

/**
 * Screenshot into .test-artifacts/<run>-<name>.png (and optionally other paths); returns the artifact path.
 * belowTitleBar: leave out the title bar (in test runs it says "[Extension Development Host]").
 * clip: only this part of the page ({ x, y, width, height }).
 */
export async function screenshot(name, { locator, also = [], belowTitleBar = false, clip: part } = {}) {
  const file = path.join(workbench.artifactsDir, `${workbench.runName}-${name}.png`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  let clip = part;
  if (!clip && belowTitleBar) {
    const title = await workbench.page.locator('.monaco-workbench .part.titlebar').boundingBox();
    const size = workbench.page.viewportSize();
    const top = title ? Math.round(title.y + title.height) : 0;
    if (size) clip = { x: 0, y: top, width: size.width, height: size.height - top };
  }
  const buffer = await (locator ?? workbench.page).screenshot({ path: file, ...(clip ? { clip } : {}) });
  for (const extra of also) {
    await fs.mkdir(path.dirname(extra), { recursive: true });
    await fs.writeFile(extra, buffer);
  }
  return file;
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

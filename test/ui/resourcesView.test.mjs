// The Resources view as a person uses it, in the workbench of the `installed` run (user settings declare
// `everything` = server-everything and `files` = server-filesystem): browse, open a document, fill a
// template variable by typing into the QuickPick (the server completes it), filter. Screenshot in
// .test-artifacts/installed-resources-view.png. Leaves the workbench as it found it (editors closed,
// no filter, Explorer shown) for the suites after it.
import * as assert from 'node:assert/strict';
import { activityBarItem, mouseAway, runCommand, screenshot, setSidebarWidth, sidebarTree, treeRow, workbench, workbenchReady } from './workbench.mjs';

describe('Resources view (workbench UI)', () => {
  before(async () => {
    await workbenchReady();
  });

  after(async () => {
    const { page } = workbench;
    await page.keyboard.press('Escape');
    await runCommand('View: Close All Editors');
    await activityBarItem('Explorer').click();
  });

  it('lists everything\'s documents and templates and opens a document as Markdown', async () => {
    const { page } = workbench;
    await activityBarItem('MCP').click();
    await sidebarTree('Resources').waitFor();
    const server = treeRow('Resources', 'everything');
    await server.locator('.label-description', { hasText: /resources · 2 templates/ }).waitFor({ timeout: 25_000 });

    const doc = treeRow('Resources', 'architecture.md');
    await doc.waitFor();
    assert.equal((await doc.locator('.label-description').textContent())?.trim(), 'text/markdown');
    await doc.click();
    await page.locator('.tabs-container .tab', { hasText: 'architecture.md' }).waitFor();
    await page.locator('.editor-instance .view-lines', { hasText: 'Architecture' }).first().waitFor();
    // The status bar names the editor language chosen from the MIME type.
    await page.locator('.statusbar-item', { hasText: /^Markdown$/ }).waitFor();
  });

  it('fills a template variable by typing, with the server\'s completion, and opens the result', async () => {
    const { page } = workbench;
    await treeRow('Resources', 'Resource Templates').click();
    const template = treeRow('Resources', 'Dynamic Text Resource');
    await template.waitFor();
    await template.click();
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('5');
    // server-everything completes resourceId with the typed value when it is a positive integer:
    // the row is then the server's suggestion (no "use this value" description).
    const rows = page.locator('.quick-input-widget .monaco-list-row');
    await page.waitForFunction(() => {
      const r = [...document.querySelectorAll('.quick-input-widget .monaco-list-row')];
      return r.length === 1 && /^5$/.test(r[0].querySelector('.label-name')?.textContent?.trim() ?? '') && !/use this value/.test(r[0].textContent ?? '');
    }, undefined, { timeout: 10_000 });
    assert.equal(await rows.count(), 1);
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab', { hasText: '5.txt' }).waitFor();
    await page.locator('.editor-instance .view-lines', { hasText: 'Resource 5: This is a plaintext resource' }).first().waitFor();

    await setSidebarWidth(420);
    await mouseAway(900, 500);
    await screenshot('resources-view');
  });

  it('filters resources by name across servers from the view\'s title bar', async () => {
    const { page } = workbench;
    await sidebarTree('Resources').hover();
    await page.locator('.part.sidebar .pane-header .action-label[aria-label^="Filter Resources"]').click();
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible' });
    await input.fill('features');
    await page.keyboard.press('Enter');
    await treeRow('Resources', 'features.md').waitFor();
    await page.waitForFunction(() => {
      const tree = document.querySelector('.part.sidebar .monaco-list[role="tree"][aria-label="Resources"]');
      const names = [...(tree?.querySelectorAll('.monaco-list-row .label-name') ?? [])].map(e => e.textContent?.trim());
      return names.length === 2 && names.includes('everything') && names.includes('features.md');
    }, undefined, { timeout: 5_000 });
    await page.locator('.part.sidebar .pane-header .action-label[aria-label^="Clear Resource Filter"]').click();
    await treeRow('Resources', 'architecture.md').waitFor();
  });
});

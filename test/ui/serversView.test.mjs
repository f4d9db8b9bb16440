// The Servers view as a person sees it, in the workbench of the `installed` run (MCP Host installed from
// its .vsix; user settings declare `everything` = server-everything and `files` = server-filesystem).
// Screenshots go to .test-artifacts/; with MCP_HOST_UPDATE_SCREENSHOTS=1 the README's
// media/screenshots/servers-view.png is rewritten too (otherwise every test run would dirty a tracked file).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { activityBarItem, mouseAway, screenshot, setSidebarWidth, sidebarTree, treeRow, workbench, workbenchReady } from './workbench.mjs';

const README_SHOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'media', 'screenshots', 'servers-view.png');
const COUNTS = /^stdio · \d+ tools?(, \d+ resources?)?(, \d+ prompts?)?$/;

describe('Servers view (workbench UI)', () => {
  before(async () => {
    await workbenchReady();
    // The README picture's size. After the workbench has rendered, so that its layout follows the resize.
    await workbench.page.setViewportSize({ width: 1100, height: 620 });
  });

  it('opens from the MCP activity-bar entry and lists the running servers with their counts', async () => {
    const { page } = workbench;
    await activityBarItem('MCP').click();
    await sidebarTree('Servers').waitFor();

    const everything = treeRow('Servers', 'everything');
    // Servers start in the background: wait until the row shows counts (running, catalogs listed).
    await everything.locator('.label-description', { hasText: 'prompts' }).waitFor({ timeout: 25_000 });
    const description = (await everything.locator('.label-description').textContent())?.trim() ?? '';
    assert.match(description, COUNTS);
    assert.match(description, /tools, \d+ resources, \d+ prompts$/, 'server-everything offers tools, resources and prompts');
    assert.equal(await everything.locator('.codicon-circle-filled').count(), 1, 'running icon');

    const files = treeRow('Servers', 'files');
    await files.locator('.label-description', { hasText: 'tools' }).waitFor({ timeout: 25_000 });
    assert.match((await files.locator('.label-description').textContent())?.trim() ?? '', COUNTS);

    await setSidebarWidth(400); // room for the whole description
    await mouseAway(700, 400); // no hover highlight or tooltip in the picture
    await screenshot('servers-view', { belowTitleBar: true, also: process.env.MCP_HOST_UPDATE_SCREENSHOTS === '1' ? [README_SHOT] : [] });
  });

  it('counts the running servers in the status bar', async () => {
    const item = workbench.page.locator('.part.statusbar .statusbar-item', { hasText: /MCP \d+\/\d+/ });
    await item.waitFor();
    assert.match((await item.textContent()) ?? '', /MCP 2\/2/);
  });

  it('shows a server\'s log from the row\'s inline action', async () => {
    const { page } = workbench;
    const row = treeRow('Servers', 'everything');
    await row.hover();
    await row.locator('.action-label[aria-label="Show Server Log"]').click();
    // The Output view opens on the server's channel, which shows the connection.
    const channel = page.locator('.part.panel select[aria-label="Switch Output"]').first();
    await channel.waitFor();
    // The panel switches to the channel after it has opened: wait for the select's value.
    await page.waitForFunction((select) => select.value === 'MCP: everything', await channel.elementHandle(), { timeout: 5_000 }).catch(() => {});
    assert.equal(await channel.inputValue(), 'MCP: everything');
    // The view follows the end of the log and Monaco renders only visible lines, so the connection line
    // scrolls out once other tests have made the server log more: filter the channel for it, as a person would.
    await page.locator('.part.panel input[placeholder^="Filter"]').first().fill('Connected to');
    // Monaco renders spaces as U+00A0, which \s matches.
    await page.locator('.part.panel .view-lines', { hasText: /Connected\s+to/ }).waitFor();
    await screenshot('server-log');
  });
});

// The status-bar entry as a person uses it, in the workbench of the `installed` run (user settings
// declare `everything` and `files`): it counts the running servers, and a click lists them in a
// QuickPick whose items lead to each server's actions. Runs after serversView.test.mjs and before
// welcome.test.mjs (which adds servers), so both declared servers are there and running.
import * as assert from 'node:assert/strict';
import { screenshot, workbench, workbenchReady } from './workbench.mjs';

const widget = () => workbench.page.locator('.quick-input-widget');
const row = (text) => widget().locator('.monaco-list-row', { hasText: text });
/** Labels of the rows shown now (the widget keeps the rows of an earlier picker in the page, hidden). */
const shownLabels = () => widget().locator('.monaco-list-row .label-name').evaluateAll(els => els.filter(e => e.offsetParent !== null).map(e => e.textContent.trim()));

describe('Status bar (workbench UI)', function () {
  this.timeout(60_000);
  before(async () => {
    await workbenchReady();
    // A quick input left open by an earlier test would be read instead of ours.
    await workbench.page.keyboard.press('Escape');
    await widget().waitFor({ state: 'hidden' });
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') await screenshot('status-bar-failure').catch(() => undefined);
    await workbench.page.keyboard.press('Escape');
  });

  it('shows running/total and, when clicked, a QuickPick of the servers with their actions', async () => {
    const { page } = workbench;
    const entry = page.locator('.part.statusbar .statusbar-item', { hasText: /MCP \d+\/\d+/ });
    await entry.locator('.statusbar-item-label', { hasText: 'MCP 2/2' }).waitFor({ timeout: 25_000 });
    await entry.locator('.statusbar-item-label').click();

    await widget().locator('.quick-input-title', { hasText: 'MCP Servers' }).waitFor();
    await row('files').waitFor();
    const labels = await shownLabels();
    assert.deepEqual(labels.sort(), ['everything', 'files']);
    assert.match((await row('everything').textContent()) ?? '', /running/);

    await row('everything').click();
    await widget().locator('.quick-input-title', { hasText: 'everything' }).waitFor();
    await row('Open Declaration').waitFor();
    const actions = await shownLabels();
    assert.deepEqual(actions, ['Stop', 'Restart', 'Show Log', 'Open Declaration']);
  });
});

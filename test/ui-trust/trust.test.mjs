// Grants Workspace Trust like a person would (Manage Workspace Trust → "Trust"), after the extension-host
// test has checked the untrusted state; test/integration/restricted/trust.test.ts then sees the
// workspace's server start.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import { TRUST_SIGNAL } from '../integration/runs.mjs';
import { runCommand, screenshot, workbench, workbenchReady } from './workbench.mjs';

async function waitForFile(file, ms) {
  const end = Date.now() + ms;
  for (;;) {
    try { await fs.access(file); return; } catch { /* not yet */ }
    if (Date.now() > end) throw new Error(`timed out waiting for ${file}`);
    await new Promise(r => setTimeout(r, 200));
  }
}

describe('Workspace Trust (workbench UI)', function () {
  this.timeout(90_000);

  it('grants trust from the trust editor', async () => {
    await workbenchReady();
    await waitForFile(TRUST_SIGNAL, 60_000);
    await screenshot('untrusted-servers-view');
    await runCommand('Workspaces: Manage Workspace Trust');
    const trust = workbench.page.locator('.workspace-trust-editor .monaco-button', { hasText: /^Trust$/ }).first();
    await trust.waitFor({ state: 'visible', timeout: 15_000 });
    await trust.click();
    await workbench.page.locator('.workspace-trust-editor', { hasText: 'You trust this folder' }).first().waitFor({ state: 'visible', timeout: 15_000 });
    await screenshot('trusted');
    assert.equal(await trust.isVisible(), false, 'the Trust button is gone');
  });
});

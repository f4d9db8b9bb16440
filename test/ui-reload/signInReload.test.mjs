// A window reload keeps the OAuth sign-in (issue 15), seen from the browser: the extension-host test
// (test/integration/reload/oauthReload.test.ts) signs in once, this side reloads the page like a person
// (page.reload(), a new extension host starts), and the second load reconnects without a sign-in.
// The OAuth fixture runs here, in the driver, so that it outlives the first extension host; every
// request the browser makes to its authorization endpoint is counted.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UI_BRIDGE_DIR } from '../integration/runs.mjs';
import { stepDone, waitForStep } from '../ui-workbench/bridge.mjs';
import { workbench, workbenchReady } from './workbench.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Read by the extension-host test file when it loads (uiNote('reloaded')): present = the second load. */
const RELOADED = path.join(UI_BRIDGE_DIR, 'reloaded.json');

/** Starts the OAuth fixture (test/fixtures/servers/oauth.ts) on a free loopback port. */
async function startOAuthFixture() {
  const child = spawn(process.execPath, [path.join(REPO, 'out/test/fixtures/servers/oauth.js'), '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => { out += d; const m = /LISTENING (\d+)/.exec(out); if (m) resolve(Number(m[1])); });
    child.once('exit', (c) => reject(new Error(`the OAuth fixture exited with ${c}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

describe('window reload: the OAuth sign-in survives it (Playwright)', function () {
  this.timeout(300_000);
  let fixture;
  before(() => fs.rm(RELOADED, { force: true }));
  after(async () => {
    fixture?.child.kill();
    await fs.rm(RELOADED, { force: true });
  });

  it('one authorization page before the reload, none after it', async () => {
    const { page } = workbench;
    const authorizePages = [];
    // Direct or through code-server's loopback proxy (/proxy/<port>/…): an authorization request of the code flow.
    page.context().on('request', (r) => { if (/\/authorize\?.*\bresponse_type=code\b/.test(r.url())) authorizePages.push(r.url()); });

    await waitForStep('reload-fixture', 240_000);
    fixture = await startOAuthFixture();
    await stepDone('reload-fixture', { url: `${fixture.base}/mcp` });

    const { pid } = await waitForStep('reload', 120_000);
    assert.equal(authorizePages.length, 1, 'the sign-in opened the authorization page in the browser once');
    await fs.writeFile(RELOADED, JSON.stringify({ pid }));
    await page.reload();
    await workbenchReady(120_000);

    // Requested by the second load once the server is running again and a tool call went through:
    // a sign-in would have opened the authorization page before that.
    await waitForStep('reload-checked', 240_000);
    try {
      assert.equal(authorizePages.length, 1, `no authorization page after the reload (saw ${authorizePages.join(', ')})`);
    } finally {
      await stepDone('reload-checked');
    }
  });
});

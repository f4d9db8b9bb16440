/**
 * A server's own icon and its website, as a person meets them (the Playwright side is
 * test/ui-workbench/k-server-website.test.mjs): the row draws the icon file MCP Host wrote; its context
 * menu has Open Website, which asks first (a modal; VS Code refuses modals while tests run, so nothing is
 * opened: the accepting path is not reachable here); a hostile server's row has no Open Website, and the
 * workbench never requests the address it named for its icons.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../helpers';
import { startLoopbackPage, type LoopbackPage } from '../loopbackPage';
import { declareServers, fixture, nodeServer, waitState, type TestApi } from '../mcpHost';
import { uiStep } from './bridge';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('a server\'s icon and Open Website in the workbench (Playwright)', function () {
  this.timeout(150_000);
  let page: LoopbackPage;
  let a: TestApi;

  before(async () => {
    page = await startLoopbackPage();
    a = await declareServers({
      branded: { ...nodeServer(fixture('branded')), env: { FIXTURE_BRANDING: 'good', FIXTURE_ICON_PNG: PNG, FIXTURE_WEBSITE: `${page.base}/branded/docs?from=mcp` } },
      hostile: { ...nodeServer(fixture('branded')), env: { FIXTURE_BRANDING: 'hostile', FIXTURE_ICON_PNG: PNG, FIXTURE_ICON_URL: `${page.base}/pixel.png` } },
    });
    await waitState(a.host.require('branded'), 'running', 20_000);
    await waitState(a.host.require('hostile'), 'running', 20_000);
  });
  after(async () => {
    await declareServers(undefined);
    await page?.close();
  });

  it('the row draws the server\'s icon; Open Website asks before it opens anything; a hostile row has none', async () => {
    const node = ((await a.serversView.getChildren()) ?? []).find(n => (n as { name?: string }).name === 'branded')!;
    const item = await waitFor(async () => { const i = await a.serversView.getTreeItem(node); return i.iconPath instanceof vscode.ThemeIcon ? undefined : i; }, 10_000, 'the server\'s own icon');
        const iconFile = path.basename((item.iconPath as { light: vscode.Uri }).light.fsPath);
    const result = await uiStep('server-website', { iconFile }, 120_000) as { error?: string; hostileMenu?: string[] };
    assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
    assert.deepEqual(page.hits.filter(h => h.startsWith('/branded')), [], 'nothing opened without the user\'s yes');
    assert.ok(result.hostileMenu?.includes('Show Server Log'), `the hostile row's menu was read: ${JSON.stringify(result.hostileMenu)}`);
    assert.ok(!result.hostileMenu?.includes('Open Website'), 'no Open Website for a javascript: website');
    assert.deepEqual(page.hits.filter(h => h.startsWith('/pixel.png')), [], 'the workbench never requested the hostile server\'s icon address');
  });
});

/**
 * Playwright MCP (`@playwright/mcp`) as its users run it from chat: @mcp, a model that reads images, a
 * local page served by this test (offline). The scripted model navigates, reads the page's snapshot for
 * the element references, types a name, clicks the button, and takes a screenshot, which must reach it
 * as an image: the page the server saw the click from, in the colour the click painted.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from '../helpers';
import { pickScriptedModel, requestsAtLeast, texts, toolResultOf } from '../chatDriver';
import { declareServers, waitState, type TestApi } from '../mcpHost';
import { playwrightServer, topLeftPixel } from './servers';

/** A form whose button greets the typed name, tells the server, and paints the page one colour. */
const PAGE = `<!doctype html><html><head><title>Greeter</title><link rel="icon" href="data:,"></head>
<body style="margin:0;padding:24px;background:#fff"><label>Name <input id="name" aria-label="Name"></label>
<button onclick="const n=document.getElementById('name').value; document.getElementById('out').textContent='Hello, '+n+'!';
document.body.style.background='rgb(0, 128, 255)'; fetch('/greeted?name='+encodeURIComponent(n))">Greet</button><p id="out"></p></body></html>`;

describe('real servers: Playwright MCP from @mcp (navigate, type, click, screenshot)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let site: http.Server;
  let url = '';
  const greeted: string[] = [];
  let outputDir = '';

  before(async () => {
    outputDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-playwright-'));
    site = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/greeted') greeted.push(u.searchParams.get('name') ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end(u.pathname === '/' ? PAGE : 'ok');
    });
    await new Promise<void>(resolve => site.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
    await setSetting('mcpHost.tools.autoApprove', ['playwright/browser_navigate', 'playwright/browser_snapshot', 'playwright/browser_type', 'playwright/browser_click', 'playwright/browser_take_screenshot']);
    api = await declareServers({ playwright: playwrightServer(outputDir) });
    await waitState(api.host.require('playwright'), 'running', 30_000);
    await pickScriptedModel();
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await pickScriptedModel();
    await declareServers(undefined);
    site?.close();
    if (outputDir) await fs.rm(outputDir, { recursive: true, force: true });
  });

  it('the model drives the browser and receives the screenshot of the clicked page as an image', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    await scriptedLm.script(
      [{ toolCall: { name: 'playwright_browser_navigate', input: { url }, callId: 'nav' } }],
      [{ toolCall: { name: 'playwright_browser_snapshot', input: {}, callId: 'snap' } }],
      // As a model reading the snapshot: the references of the text box and the button.
      [
        { toolCall: { name: 'playwright_browser_type', input: { element: 'Name', text: 'Ada' }, inputFromLastResult: { target: 'textbox "Name" \\[ref=(\\w+)\\]' }, callId: 'type' } },
        { toolCall: { name: 'playwright_browser_click', input: { element: 'Greet' }, inputFromLastResult: { target: 'button "Greet" \\[ref=(\\w+)\\]' }, callId: 'click' } },
      ],
      [{ toolCall: { name: 'playwright_browser_take_screenshot', input: { type: 'png', scale: 'css' }, callId: 'shot' } }],
      'The page greets Ada on a blue background.',
    );
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp open the greeter page, greet Ada and show me the page', modelSelector: { vendor: 'scripted', id: 'scripted-smart' } });
    const reqs = await requestsAtLeast(5, 90_000);
    assert.equal(reqs[4].model.id, 'scripted-smart');
    for (const [i, id] of [[1, 'nav'], [2, 'snap'], [3, 'type'], [3, 'click']] as const) {
      const r = toolResultOf(reqs[i], id);
      assert.notEqual(r.isError, true, `${id}: ${texts(r).join('\n')}`);
    }
    assert.match(texts(toolResultOf(reqs[2], 'snap')).join('\n'), /textbox "Name"/);
    assert.deepEqual(greeted, ['Ada'], 'the page told its server the typed name: typed, then clicked');

    const shot = toolResultOf(reqs[4], 'shot');
    const images = shot.content.filter(c => c.type === 'data' && c.mimeType === 'image/png');
    assert.equal(images.length, 1, `the screenshot as an image part: ${JSON.stringify(shot.content.map(c => c.type === 'data' ? c.mimeType : c.type))}`);
    const png = Buffer.from((images[0].type === 'data' && images[0].base64) || '', 'base64');
    assert.deepEqual(topLeftPixel(png), [0, 128, 255], 'the screenshot shows the page the click painted');
  });
});

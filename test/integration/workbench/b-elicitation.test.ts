/**
 * Elicitation driven by a person in the real workbench (issue 7): this side starts server-everything's
 * trigger-elicitation-request / trigger-url-elicitation, waits until the flow shows, hands the step to
 * the Playwright suite (test/ui-workbench/b-elicitation.test.mjs), which types, clicks and presses
 * keys in `.quick-input-widget`, and then checks what the server echoed back.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { waitFor } from '../helpers';
import { declareServers, type TestApi, everythingBin, nodeServer } from '../mcpHost';
import { startLoopbackPage, type LoopbackPage } from '../loopbackPage';
import { uiStep } from './bridge';

let api: TestApi;
let page: LoopbackPage;

/** The ElicitResult server-everything echoes as "Raw result: {…}". */
function rawResult(r: CallToolResult): unknown {
  const text = r.content.map(c => (c.type === 'text' ? c.text : '')).join('');
  const at = text.indexOf('Raw result: ');
  assert.ok(at >= 0, text);
  return JSON.parse(text.slice(at + 'Raw result: '.length));
}

/** Waits until a flow shows an input whose title matches `title`. */
async function flowShows(title: RegExp): Promise<void> {
  await waitFor(() => title.test(api.testing?.quickInput.active?.title ?? ''), 15_000, `a quick input titled ${title}`);
}

const everything = () => api.host.require('everything');

describe('elicitation in the workbench (server-everything, Playwright)', function () {
  this.timeout(150_000);

  before(async () => {
    api = await declareServers({ everything: nodeServer(everythingBin) });
    assert.ok(api.testing, 'the API exposes test hooks');
    page = await startLoopbackPage();
    await waitFor(() => everything().tool('trigger-elicitation-request') && everything().tool('trigger-url-elicitation'), 20_000, 'elicitation tools');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await declareServers(undefined);
    await page?.close();
  });
  beforeEach(() => { page.hits.length = 0; });
  // A failed test may leave its flow open; closing it cancels that flow so the next test starts clean.
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));

  it('form: typed and clicked answers (with a rejected email and one Back) reach the server', async () => {
    const call = everything().callTool('trigger-elicitation-request', {});
    await flowShows(/asks: Please provide inputs/);
    await uiStep('elicitation-form', {}, 120_000);
    assert.deepEqual(rawResult(await call), {
      action: 'accept',
      content: {
        name: 'Ada Lovelace', check: false, firstLine: 'It was a dark and stormy night.', email: 'ada@example.com',
        homepage: 'https://ada.example.com/', integer: 7, number: 3.14, untitledSingleSelectEnum: 'Joey',
        untitledMultipleSelectEnum: ['Guitar'], titledSingleSelectEnum: 'hero-3', titledMultipleSelectEnum: ['fish-1'], legacyTitledEnum: 'pet-2',
      },
    });
  });

  it('form: Decline on the review step', async () => {
    const call = everything().callTool('trigger-elicitation-request', {});
    await flowShows(/asks: Please provide inputs/);
    await uiStep('elicitation-form-decline', {}, 120_000);
    assert.deepEqual(rawResult(await call), { action: 'decline' });
  });

  it('form: Escape cancels', async () => {
    const call = everything().callTool('trigger-elicitation-request', {});
    await flowShows(/asks: Please provide inputs/);
    await uiStep('elicitation-form-escape', {}, 60_000);
    assert.deepEqual(rawResult(await call), { action: 'cancel' });
  });

  it('URL: the consent step shows the full URL and domain; Decline is sent and nothing opens', async () => {
    const url = 'https://example.com/signin/continue?next=%2Fhome&ref=mcp-host';
    const call = everything().callTool('trigger-url-elicitation', { url, elicitationId: 'wb-url-1', message: 'Sign in to continue.' });
    await flowShows(/asks you to open a link/);
    await uiStep('elicitation-url', { url, domain: 'example.com' }, 60_000);
    assert.deepEqual(rawResult(await call), { action: 'decline' });
  });

  it('URL: Open opens the page in the browser (the Playwright suite sees the new page)', async () => {
    const url = `${page.base}/signin/continue?next=%2Fhome&ref=mcp-host`;
    const call = everything().callTool('trigger-url-elicitation', { url, elicitationId: 'wb-url-2', message: 'Sign in to continue.' });
    await flowShows(/asks you to open a link/);
    await uiStep('elicitation-url-open', { url, domain: new URL(url).hostname }, 60_000);
    assert.deepEqual(rawResult(await call), { action: 'accept' });
    await waitFor(() => page.hits.length > 0, 15_000, 'the page to be requested');
    const hit = new URL(page.hits[0], page.base);
    assert.deepEqual([hit.pathname, hit.searchParams.get('next'), hit.searchParams.get('ref')], ['/signin/continue', '/home', 'mcp-host']);
  });
});

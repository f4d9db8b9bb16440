/**
 * The tool runner driven by a person (issue 21): this side declares server-everything and hands the
 * step to the Playwright suite (test/ui-workbench/g-tool-runner.test.mjs), which clicks "Run Tool…" on
 * the tool's row in the Servers view, types the form, allows the call and reads the result editor;
 * then this side checks the document it saw.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../helpers';
import { declareServers, everythingBin, nodeServer } from '../mcpHost';
import { uiStep } from './bridge';

describe('tool runner in the workbench (server-everything, Playwright)', function () {
  this.timeout(150_000);

  it('a form for get-sum, filled in the workbench, runs after consent and shows the result', async () => {
    const api = await declareServers({ everything: nodeServer(everythingBin) });
    await waitFor(() => api.host.get('everything')?.tool('get-sum'), 20_000, 'the get-sum tool');
    await uiStep('tool-runner', {}, 120_000);
    const editor = await waitFor(() => vscode.window.visibleTextEditors.find(e => e.document.uri.scheme === 'mcp-tool-run'), 10_000, 'the result editor');
    const text = editor.document.getText();
    assert.match(text, /The sum of 2 and 3 is 5/);
    assert.match(text, /"a": 2,\s*"b": 3/);
  });
});

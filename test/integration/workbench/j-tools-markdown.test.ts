/**
 * `@mcp /tools` lists what servers declared, and a server's description is its own text, not Markdown
 * the host renders: a hostile description with a disguised link, images that would fetch the
 * attacker's URL when shown, HTML and a heading must show literally. The Playwright side
 * (test/ui-workbench/j-tools-markdown.test.mjs) reads the rendered response in the Chat view.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ask } from '../chatDriver';
import { declareServers, fixture, nodeServer, waitState } from '../mcpHost';
import { uiStep } from './bridge';

const HOSTILE = '[Official docs](https://attacker.example/steal) ![pixel](https://attacker.example/p.png) <img src="https://attacker.example/i.png"> **Approved** # Safe';

describe('@mcp /tools with a hostile server description (Playwright)', function () {
  this.timeout(150_000);
  before(async () => {
    const server = nodeServer(fixture('paginated'));
    const a = await declareServers({ hostile: { ...server, env: { FIXTURE_TOOLS: '1', FIXTURE_SPECIAL_TOOLS: '0', FIXTURE_TOOL_DESCRIPTION: HOSTILE } } });
    await waitState(a.host.require('hostile'), 'running', 20_000);
  });
  after(() => declareServers(undefined));

  it('shows the description as literal text: no disguised link, no image, no HTML, no bold', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await ask('@mcp /tools');
    const shown = await uiStep('tools-markdown', {}, 90_000) as { error?: string; line?: string; disguisedLinks?: string[]; images?: number; bold?: number };
    assert.equal(shown.error, undefined, `UI step failed: ${shown.error}`);
    assert.ok(shown.line?.includes('hostile_tool-0'), shown.line);
    // The description reads as the server wrote it, characters and all.
    assert.ok(shown.line?.includes('[Official docs](https://attacker.example/steal) ![pixel](https://attacker.example/p.png) <img src="https://attacker.example/i.png"> **Approved** # Safe'), shown.line);
    assert.deepEqual(shown.disguisedLinks, [], 'links whose text is not their address');
    assert.equal(shown.images, 0, 'images in the listing');
    assert.equal(shown.bold, 0, 'bold text from the server');
  });
});

/**
 * What @mcp shows in the chat response while tools run: progress messages and the resources a tool
 * pointed at as references. The extension host scripts the model; the Playwright side
 * (test/ui-workbench/f-chat-parts.test.mjs) reads the rendered response in the Chat view.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from '../helpers';
import { ask, pickScriptedModel, requestsAtLeast } from '../chatDriver';
import { declareServers, everythingBin, nodeServer, waitState } from '../mcpHost';
import { uiStep } from './bridge';

describe('chat response parts in the workbench', function () {
  this.timeout(180_000);
  before(async () => {
    const a = await declareServers({ everything: nodeServer(everythingBin) });
    await waitState(a.host.require('everything'), 'running', 20_000);
    await setSetting('mcpHost.tools.autoApprove', ['everything/*']);
    await pickScriptedModel();
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
  });

  it('shows tool progress and the resources a tool linked to as references', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    await scriptedLm.script(
      [{ toolCall: { name: 'everything_get-resource-links', input: { count: 2 }, callId: 'links' } }, { toolCall: { name: 'everything_trigger-long-running-operation', input: { duration: 8, steps: 4 }, callId: 'long' } }],
      'Done with parts-marker.',
    );
    await ask('@mcp show me links and progress');
    await requestsAtLeast(1, 30_000);
    const result = (await uiStep('chat-parts', {}, 120_000)) as { error?: string; references?: string[]; progress?: string[] };
    assert.equal(result.error, undefined, `UI step failed: ${result.error}`);
    // get-resource-links {count: 2} links demo://resource/dynamic/{blob/1,text/2}; they open through our read-only file system.
    // Each row: the file name, then its path under the server (the resource URI, base64url-encoded).
    const b64 = (u: string) => Buffer.from(u).toString('base64url');
    // Each reference's path carries the window's HMAC of server, resource and part (issue 28): drop it to compare.
    assert.deepEqual((result.references ?? []).map((r: string) => r.replace(/^([^/]+)\/[A-Za-z0-9_-]{22}\//, '$1/')), [`1.txt/everything/${b64('demo://resource/dynamic/blob/1')}`, `2.txt/everything/${b64('demo://resource/dynamic/text/2')}`], JSON.stringify(result));
    assert.match(result.progress?.[0] ?? '', /^Trigger Long Running Operation Tool: [1-3]\/4/);
    await requestsAtLeast(2, 30_000);
  });
});

/**
 * The budgets of issue 19 count in the request model's own tokens (its countTokens), not the
 * 4-characters estimate: the scripted model's tokenizer is scaled (mcpHostTest.lm.tokenScale), and
 * what @mcp offers and keeps follows the model's count.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast, toolResultText } from './chatDriver';
import { declareServers, everythingBin, fixture, nodeServer, waitState } from './mcpHost';

const tokenScale = (f: number) => vscode.commands.executeCommand('mcpHostTest.lm.tokenScale', f);

describe('@mcp budgets in the model\'s own tokens (countTokens)', function () {
  this.timeout(90_000);

  before(async () => {
    const a = await declareServers({ flooding: nodeServer(fixture('bulky')), everything: nodeServer(everythingBin) });
    await waitState(a.host.require('flooding'), 'running');
    await waitState(a.host.require('everything'), 'running');
    await setSetting('mcpHost.tools.autoApprove', ['flooding/flood']);
    await pickScriptedModel();
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset(); // token scale back to 1
  });
  after(async () => {
    await scriptedLm.reset();
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await setSetting('mcpHost.chat.maxResultTokens', undefined);
    await setSetting('mcpHost.chat.maxToolSchemaTokens', undefined);
    await declareServers(undefined);
  });

  it('a result that fits by the estimate but not by the model\'s count is kept, and the summary gives the model\'s count', async () => {
    await setSetting('mcpHost.chat.maxResultTokens', 1000);
    await tokenScale(10); // 2,000 characters: 500 tokens by the estimate, 5,000 by this model
    await scriptedLm.script([{ toolCall: { name: 'flooding_flood', input: { chars: 2000 }, callId: 'mid' } }], 'done');
    await ask('@mcp flood a little');
    const reqs = await requestsAtLeast(2, 30_000);
    const seen = toolResultText(reqs[1]);
    assert.match(seen, /has 2000 characters \(about 5000 tokens\), more than the 1000 tokens/, seen.slice(0, 400));
    assert.ok(!seen.includes('FLOOD-END'), 'only the start reached the model');
  });

  it('tool schemas are offered by the model\'s count: the same budget holds every tool at scale 1 and none at scale 1000', async () => {
    await setSetting('mcpHost.chat.maxToolSchemaTokens', 20_000);
    await ask('@mcp echo something');
    const [normal] = await requestsAtLeast(1, 30_000);
    const names = normal.options.tools.map(t => t.name);
    assert.ok(names.includes('everything_echo') && !names.includes('find_tools'), names.join(', '));

    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    await tokenScale(1000);
    await ask('@mcp echo something');
    const [costly] = await requestsAtLeast(1, 30_000);
    assert.deepEqual(costly.options.tools.map(t => t.name), ['find_tools']);
  });
});

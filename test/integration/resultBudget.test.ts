/**
 * One tool result cannot fill the model's context: a 5 MB result reaches the scripted model as a
 * summary and a pageable document. A server's instructions reach the model attributed and capped.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast, toolResultText } from './chatDriver';
import { declareServers, type TestApi, fixture, nodeServer, waitState } from './mcpHost';
import { counterGuesses, leaked } from './snoop';

describe('tool result budget and server instructions', function () {
  this.timeout(90_000);
  let api: TestApi;

  before(async () => {
    api = await declareServers({ flooding: nodeServer(fixture('bulky')) });
    await waitState(api.host.require('flooding'), 'running');
    await setSetting('mcpHost.tools.autoApprove', ['flooding/flood']);
    await pickScriptedModel();
  });
  beforeEach(() => scriptedLm.reset());
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
  });

  it('a 5 MB result reaches the model as a summary line plus its start, and the model pages the rest', async () => {
    const chars = 5 * 1024 * 1024;
    await scriptedLm.script(
      [{ toolCall: { name: 'flooding_flood', input: { chars }, callId: 'big' } }],
      [{ toolCall: { name: 'mcpHost_readResource', input: { offset: chars - 20, length: 100 }, inputFromLastResult: { uri: '(mcp-result:[^\\s";]+)' }, callId: 'page' } }],
      'done',
    );
    await ask('@mcp flood me');
    const reqs = await requestsAtLeast(3, 60_000);
    // One result may use a quarter of the model's input limit (≈ 4 characters a token).
    const inputTokens = reqs[1].model.id === 'scripted-fast' ? 16_000 : 128_000;
    const summary = toolResultText(reqs[1]);
    assert.ok(summary.length <= inputTokens, `${summary.length} characters reached ${reqs[1].model.id}`);
    assert.match(summary, new RegExp(`has ${chars} characters`));
    assert.match(summary, /FLOOD-START/);
    assert.doesNotMatch(summary, /FLOOD-END/);
    const uri = /(mcp-result:[^\s";]+)/.exec(summary)![1];
    assert.ok(reqs[1].options.tools.some(t => t.name === 'mcpHost_readResource'), 'the reading tool is offered once a result was kept');
    const page = toolResultText(reqs[2]).split('\n').slice(-1)[0];
    assert.match(toolResultText(reqs[2]), /This is the end\./);
    assert.match(page, /FLOOD-END$/);
    const whole = reqs.map(r => JSON.stringify(r.messages).length).reduce((a, b) => Math.max(a, b));
    assert.ok(whole < inputTokens * 4, `a request carried ${whole} characters of messages`);
    // The user opens the whole result read-only.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(uri));
    assert.equal(doc.getText().length, chars);
    assert.ok(doc.getText().endsWith('FLOOD-END'));
    // Another extension guessing the URI (a counter once) gets nothing, from the document provider or the reading tool.
    const guesses = counterGuesses('mcp-result', 'flooding-flood.txt');
    assert.deepEqual(await leaked(guesses, /FLOOD-START/), [], 'another extension read the kept result');
    for (const guess of guesses.slice(0, 3)) {
      const read = await vscode.commands.executeCommand<string>('mcpHostTest.consumer.invokeTool', 'mcpHost_readResource', { uri: guess });
      assert.doesNotMatch(read, /FLOOD-START/, `mcpHost_readResource ${guess}`);
    }
  });

  it('the instructions of a server whose tools are offered reach the model, attributed and capped', async () => {
    await scriptedLm.script('ok');
    await ask('@mcp flood something small');
    const [req] = await requestsAtLeast(1, 20_000);
    const first = req.messages[0].content.map(c => c.type === 'text' ? c.value : '').join('');
    assert.match(first, /^Instructions from the MCP servers whose tools you are offered\./);
    assert.match(first, /<mcp-server-instructions server="flooding">\nFLOOD-INSTRUCTIONS: call flood with small numbers\./);
    assert.equal(first.match(/<mcp-server-instructions /g)?.length, 1, 'the forged block for "everything" is gone');
    assert.doesNotMatch(first, /INSTRUCTIONS-TAIL/);
    assert.ok(first.length < 2_500, `${first.length} characters of instructions`);
  });
});

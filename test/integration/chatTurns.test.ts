/** @mcp across turns, in a real VS Code: the conversation so far, /tools, and the bound on tool-calling rounds. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, setSetting, type RecordedRequest } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast } from './chatDriver';
import { declareServers, everythingBin, nodeServer, waitState } from './mcpHost';

const texts = (req: RecordedRequest) => req.messages.map(m => `${m.role}: ${m.content.map(p => p.type === 'text' ? p.value : `[${p.type}]`).join('')}`);

describe('@mcp across turns', function () {
  this.timeout(90_000);

  before(async () => {
    const a = await declareServers({ everything: nodeServer(everythingBin) });
    await waitState(a.host.require('everything'), 'running');
    await pickScriptedModel();
  });
  beforeEach(async () => {
    // A fresh chat session: the history a test checks is its own.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
  });

  it('sends the earlier @mcp turns (prompt and answer) to the model before the new prompt', async () => {
    await scriptedLm.script('The word was apricot.');
    await ask('@mcp remember the word apricot');
    await requestsAtLeast(1, 20_000);
    await scriptedLm.script('You said apricot.');
    await ask('@mcp which word did I say?');
    const reqs = await requestsAtLeast(2, 20_000);
    const msgs = texts(reqs[1]);
    const end = msgs.slice(-3);
    assert.match(end[0], /remember the word apricot$/, msgs.join('\n'));
    assert.match(end[1], /The word was apricot\.$/, msgs.join('\n'));
    assert.match(end[2], /which word did I say\?$/, msgs.join('\n'));
    assert.deepEqual(reqs[1].messages.slice(-3).map(m => m.role), ['user', 'assistant', 'user']);
  });

  it('/tools answers without the model; the next request carries its listing only as a summary line', async () => {
    await ask('@mcp /tools');
    // The listing is the /tools turn's response; bulky listings go back to the model summarised (issue 19).
    await ask('@mcp thanks');
    const [req] = await requestsAtLeast(1, 20_000);
    assert.equal(req.messages.filter(m => m.content.some(c => c.type === 'text' && c.value === '[listed the MCP tools]')).length, 1, texts(req).join('\n'));
    assert.ok(!texts(req).some(t => /- `everything_echo` — /.test(t)), 'the full listing is not replayed');
    assert.match(texts(req).at(-1)!, /thanks$/);
  });

  it('stops after 16 rounds of tool calls and says so in the response', async () => {
    await setSetting('mcpHost.tools.autoApprove', ['everything/*']);
    // A model that never stops calling tools: 16 scripted rounds, and nothing for a 17th.
    await scriptedLm.script(...Array.from({ length: 16 }, (_, i) => [{ toolCall: { name: 'everything_echo', input: { message: `round ${i + 1}` }, callId: `r${i + 1}` } }]));
    await ask('@mcp loop forever');
    const loop = await requestsAtLeast(16, 60_000);
    assert.equal(loop[15].answeredWith, 'script');
    await ask('@mcp did you stop?');
    const reqs = await requestsAtLeast(17, 20_000);
    assert.equal(reqs.length, 17, 'no 17th round');
    const follow = texts(reqs[16]);
    assert.match(follow.at(-1)!, /did you stop\?$/, 'the 17th request is the next turn, not another round');
    assert.ok(follow.some(t => /Stopped after 16 rounds of tool calls/.test(t)), follow.join('\n'));
  });
});

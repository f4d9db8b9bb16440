/**
 * The first @mcp request of a fresh window, typed by a person (issue 15): the scripted model is picked
 * in the Chat view (as a person picks it in the model picker), then the Playwright suite
 * (test/ui-workbench/0-first-request.test.mjs) types `@mcp hello` into the Chat view and presses
 * Enter. This side checks that the request reached the model on the first try — no warm-up, no retry.
 * (Without a picked model, VS Code 1.139 answers "Language model unavailable" before any participant
 * runs while the Chat view has not chosen its default yet; see chatDriver.pickScriptedModel.)
 */
import * as assert from 'node:assert/strict';
import { scriptedLm } from '../helpers';
import { api } from '../mcpHost';
import { pickScriptedModel } from '../chatDriver';
import { uiStep } from './bridge';

describe('chat: the first @mcp request of a fresh window, typed by a person (Playwright)', function () {
  this.timeout(150_000);

  it('reaches the language model on the first try', async () => {
    await api();
    await scriptedLm.reset();
    await pickScriptedModel();
    const { shown } = await uiStep('chat-first-request', {}, 120_000) as { shown: string };
    const reqs = await scriptedLm.requests();
    assert.equal(reqs.length, 1, `the model got ${reqs.length} request(s); the Chat view shows: ${shown}`);
    const user = reqs[0].messages.filter(m => m.role === 'user').flatMap(m => m.content).map(p => (p.type === 'text' ? p.value : '')).join('');
    assert.match(user, /hello/);
    assert.match(shown, /echo: hello/, 'the answer is shown');
  });
});

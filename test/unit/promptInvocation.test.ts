/** Finding, checking and getting prompts against server-everything, with the errors users see. */
import * as assert from 'node:assert/strict';
import type { McpHost } from '../../src/core';
import { completionParams, findPrompt, getPrompt, getPromptFromCommand, PromptError, renderPromptMarkdown } from '../../src/core/prompts';
import { createTestHost, everythingBin, node, waitForState } from './helpers';

describe('prompt invocation against server-everything', function () {
  this.timeout(30_000);
  let host: McpHost;

  before(async () => {
    host = createTestHost().host;
    await host.apply({ everything: node(everythingBin), off: { ...node(everythingBin), disabled: true } });
    await waitForState(host.require('everything'), 'running');
  });
  after(() => host.shutdown());

  async function error(p: Promise<unknown>): Promise<PromptError> {
    try { await p; } catch (e) { assert.ok(e instanceof PromptError, String(e)); return e; }
    assert.fail('expected a PromptError');
  }

  it('gets a prompt with arguments and renders it', async () => {
    const { prompt, result } = await getPrompt(host, 'everything', 'args-prompt', { city: 'Paris' });
    assert.equal(prompt.title, 'Arguments Prompt');
    assert.match(renderPromptMarkdown(result, { server: 'everything', prompt, args: { city: 'Paris' } }), /## User\n\nWhat's weather in Paris\?\n$/);
  });

  it('completes the second argument of completable-prompt from the first answer', async () => {
    const conn = host.require('everything');
    const r = await conn.complete(completionParams('completable-prompt', 'name', '', { department: 'Sales' }));
    assert.deepEqual(r.completion.values, ['David', 'Eve', 'Frank']);
    assert.deepEqual(completionParams('p', 'a', 'v', {}), { ref: { type: 'ref/prompt', name: 'p' }, argument: { name: 'a', value: 'v' } });
  });

  it('explains unknown servers, stopped servers, unknown prompts and bad arguments', async () => {
    let e = await error(findPrompt(host, 'nope', 'x'));
    assert.equal(e.code, 'unknown-server');
    assert.match(e.message, /No MCP server named "nope" is configured \(configured: everything, off\)\./);
    e = await error(findPrompt(host, 'off', 'x'));
    assert.equal(e.code, 'not-running');
    assert.match(e.message, /MCP server "off" is not running \(stopped\); start it to use its prompts\./);
    e = await error(findPrompt(host, 'everything', 'nope'));
    assert.equal(e.code, 'unknown-prompt');
    assert.match(e.message, /MCP server "everything" has no prompt "nope"\. Its prompts: .*simple-prompt/);
    e = await error(getPrompt(host, 'everything', 'args-prompt', { state: 'TX' }));
    assert.equal(e.code, 'missing-argument');
    assert.equal(e.message, 'Prompt "args-prompt" of MCP server "everything" needs a value for "city" (Name of the city).');
    e = await error(getPrompt(host, 'everything', 'args-prompt', { city: 'x', cty: 'y' }));
    assert.equal(e.code, 'unknown-argument');
    assert.equal(e.message, 'Prompt "args-prompt" of MCP server "everything" has no argument "cty" (its arguments: city, state).');
  });

  it('reports a server-side failure with the server\'s words', async () => {
    const e = await error(getPrompt(host, 'everything', 'resource-prompt', { resourceType: 'Nope', resourceId: '1' }));
    assert.equal(e.code, 'server-error');
    assert.match(e.message, /^MCP server "everything" could not get prompt "resource-prompt": .*Invalid resourceType: Nope/);
  });

  it('runs /prompt text end to end (the hook for @mcp /prompt)', async () => {
    const r = await getPromptFromCommand(host, '/prompt everything.resource-prompt resourceType=Text 2');
    assert.deepEqual(r.command.args, { resourceType: 'Text', resourceId: '2' });
    assert.equal(r.result.messages[1].content.type, 'resource');
    const e = await error(getPromptFromCommand(host, '/prompt off.whatever'));
    assert.equal(e.code, 'not-running');
  });
});

/**
 * Other extensions get the API, nothing else (issue 28): every member of the exported API that reaches a
 * server applies the user's choices as they apply to models. Played from a second extension
 * (test/fixtures/lm-extension, `mcpHostTest.consumer.api`) against four copies of server-everything:
 * `open` (the control: every member works), `excluded` (mcpHost.chat.excludedServers), `allOff`
 * (`allOff/*` in mcpHost.tools.disabled) and `off` (a disabled declaration).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setSetting } from './helpers';
import { declareServers, everythingBin, nodeServer, waitState } from './mcpHost';

type Answer = { value?: unknown; error?: string };
const consumer = (member: string, ...args: unknown[]) => vscode.commands.executeCommand<Answer>('mcpHostTest.consumer.api', member, ...args);

const CHOICES: Record<string, RegExp> = {
  excluded: /excluded the MCP server "excluded"/,
  allOff: /disabled every tool of the MCP server "allOff"/,
  off: /disabled the MCP server "off"/,
};

describe('other extensions: every API member applies the user\'s choices', function () {
  this.timeout(90_000);
  let resource: string;
  let prompt: string;

  before(async () => {
    await setSetting('mcpHost.chat.excludedServers', ['excluded']);
    await setSetting('mcpHost.tools.disabled', ['allOff/*']);
    const api = await declareServers({ open: nodeServer(everythingBin), excluded: nodeServer(everythingBin), allOff: nodeServer(everythingBin), off: { ...nodeServer(everythingBin), disabled: true } });
    for (const name of ['open', 'excluded', 'allOff']) await waitState(api.host.require(name), 'running', 30_000);
    resource = api.host.resources.find(r => r.server === 'open')!.item.uri;
    prompt = api.host.prompts.find(p => p.server === 'open' && !p.item.arguments?.some(a => a.required))!.item.name;
  });
  after(async () => {
    await declareServers(undefined);
    await setSetting('mcpHost.chat.excludedServers', undefined);
    await setSetting('mcpHost.tools.disabled', undefined);
  });

  // Each member: how to call it for a server, and whether an answer shows the server (a list that holds it, a result).
  const members: { member: string; args: (server: string) => unknown[]; reaches: (a: Answer, server: string) => boolean }[] = [
    { member: 'listTools', args: s => [s], reaches: a => (a.value as unknown[]).length > 0 },
    { member: 'listTools', args: () => [], reaches: (a, s) => (a.value as { server: string }[]).some(t => t.server === s) },
    { member: 'listResources', args: s => [s], reaches: a => (a.value as unknown[]).length > 0 },
    { member: 'listResources', args: () => [], reaches: (a, s) => (a.value as { server: string }[]).some(t => t.server === s) },
    { member: 'listResourceTemplates', args: s => [s], reaches: a => (a.value as unknown[]).length > 0 },
    { member: 'listPrompts', args: s => [s], reaches: a => (a.value as unknown[]).length > 0 },
    { member: 'listPrompts', args: () => [], reaches: (a, s) => (a.value as { server: string }[]).some(t => t.server === s) },
    { member: 'listServers', args: () => [], reaches: (a, s) => (a.value as { name: string; instructions?: string }[]).some(x => x.name === s && !!x.instructions) },
    { member: 'callTool', args: s => [s, 'get-sum', { a: 1, b: 2 }], reaches: a => a.value !== undefined },
    { member: 'readResource', args: s => [s, resource], reaches: a => a.value !== undefined },
    { member: 'getPrompt', args: s => [s, prompt, {}], reaches: a => a.value !== undefined },
  ];

  it('a server excluded from chat, one with every tool disabled and a disabled one are reached by no member; the open one by all', async () => {
    const reached: string[] = [];
    for (const { member, args, reaches } of members) {
      const control = await consumer(member, ...args('open'));
      assert.ok(!control.error && reaches(control, 'open'), `${member}(${JSON.stringify(args('open'))}) reaches the open server: ${control.error ?? ''}`);
      for (const [server, choice] of Object.entries(CHOICES)) {
        const answer = await consumer(member, ...args(server));
        if (answer.error !== undefined) assert.match(answer.error, choice, `${member} for ${server} says which choice`);
        else if (reaches(answer, server)) reached.push(`${member}(${JSON.stringify(args(server))})`);
      }
    }
    assert.deepEqual(reached, [], 'members that reached a server the user cut off');
  });

  it('attack (issue 28 review): toolActivity hands no extension the results of a server the user then cut off', async () => {
    // Any earlier run records the result (chat, the tool runner, an app, an extension); here an extension's call.
    await setSetting('mcpHost.chat.excludedServers', []);
    const ran = await consumer('callTool', 'excluded', 'echo', { message: 'TOP-SECRET-4711' });
    assert.ok(!ran.error, ran.error);
    await setSetting('mcpHost.chat.excludedServers', ['excluded']);
    const read = await consumer('toolActivity');
    const leaked = (read.value as { server: string; result: string }[]).filter(a => a.server === 'excluded' && a.result.includes('TOP-SECRET-4711'));
    assert.deepEqual(leaked, [], 'the excluded server\'s results are not readable through the API');
  });
});

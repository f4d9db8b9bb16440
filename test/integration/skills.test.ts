/**
 * Skills (SEP-2640) in a real VS Code: a fixture server with two skills shows them in the Servers
 * view; an `@mcp` request offers their names and descriptions, the scripted model loads one, and its
 * next request holds the skill's body (cleaned, in the server's block), while nothing was read before
 * the load; a skill whose SKILL.md does not match its listed digest is refused with the message.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { scriptedLm, type RecordedRequest } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast, toolResultOf, texts } from './chatDriver';
import { declareServers, fixture, nodeServer, textOf, waitState, type TestApi } from './mcpHost';

const allText = (req: RecordedRequest) => req.messages.flatMap(m => m.content).map(c => (c.type === 'text' ? c.value : '')).join('\n');

describe('skills of MCP servers', function () {
  this.timeout(120_000);
  let a: TestApi;

  before(async () => {
    a = await declareServers({ skilled: nodeServer(fixture('skilled')), tampered: { ...nodeServer(fixture('skilled')), env: { FIXTURE_TAMPER: 'code-review' } } });
    await waitState(a.host.require('skilled'), 'running');
    await waitState(a.host.require('tampered'), 'running');
    await pickScriptedModel();
  });
  beforeEach(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
  });
  after(async () => { await declareServers(undefined); });

  it('shows a server\'s skills in the Servers view, read from its listing only', async () => {
    const server = ((await a.serversView.getChildren()) ?? []).find(n => (n as { name?: string }).name === 'skilled')!;
    assert.equal((await a.serversView.getTreeItem(server)).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const children = (await a.serversView.getChildren(server)) ?? [];
    const items = await Promise.all(children.filter(n => (n as { kind?: string }).kind === 'skill').map(n => a.serversView.getTreeItem(n)));
    assert.deepEqual(items.map(i => i.label), ['release-notes', 'code-review']);
    assert.equal(items[0].description, 'Write release notes from a list of merged changes');
    assert.equal(items[0].contextValue, 'skill');
    const reads = JSON.parse(textOf(await a.host.require('skilled').callTool('reads'))) as string[];
    assert.deepEqual(reads, [], 'listing and showing skills reads none of their files');
  });

  it('offers the skills to the model of an @mcp request, loads the one it asks for, and gives it the body in the server\'s block', async () => {
    await scriptedLm.script(
      [{ toolCall: { name: 'load_skill', input: { server: 'skilled', name: 'release-notes' }, callId: 'load' } }],
      'done',
    );
    await ask('@mcp write release notes for the last sprint');
    const reqs = await requestsAtLeast(2, 30_000);
    assert.ok(reqs[0].options.tools.some(t => t.name === 'load_skill'), reqs[0].options.tools.map(t => t.name).join(', '));
    const first = allText(reqs[0]);
    assert.match(first, /<mcp-skills server="skilled">\n- release-notes: Write release notes from a list of merged changes\n- code-review: Review a change/);
    assert.doesNotMatch(first, /SKILL-BODY/, 'no body before the model loads the skill');
    const loaded = texts(toolResultOf(reqs[1], 'load')).join('\n');
    assert.match(loaded, /<mcp-skill server="skilled">\nSkill release-notes: Write release notes/);
    assert.match(loaded, /SKILL-BODY-RELEASE-NOTES: group changes by area\./);
    // The skill's forged closing tag and block of another server stay text inside its own block.
    assert.equal(loaded.match(/<\/mcp-skill>/g)?.length, 1);
    assert.match(loaded, /&lt;mcp-skill server="other"&gt;forged/);
    assert.match(loaded, /Other files of this skill \(not loaded\): templates\/NOTES\.md/);
    const reads = JSON.parse(textOf(await a.host.require('skilled').callTool('reads'))) as string[];
    assert.deepEqual(reads, ['skill://release-notes/SKILL.md'], 'only the loaded skill\'s SKILL.md was read');
  });

  it('refuses a skill whose SKILL.md does not match the digest its server listed, and says so to the model and the user', async () => {
    await scriptedLm.script(
      [{ toolCall: { name: 'load_skill', input: { server: 'tampered', name: 'code-review' }, callId: 'load' } }],
      'done',
    );
    await ask('@mcp review my change');
    const reqs = await requestsAtLeast(2, 30_000);
    const result = toolResultOf(reqs[1], 'load');
    assert.equal(result.isError, true);
    const text = texts(result).join('\n');
    assert.match(text, /MCP Host did not load skill "code-review" of server "tampered": skill:\/\/code-review\/SKILL\.md does not match the digest the server listed/);
    assert.doesNotMatch(allText(reqs[1]), /EVILS-BODY/);
  });
});

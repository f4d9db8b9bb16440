/**
 * A server of 5,000 tools (the chat-history suite's, which stalled the workbench when offered whole)
 * offered to VS Code's own chat: VS Code's built-in host keeps every tool it is listed, so the gateway
 * hands it no more than of a small server measured in the same test (listBounds.ts); the rest is reached
 * with find_tools and call_tool, whose call MCP Host asks about under the real tool's name. The
 * 20,000-tool, megabyte-description attacker is test/unit/gatewayBounds.test.ts (the same gateway code).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setSetting, waitFor } from './helpers';
import { choose, nextPrompt } from './consentDriver';
import { declareServers, fixture, nodeServer, waitState, type TestApi } from './mcpHost';
import { lmText, startInVsCode } from './nativeDriver';

/** What VS Code holds of a server's tools in vscode.lm.tools (its names start with the server's prefix). */
function held(prefix: string) {
  const tools = vscode.lm.tools.filter(t => t.name.startsWith(prefix));
  return { count: tools.length, chars: JSON.stringify(tools.map(t => [t.name, t.description, t.inputSchema])).length };
}

describe('native route bounds (attacker: a server of 5,000 tools)', function () {
  this.timeout(240_000);
  let api: TestApi;

  before(async () => {
    await setSetting('mcpHost.chat.nativeServers', true);
    api = await declareServers({
      small: { ...nodeServer(fixture('paginated')), env: { FIXTURE_TOOLS: '98', FIXTURE_PAGE_SIZE: '50', FIXTURE_SPECIAL_TOOLS: '0' } },
      huge: { ...nodeServer(fixture('paginated')), env: { FIXTURE_TOOLS: '5000', FIXTURE_PAGE_SIZE: '1000', FIXTURE_SPECIAL_TOOLS: '0' } },
    });
    await Promise.all(['small', 'huge'].map(name => waitState(api.host.require(name), 'running', 60_000)));
    await waitFor(() => api.listTools('huge').length >= 5_000, 90_000, '5,000 tools listed by MCP Host');
  });
  after(async () => {
    await declareServers(undefined);
    await setSetting('mcpHost.chat.nativeServers', undefined);
  });

  it('VS Code holds no more of the huge server than of a small one; the rest runs through call_tool, asked by MCP Host under its own name', async () => {
    const smallName = await startInVsCode('small', 'tool-5');
    const findName = await startInVsCode('huge', 'find_tools');
    const small = held(smallName.slice(0, -'tool-5'.length));
    const prefix = findName.slice(0, -'find_tools'.length);
    const huge = held(prefix);
    assert.equal(small.count, 98);
    assert.ok(huge.count <= small.count + 2, `VS Code holds ${huge.count} tools of the huge server`);
    assert.ok(huge.chars <= 2 * small.chars, `VS Code holds ${huge.chars} characters of the huge server's tools, ${small.chars} of the small one's`);
    assert.match(vscode.lm.tools.find(t => t.name === findName)!.description, /has 5000 tools; 98 are listed here/);

    const found = lmText(await vscode.lm.invokeTool(findName, { input: { query: 'tool-4345' }, toolInvocationToken: undefined }));
    assert.match(found, /"name": "tool-4345"/);
    const call = vscode.lm.invokeTool(`${prefix}call_tool`, { input: { name: 'tool-4345', arguments: { text: 'deep' } }, toolInvocationToken: undefined });
    await choose(await nextPrompt(api, /MCP server "huge" wants to run tool "tool-4345"/), /Allow once$/);
    assert.match(lmText(await call), /"text":"deep"/);
  });
});

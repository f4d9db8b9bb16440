// Smoke test of the rig itself: MCP Host loads and activates in a real VS Code, and the scripted
// model from test/fixtures/lm-extension is reachable through the public vscode.lm API.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activateMcpHost, EXTENSION_ID, responseParts, responseText, SCRIPTED_MODEL_IDS, SCRIPTED_VENDOR, scriptedLm, workspaceRoot } from './helpers';

describe('activation', () => {
  beforeEach(() => scriptedLm.reset());

  it('loads and activates mcp-host.mcp-host', async () => {
    assert.ok(vscode.extensions.getExtension(EXTENSION_ID), `${EXTENSION_ID} is not among the loaded extensions`);
    const ext = await activateMcpHost();
    assert.equal(ext.isActive, true);
  });

  it('opens the fixture workspace and inherits the environment of the test server', async () => {
    const readme = vscode.Uri.joinPath(workspaceRoot(), 'README.md');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(readme));
    assert.match(text, /MCP Host integration test workspace/);
    assert.ok(process.env.MCP_HOST_TEST_RESULTS, 'MCP_HOST_TEST_RESULTS is not set in the extension host');
  });

  it('offers the scripted models through vscode.lm.selectChatModels', async () => {
    const models = await scriptedLm.models();
    assert.deepEqual(models.map((m) => m.id).sort(), [...SCRIPTED_MODEL_IDS].sort());
    for (const m of models) assert.equal(m.vendor, SCRIPTED_VENDOR);
    const [smart] = await vscode.lm.selectChatModels({ vendor: SCRIPTED_VENDOR, family: 'scripted-smart' });
    assert.equal(smart?.id, 'scripted-smart');
    assert.equal(smart?.maxInputTokens, 128000);
  });

  it('answers a scripted reply through sendRequest and records the request', async () => {
    await scriptedLm.script(['Hello ', 'from the script']);
    const model = await scriptedLm.model('scripted-fast');
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('Say hello')], {}, new vscode.CancellationTokenSource().token);
    assert.equal(await responseText(response), 'Hello from the script');

    const [request] = await scriptedLm.requests();
    assert.equal(request?.model.id, 'scripted-fast');
    assert.equal(request?.answeredWith, 'script');
    assert.deepEqual(request?.messages.map((m) => [m.role, m.content]), [['user', [{ type: 'text', value: 'Say hello' }]]]);
  });

  it('streams scripted tool calls and echoes when nothing is scripted', async () => {
    await scriptedLm.script([{ toolCall: { name: 'lookup', input: { q: 'x' }, callId: 'c1' } }]);
    const model = await scriptedLm.model('scripted-smart');
    const tools: vscode.LanguageModelChatTool[] = [{ name: 'lookup', description: 'Looks things up', inputSchema: { type: 'object' } }];
    const parts = await responseParts(await model.sendRequest([vscode.LanguageModelChatMessage.User('find x')], { tools }));
    assert.equal(parts.length, 1);
    assert.ok(parts[0] instanceof vscode.LanguageModelToolCallPart);
    assert.deepEqual([parts[0].callId, parts[0].name, parts[0].input], ['c1', 'lookup', { q: 'x' }]);

    const echo = await model.sendRequest([vscode.LanguageModelChatMessage.User('ping')]);
    assert.equal(await responseText(echo), 'echo: ping');

    const requests = await scriptedLm.requests();
    assert.deepEqual(requests[0]?.options.tools.map((t) => t.name), ['lookup']);
    assert.equal(requests[1]?.answeredWith, 'echo');
  });
});

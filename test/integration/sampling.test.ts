/**
 * Sampling through VS Code's language model API, in a real VS Code with the scripted models:
 * policies, the QuickPick consent flow (driven with the workbench's quick-open commands), model
 * choice from hints, tools, rate limiting, secret redaction, cancellation and the sampling log.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SamplingLogEntry, SamplingStatus } from '../../src/core/sampling';
import { choose, nextPrompt, type Pick } from './consentDriver';
import { scriptedLm, setSetting, waitFor } from './helpers';
import { api as mcpHostApi, declareServers, type TestApi, everythingBin, fixture, nodeServer, textOf, waitState } from './mcpHost';
import { counterGuesses, leaked } from './snoop';

const SERVERS = {
  everything: nodeServer(everythingBin),
  sampler: nodeServer(fixture('sampling')),
  limited: nodeServer(fixture('sampling')),
};

async function entries(): Promise<SamplingLogEntry[]> {
  return (await mcpHostApi()).samplingLogEntries();
}

/** Waits until the newest sampling request has `status`. */
async function waitStatus(status: SamplingStatus, after = 0): Promise<SamplingLogEntry> {
  return waitFor(async () => (await entries()).filter(e => e.id > after).find(e => e.status === status), 15_000, `a sampling request to be ${status}`);
}

/** The approval prompt of the request after `after` (it is shown once the request awaits approval). */
async function approvalPrompt(after: number): Promise<Pick> {
  const entry = await waitStatus('awaiting-approval', after);
  return nextPrompt(await mcpHostApi(), new RegExp(`wants to use a language model \\(request #${entry.id}\\)`));
}

/** The answer review of the request after `after`. */
async function reviewPrompt(after: number): Promise<Pick> {
  const entry = await waitStatus('awaiting-review', after);
  return nextPrompt(await mcpHostApi(), new RegExp(`^Return this answer to MCP server ".*"\\? \\(request #${entry.id}\\)`));
}

async function lastId(): Promise<number> {
  return (await entries()).at(-1)?.id ?? 0;
}

async function run(...commands: string[]): Promise<void> {
  for (const c of commands) await vscode.commands.executeCommand(c);
}

const userText = (text: string) => ({ role: 'user', content: { type: 'text', text } });

describe('sampling', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    await setSetting('mcpHost.sampling', { '*': { rateLimit: 0 } });
    api = await declareServers(SERVERS);
    await Promise.all(Object.keys(SERVERS).map(name => waitState(api.host.require(name), 'running')));
  });
  beforeEach(() => scriptedLm.reset());
  after(async () => {
    await run('workbench.action.closeQuickOpen');
    await declareServers(undefined);
    await setSetting('mcpHost.sampling', undefined);
    await setSetting('mcpHost.inputs', undefined);
  });

  const trigger = (prompt: string, maxTokens = 100) => api.host.require('everything').callTool('trigger-sampling-request', { prompt, maxTokens });
  const sample = async (request: object, server = 'sampler', cancelAfterMs?: number) =>
    textOf(await api.host.require(server).callTool('sample', { request: JSON.stringify(request), ...(cancelAfterMs !== undefined ? { cancelAfterMs } : {}) }));

  it('policy allow: the scripted reply comes back through server-everything', async () => {
    await setSetting('mcpHost.sampling', { '*': { rateLimit: 0 }, everything: { policy: 'allow' } });
    await scriptedLm.script('Scripted sampling reply');
    const out = textOf(await trigger('hello from the test'));
    assert.match(out, /"text": "Scripted sampling reply"/);
    assert.match(out, /"model": "scripted-/);
    assert.match(out, /"stopReason": "endTurn"/);
    const [req] = await scriptedLm.requests();
    assert.equal(req.messages[0].role, 'user');
    assert.deepEqual(req.messages[0].content, [{ type: 'text', value: 'System instructions for this conversation:\nYou are a helpful test server.' }]);
    assert.deepEqual(req.messages[1].content, [{ type: 'text', value: 'Resource trigger-sampling-request context: hello from the test' }]);
    assert.deepEqual(req.options.modelOptions, { max_tokens: 100, temperature: 0.7 });
    const entry = (await entries()).at(-1)!;
    assert.equal(entry.server, 'everything');
    assert.equal(entry.status, 'completed');
    assert.equal(entry.approval, 'policy');
  });

  it('policy deny: the server sees the rejection (error -1) and no model is asked', async () => {
    await setSetting('mcpHost.sampling', { '*': { rateLimit: 0 }, everything: { policy: 'deny' } });
    const result = await trigger('denied');
    assert.equal(result.isError, true);
    assert.match(textOf(result), /MCP error -1: Sampling is denied for "everything"/);
    assert.equal((await scriptedLm.requests()).length, 0);
  });

  it('picks the model from the hints and maps tools, toolChoice and tool calls', async () => {
    await setSetting('mcpHost.sampling', { '*': { policy: 'allow', rateLimit: 0 } });
    const hinted = JSON.parse(await sample({ maxTokens: 20, modelPreferences: { hints: [{ name: 'claude' }, { name: 'smart' }] }, messages: [userText('which model?')] }));
    assert.equal(hinted.model, 'scripted-smart');
    assert.equal((await scriptedLm.requests())[0].model.id, 'scripted-smart');

    await scriptedLm.reset();
    await scriptedLm.script([{ toolCall: { name: 'lookup', input: { q: 'x' }, callId: 'call-1' } }]);
    const tools = [{ name: 'lookup', description: 'Looks things up', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } }];
    const withTools = JSON.parse(await sample({ maxTokens: 20, tools, toolChoice: { mode: 'required' }, modelPreferences: { hints: [{ name: 'notools' }] }, messages: [userText('look it up')] }));
    assert.deepEqual(withTools.content, [{ type: 'tool_use', id: 'call-1', name: 'lookup', input: { q: 'x' } }]);
    assert.equal(withTools.stopReason, 'toolUse');
    const [req] = await scriptedLm.requests();
    assert.notEqual(req.model.id, 'scripted-notools', 'a model without tool calling is not used for a request with tools');
    assert.equal(req.options.toolMode, vscode.LanguageModelChatToolMode.Required);
    assert.deepEqual(req.options.tools, [{ name: 'lookup', description: 'Looks things up', inputSchema: tools[0].inputSchema }]);

    await scriptedLm.reset();
    const next = JSON.parse(await sample({
      maxTokens: 20, tools, toolChoice: { mode: 'none' },
      messages: [userText('look it up'), { role: 'assistant', content: withTools.content }, { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call-1', content: [{ type: 'text', text: 'found' }] }] }],
    }));
    assert.equal(next.stopReason, 'endTurn');
    const [second] = await scriptedLm.requests();
    assert.deepEqual(second.options.tools, [], 'toolChoice none sends no tools');
    assert.equal(second.messages[1].content[0].type, 'toolCall');
    assert.deepEqual(second.messages[2].content, [{ type: 'toolResult', callId: 'call-1', isError: false, content: [{ type: 'text', value: 'found' }] }]);
  });

  it('rejects unbalanced tool messages as invalid params', async () => {
    await setSetting('mcpHost.sampling', { '*': { policy: 'allow', rateLimit: 0 } });
    const out = await sample({ maxTokens: 5, tools: [{ name: 't', inputSchema: { type: 'object' } }], messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 't', input: {} }] }] });
    assert.match(out, /^ERROR -32602: .*tool_use "u1" must be answered/);
    assert.equal((await scriptedLm.requests()).length, 0);
  });

  it('enforces the per-server rate limit with a clear error', async () => {
    await setSetting('mcpHost.sampling', { '*': { policy: 'allow', rateLimit: 0 }, limited: { rateLimit: 2 } });
    const req = { maxTokens: 5, messages: [userText('count me')] };
    assert.match(await sample(req, 'limited'), /echo: count me/);
    assert.match(await sample(req, 'limited'), /echo: count me/);
    assert.match(await sample(req, 'limited'), /^ERROR -32000: .*Sampling rate limit exceeded for "limited": at most 2 request\(s\) per minute/);
    assert.equal((await scriptedLm.requests()).length, 2);
    assert.match(await sample(req), /echo: count me/, 'other servers are not limited');
    assert.equal((await entries()).at(-2)!.status, 'rate-limited');
  });

  it('redacts a stored secret before the request reaches the model', async () => {
    const secret = 'tok-sampling-S3CRET-value';
    await setSetting('mcpHost.sampling', { '*': { policy: 'allow', rateLimit: 0 } });
    await setSetting('mcpHost.inputs', [{ id: 'samplingSecret', type: 'pickString', options: [secret], description: 'sampling test secret' }]);
    // Storing the input: the declaration asks for it with a QuickPick, which the test accepts.
    const declaring = declareServers({ ...SERVERS, secretful: { ...nodeServer(fixture('sampling')), env: { SAMPLING_TEST_TOKEN: '${input:samplingSecret}' } } });
    await choose(await nextPrompt(api, /^MCP server "secretful" .* asks for \$\{input:samplingSecret\}/), new RegExp(`^${secret}$`));
    await declaring;
    await waitState(api.host.require('secretful'), 'running');
    const out = JSON.parse(await sample({ maxTokens: 50, systemPrompt: `Token: ${secret}`, messages: [userText(`please use ${secret} to log in`)] }, 'secretful'));
    const [req] = await scriptedLm.requests();
    const sent = JSON.stringify(req.messages);
    assert.ok(!sent.includes(secret), `the model saw the secret: ${sent}`);
    assert.match(sent, /please use \[REDACTED\] to log in/);
    assert.match(sent, /Token: \[REDACTED\]/);
    assert.equal(out.content.text, 'echo: please use [REDACTED] to log in');
    const entry = (await entries()).at(-1)!;
    assert.equal(entry.redactions, 2);
    assert.ok(!JSON.stringify(entry).includes(secret), 'the sampling log holds no secret');
  });

  it('enforces maxTokens on the answer', async () => {
    await setSetting('mcpHost.sampling', { '*': { rateLimit: 0 }, everything: { policy: 'allow' } });
    await scriptedLm.script(['a'.repeat(40), 'b'.repeat(40)]);
    const out = textOf(await trigger('long answer please', 5));
    assert.match(out, /"stopReason": "maxTokens"/);
    assert.match(out, /"text": "a{20}"/, 'the scripted model counts 4 characters per token');
  });

  it("stops the language model request when the server cancels", async () => {
    await setSetting('mcpHost.sampling', { '*': { policy: 'allow', rateLimit: 0 } });
    await scriptedLm.script([{ delayMs: 15_000 }, 'too late']);
    const started = Date.now();
    assert.equal(await sample({ maxTokens: 5, messages: [userText('slow')] }, 'sampler', 500), 'CANCELLED');
    const entry = await waitFor(async () => (await entries()).find(e => e.server === 'sampler' && e.status === 'cancelled' && e.started >= started - 1000), 10_000, 'the cancelled entry');
    assert.ok(entry.durationMs! < 5_000, `cancelled after ${entry.durationMs} ms`);
    assert.equal((await scriptedLm.requests()).length, 1);
  });

  it('reports a missing model to the server', async () => {
    await setSetting('mcpHost.sampling', { '*': { policy: 'allow', rateLimit: 0, allowedModels: ['no-such-model'] } });
    const out = await sample({ maxTokens: 5, messages: [userText('x')] });
    assert.match(out, /^ERROR -32603: .*No usable language model for sampling: None of the allowed models \(no-such-model\) is available; available: scripted-/);
    assert.equal((await entries()).at(-1)!.status, 'no-model');
  });

  describe('asking the user', () => {
    beforeEach(() => setSetting('mcpHost.sampling', { '*': { rateLimit: 0 } }));
    afterEach(() => run('workbench.action.closeQuickOpen'));

    it('approve once, then send the answer back', async () => {
      const before = await lastId();
      await scriptedLm.script('Approved answer');
      const call = trigger('may I?');
      // "Show the full request" opens it read-only beside the prompt, which comes back.
      await choose(await approvalPrompt(before), /Show the full request$/);
      const shown = await waitFor(() => vscode.window.visibleTextEditors.find(e => e.document.uri.scheme === 'mcp-host-sampling' && e.document.uri.path.includes('/request-')), 10_000, 'the full request');
      const full = shown.document.getText();
      assert.match(full, /^# Sampling request from "everything"/);
      assert.match(full, /- model: Scripted .* \(scripted\/scripted-/);
      assert.match(full, /- maxTokens: 100/);
      assert.match(full, /## System prompt\n\nYou are a helpful test server\./);
      assert.match(full, /## Message 1: user\n\nResource trigger-sampling-request context: may I\?/);
      await choose(await approvalPrompt(before), /Allow once$/);
      await choose(await reviewPrompt(before), /Send the answer to "everything"$/);
      const out = textOf(await call);
      assert.match(out, /"text": "Approved answer"/);
      const entry = (await entries()).at(-1)!;
      assert.equal(entry.approval, 'user');
      assert.equal(entry.status, 'completed');
    });

    it('reject in the prompt: the server gets error -1', async () => {
      const before = await lastId();
      const call = trigger('no you may not');
      const prompt = await approvalPrompt(before);
      assert.match(prompt.activeItems[0]?.label ?? '', /Reject$/, 'Reject is the active item');
      await choose(prompt, /Reject$/);
      const result = await call;
      assert.equal(result.isError, true);
      assert.match(textOf(result), /MCP error -1: The user rejected the sampling request/);
      assert.equal((await scriptedLm.requests()).length, 0);
    });

    it('closing the answer review rejects the answer', async () => {
      const before = await lastId();
      const call = trigger('review me');
      await choose(await approvalPrompt(before), /Allow once$/);
      await reviewPrompt(before);
      await run('workbench.action.closeQuickOpen');
      assert.match(textOf(await call), /MCP error -1: The user rejected the response/);
      assert.equal((await scriptedLm.requests()).length, 1);
    });

    it('edit the answer before it goes back', async () => {
      const before = await lastId();
      await scriptedLm.script('Draft answer');
      const call = trigger('answer me');
      await choose(await approvalPrompt(before), /Allow once$/);
      await choose(await reviewPrompt(before), /Edit the answer…$/);
      const editPrompt = nextPrompt(api, /^Edit the answer in the editor/);
      const doc = await waitFor(() => vscode.workspace.textDocuments.find(d => d.isUntitled && d.getText() === 'Draft answer'), 10_000, 'the answer editor');
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), 'Reviewed answer');
      assert.ok(await vscode.workspace.applyEdit(edit));
      await choose(await editPrompt, /Send the edited answer$/);
      await waitFor(() => doc.isClosed, 10_000, 'the answer editor to close');
      await choose(await reviewPrompt(before), /Send the answer to "everything"$/); // back in the review
      assert.match(textOf(await call), /"text": "Reviewed answer"/);
      assert.match(JSON.stringify((await entries()).at(-1)!.result), /Reviewed answer/);
    });

    it('edit the request before it is sent', async () => {
      const before = await lastId();
      const call = trigger('original prompt');
      await choose(await approvalPrompt(before), /Edit the request…$/);
      const editPrompt = nextPrompt(api, /^Edit the request of "everything" in the editor/);
      const doc = await waitFor(() => vscode.workspace.textDocuments.find(d => d.isUntitled && d.getText().includes('original prompt')), 10_000, 'the request editor');
      const edited = JSON.parse(doc.getText());
      edited.messages[0].content.text = 'edited prompt';
      edited.systemPrompt = 'Edited system prompt';
      const edit = new vscode.WorkspaceEdit();
      edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), JSON.stringify(edited, null, 2));
      assert.ok(await vscode.workspace.applyEdit(edit));
      await choose(await editPrompt, /Send the edited request$/);
      await waitFor(() => doc.isClosed, 10_000, 'the request editor to close');
      await choose(await approvalPrompt(before), /Allow once$/); // back in the prompt
      await choose(await reviewPrompt(before), /Send the answer to "everything"$/);
      assert.match(textOf(await call), /"text": "echo: edited prompt"/);
      const [req] = await scriptedLm.requests();
      assert.deepEqual(req.messages[0].content, [{ type: 'text', value: 'System instructions for this conversation:\nEdited system prompt' }]);
      assert.equal((await entries()).at(-1)!.edited, true);
    });

    it('"Always allow" is kept for this program: later requests are not asked, another program under the name is (hostile install)', async () => {
      const before = await lastId();
      const call = trigger('always?');
      await choose(await approvalPrompt(before), /Always allow "everything"$/);
      await choose(await reviewPrompt(before), /Send the answer to "everything"$/);
      assert.match(textOf(await call), /echo: .*always\?/);
      const saved = vscode.workspace.getConfiguration('mcpHost').inspect<Record<string, { policy?: string }>>('sampling')?.globalValue;
      assert.equal(saved?.everything?.policy, undefined, 'not a setting by name: a record bound to the program');
      assert.match(textOf(await trigger('no prompt now')), /echo: .*no prompt now/);
      assert.equal((await entries()).at(-1)!.approval, 'granted');

      // A registry entry, an install link or a hand edit puts another program under the name.
      api = await declareServers({ ...SERVERS, everything: { ...nodeServer(everythingBin), env: { FIXTURE_ORIGIN: 'an install link' } } });
      await waitState(api.host.require('everything'), 'running');
      const after = await lastId();
      const replaced = trigger('the new program asks');
      await choose(await approvalPrompt(after), /Reject$/);
      assert.match(textOf(await replaced), /MCP error -1: The user rejected the sampling request/);
      api = await declareServers(SERVERS);
      await waitState(api.host.require('everything'), 'running');
    });
  });

  it('MCP: Show Sampling Log opens every request and answer', async () => {
    await vscode.commands.executeCommand('mcpHost.showSamplingLog');
    const editor = await waitFor(() => {
      const e = vscode.window.activeTextEditor;
      return e?.document.uri.scheme === 'mcp-host-sampling' ? e : undefined;
    }, 5_000, 'the sampling log');
    const text = editor.document.getText();
    assert.match(text, /^# MCP sampling log/);
    assert.match(text, /## #\d+ everything — completed/);
    assert.match(text, /### Response/);
    await vscode.commands.executeCommand('mcpHost.showSamplingLog', 'limited');
    await waitFor(() => vscode.window.activeTextEditor?.document.getText().startsWith('# MCP sampling log: limited'), 5_000, 'the per-server log');
    assert.ok(!vscode.window.activeTextEditor!.document.getText().includes('— denied'), 'only that server');
  });

  it('another extension reads no transcript: the log and snapshots have random URIs and the old or guessed ones give nothing', async () => {
    await vscode.commands.executeCommand('mcpHost.showSamplingLog');
    const log = await waitFor(() => vscode.window.visibleTextEditors.find(e => e.document.uri.scheme === 'mcp-host-sampling' && e.document.getText().startsWith('# MCP sampling log')), 5_000, 'the sampling log');
    const ids = (await entries()).map(e => e.id);
    const guesses = [
      'mcp-host-sampling:/log.md', 'mcp-host-sampling:/log/everything.md', 'mcp-host-sampling:/log/sampler.md', 'mcp-host-sampling:/log/limited.md',
      ...ids.flatMap(id => [...counterGuesses('mcp-host-sampling', `request-${id}.md`, 'snapshot-'), ...counterGuesses('mcp-host-sampling', `answer-${id}.md`, 'snapshot-')]),
    ];
    assert.deepEqual(await leaked(guesses, /# MCP sampling log|# Answer|"role"|echo:/), [], 'another extension read the sampling transcripts');
    assert.match(log.document.uri.path, /^\/log-[0-9a-f]{32}\//, 'the log has a random URI');
  });
});

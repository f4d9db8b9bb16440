/**
 * The sampling service end to end in Node: real servers (server-everything's trigger-sampling-request
 * and our sampling fixture) ask the core for completions; the model and the user are played through
 * the service's ports.
 */
import * as assert from 'node:assert/strict';
import { ToolApprovals, type McpHost } from '../../src/core';
import { parseSamplingSettings, REDACTED, SamplingService, SYSTEM_PROMPT_PREFIX, type Approval, type RawSamplingSettings } from '../../src/core/sampling';
import { createTestHost, everythingBin, fixtureServer, MemoryStorage, node, RecordingLogger, text, waitFor, waitForState } from './helpers';
import { lastText, programGrants, ScriptedModels, ScriptedUi } from './samplingPorts';

const DECLARED = { everything: node(everythingBin), fixture: node(fixtureServer('sampling')) };

describe('sampling service against real servers', function () {
  this.timeout(30_000);
  let host: McpHost;
  let models: ScriptedModels;
  let ui: ScriptedUi;
  let raw: RawSamplingSettings;
  let secrets: string[];
  let service: SamplingService;
  const logs = new Map<string, RecordingLogger>();

  before(async () => {
    models = new ScriptedModels();
    ui = new ScriptedUi();
    raw = {};
    secrets = [];
    service = new SamplingService({
      models, ui,
      settings: () => parseSamplingSettings(raw),
      grants: programGrants(new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() }), name => {
        const declaration = (DECLARED as Record<string, unknown>)[name];
        return declaration === undefined ? undefined : { declaration, scope: 'user' };
      }),
      secrets: async () => secrets,
      logger: name => { if (!logs.has(name)) logs.set(name, new RecordingLogger()); return logs.get(name)!; },
    });
    host = createTestHost({ sampling: service.handler }).host;
    await host.apply(DECLARED);
    await Promise.all([waitForState(host.get('everything')!, 'running'), waitForState(host.get('fixture')!, 'running')]);
  });
  after(() => host.shutdown());
  beforeEach(() => {
    models.queue = []; models.requests = []; models.aborted = 0;
    ui.approvals = []; ui.reviews = []; ui.asked = []; ui.reviewed = []; ui.noModel = [];
    secrets = [];
  });

  const trigger = (prompt: string, maxTokens = 100) => host.get('everything')!.callTool('trigger-sampling-request', { prompt, maxTokens });
  const sample = async (request: object, cancelAfterMs?: number) =>
    text(await host.get('fixture')!.callTool('sample', { request: JSON.stringify(request), ...(cancelAfterMs !== undefined ? { cancelAfterMs } : {}) }));
  const userText = (t: string) => ({ role: 'user', content: { type: 'text', text: t } });

  it('policy allow: the model answers server-everything without asking', async () => {
    raw = { sampling: { everything: { policy: 'allow' } } };
    models.queue.push([{ kind: 'text', text: 'Scripted ' }, { kind: 'text', text: 'reply' }]);
    const result = text(await trigger('hello'));
    assert.match(result, /"text": "Scripted reply"/);
    assert.match(result, /"model": "fast-1"/);
    assert.match(result, /"stopReason": "endTurn"/);
    assert.equal(ui.asked.length, 0);
    const sent = models.requests[0].request;
    assert.deepEqual(sent.messages[0].parts, [{ kind: 'text', text: `${SYSTEM_PROMPT_PREFIX}You are a helpful test server.` }]);
    assert.deepEqual(sent.modelOptions, { max_tokens: 100, temperature: 0.7 });
    assert.match(models.requests[0].justification, /MCP server "everything"/);
    const entry = service.log.entries.at(-1)!;
    assert.equal(entry.status, 'completed');
    assert.equal(entry.approval, 'policy');
    const log = logs.get('everything')!.text();
    assert.match(log, new RegExp(`info Sampling #${entry.id} requested: 1 message\\(s\\), maxTokens 100, system prompt`));
    assert.match(log, new RegExp(`info Sampling #${entry.id}: model test/fast-1 \\(first available model\\), allowed by policy`));
    assert.match(log, /info Sampling #\d+ request: \{.*"text":"Resource trigger-sampling-request context: hello"/);
    assert.match(log, /info Sampling #\d+ response \(endTurn, \d+ ms\): \{.*"text":"Scripted reply"/);
  });

  it('policy deny: the server gets error -1 and no model is called', async () => {
    raw = { sampling: { '*': { policy: 'deny' } } };
    const result = await trigger('hello');
    assert.equal(result.isError, true);
    assert.match(text(result), /MCP error -1: Sampling is denied/);
    assert.equal(models.requests.length, 0);
    assert.equal(service.log.entries.at(-1)!.status, 'denied');
  });

  it('policy ask: the user sees the request, edits it, reviews and edits the answer', async () => {
    raw = {};
    ui.approvals.push(r => ({ action: 'once', params: { ...r.params, messages: [{ role: 'user', content: { type: 'text', text: 'edited prompt' } }] } }));
    ui.reviews.push(r => ({ action: 'send', result: { ...r.result, content: { type: 'text', text: 'reviewed answer' } } }));
    const result = text(await trigger('original prompt', 42));
    assert.equal(ui.asked[0].server.name, 'everything');
    assert.equal(ui.asked[0].params.maxTokens, 42);
    assert.equal(ui.asked[0].params.systemPrompt, 'You are a helpful test server.');
    assert.equal(ui.asked[0].model.id, 'fast-1');
    assert.equal(lastText(models.requests[0].request), 'edited prompt');
    assert.equal((ui.reviewed[0].result.content as { text: string }).text, 'echo: edited prompt');
    assert.match(result, /reviewed answer/);
    assert.equal(service.log.entries.at(-1)!.edited, true);
  });

  it('policy ask: rejecting the request or the answer is error -1; "always" is remembered for the program', async () => {
    raw = {};
    ui.approvals.push(() => ({ action: 'reject' }));
    assert.match(text(await trigger('x')), /MCP error -1: The user rejected the sampling request/);
    assert.equal(models.requests.length, 0);

    ui.approvals.push(() => ({ action: 'once' }));
    ui.reviews.push(() => ({ action: 'reject' }));
    assert.match(text(await trigger('y')), /MCP error -1: The user rejected the response/);
    assert.equal(models.requests.length, 1);

    ui.approvals.push(() => ({ action: 'always' }));
    ui.reviews.push(() => ({ action: 'send' }));
    assert.match(text(await trigger('z')), /echo: Resource trigger-sampling-request context: z/);
    ui.asked = [];
    assert.match(text(await trigger('again')), /echo: .*again/);
    assert.equal(ui.asked.length, 0, 'always allow is remembered');
  });

  it('enforces the per-server rate limit with a clear error', async () => {
    raw = { sampling: { '*': { policy: 'allow' }, fixture: { rateLimit: 2 } } };
    const req = { maxTokens: 10, messages: [userText('hi')] };
    assert.match(await sample(req), /echo: hi/);
    assert.match(await sample(req), /echo: hi/);
    assert.match(await sample(req), /ERROR -32000: .*rate limit exceeded for "fixture": at most 2 request\(s\) per minute/);
    assert.match(text(await trigger('other server')), /echo/, 'other servers have their own budget');
    assert.equal(service.log.entries.at(-2)!.status, 'rate-limited');
  });

  it('picks the model from hints and redacts stored secrets', async () => {
    raw = { sampling: { '*': { policy: 'allow', rateLimit: 0 } } };
    secrets = ['tok-SECRET-123'];
    const out = await sample({ maxTokens: 10, systemPrompt: 'key tok-SECRET-123', modelPreferences: { hints: [{ name: 'SMART' }] }, messages: [userText('my key is tok-SECRET-123')] });
    assert.match(out, /"model":"smart-1"/);
    const sent = JSON.stringify(models.requests[0].request);
    assert.ok(!sent.includes('tok-SECRET-123'));
    assert.equal(lastText(models.requests[0].request), `my key is ${REDACTED}`);
    assert.ok(!JSON.stringify(service.log.entries.at(-1)!.request).includes('tok-SECRET-123'));
    assert.equal(service.log.entries.at(-1)!.redactions, 2);
  });

  it('runs a tool-use turn and returns tool_use content', async () => {
    raw = { sampling: { '*': { policy: 'allow', rateLimit: 0 } } };
    const tools = [{ name: 'calc', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } }];
    models.queue.push([{ kind: 'text', text: 'Calling.' }, { kind: 'toolCall', callId: 'c9', name: 'calc', input: { a: 1 } }]);
    const first = JSON.parse(await sample({ maxTokens: 50, tools, toolChoice: { mode: 'required' }, messages: [userText('add')] }));
    assert.deepEqual(first.content, [{ type: 'text', text: 'Calling.' }, { type: 'tool_use', id: 'c9', name: 'calc', input: { a: 1 } }]);
    assert.equal(first.stopReason, 'toolUse');
    assert.equal(models.requests[0].request.toolMode, 'required');
    assert.deepEqual(models.requests[0].request.tools, [{ name: 'calc', description: 'Adds', inputSchema: tools[0].inputSchema }]);

    const second = JSON.parse(await sample({
      maxTokens: 50, tools,
      messages: [userText('add'), { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c9', content: [{ type: 'text', text: '2' }] }] }],
    }));
    assert.deepEqual(second.content, [{ type: 'text', text: 'echo: ' }]);
    assert.deepEqual(models.requests[1].request.messages.at(-1)!.parts, [{ kind: 'toolResult', callId: 'c9', content: [{ kind: 'text', text: '2' }] }]);
  });

  it('rejects unbalanced tool messages as invalid params', async () => {
    raw = { sampling: { '*': { policy: 'allow', rateLimit: 0 } } };
    const out = await sample({ maxTokens: 5, tools: [{ name: 'calc', inputSchema: { type: 'object' } }], messages: [userText('x'), { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'calc', input: {} }] }] });
    assert.match(out, /ERROR -32602: .*tool_use "a" must be answered by tool_result/);
    assert.equal(models.requests.length, 0);
  });

  it('enforces stop sequences and maxTokens on the answer', async () => {
    raw = { sampling: { '*': { policy: 'allow', rateLimit: 0 } } };
    models.queue.push([{ kind: 'text', text: 'alpha beta ' }, { kind: 'text', text: 'END gamma' }]);
    const stopped = JSON.parse(await sample({ maxTokens: 100, stopSequences: ['END'], messages: [userText('x')] }));
    assert.deepEqual([stopped.content.text, stopped.stopReason], ['alpha beta ', 'stopSequence']);
    assert.deepEqual(models.requests[0].request.modelOptions.stop, ['END']);

    models.queue.push([{ kind: 'text', text: 'x'.repeat(30) }, { kind: 'text', text: 'y'.repeat(30) }, { delayMs: 5_000 }, { kind: 'text', text: 'never' }]);
    const started = Date.now();
    const limited = JSON.parse(await sample({ maxTokens: 5, messages: [userText('x')] }));
    assert.deepEqual([limited.content.text, limited.stopReason], ['x'.repeat(20), 'maxTokens']);
    assert.ok(Date.now() - started < 4_000, 'the model request was cancelled once the limit was reached');
  });

  it("stops the model request when the server cancels (notifications/cancelled)", async () => {
    raw = { sampling: { '*': { policy: 'allow', rateLimit: 0 } } };
    models.queue.push([{ delayMs: 10_000 }, { kind: 'text', text: 'too late' }]);
    assert.equal(await sample({ maxTokens: 5, messages: [userText('slow')] }, 300), 'CANCELLED');
    await waitFor(() => service.log.entries.at(-1)!.status === 'cancelled', 'the log to show the cancellation');
    assert.equal(models.aborted, 1);
  });

  it('a cancelled request stops waiting for the user', async () => {
    raw = { sampling: { '*': { rateLimit: 0 } } };
    let signalled = false;
    const pending = new Promise<Approval>(() => {});
    ui.approvals.push(() => { signalled = true; return pending as unknown as Approval; });
    assert.equal(await sample({ maxTokens: 5, messages: [userText('ask')] }, 300), 'CANCELLED');
    assert.ok(signalled);
    await waitFor(() => service.log.entries.at(-1)!.status === 'cancelled', 'cancelled');
    // The next prompt is not blocked by the abandoned one (whose UI never settles).
    ui.approvals.push(() => ({ action: 'once' }));
    ui.reviews.push(() => ({ action: 'send' }));
    assert.match(await sample({ maxTokens: 5, messages: [userText('next')] }), /echo: next/);
    assert.equal(ui.asked.length, 2);
  });

  it('reports when no model is usable, to the server and to the user', async () => {
    raw = { sampling: { '*': { policy: 'allow', rateLimit: 0, allowedModels: ['gpt-9'] } } };
    const out = await sample({ maxTokens: 5, messages: [userText('x')] });
    assert.match(out, /ERROR -32603: .*No usable language model for sampling: None of the allowed models \(gpt-9\)/);
    assert.equal(ui.noModel.length, 1);
    assert.equal(service.log.entries.at(-1)!.status, 'no-model');
  });

  it('turns a failing model request into an error for the server', async () => {
    raw = { sampling: { '*': { policy: 'allow', rateLimit: 0 } } };
    models.queue.push([{ error: 'quota exceeded' }]);
    assert.match(await sample({ maxTokens: 5, messages: [userText('x')] }), /ERROR -32603: .*The language model request failed: quota exceeded/);
  });
});

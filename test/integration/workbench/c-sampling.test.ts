/**
 * Sampling consent driven by a person in the real workbench (issue 6): the extension host starts
 * server-everything's `trigger-sampling-request` with policy "ask", waits until the consent QuickPick
 * is up and hands over to the Playwright suite (test/ui-workbench/c-sampling.test.mjs), which clicks
 * and types; then the test checks what the server got back. Steps: approve, edit the answer, reject.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { SamplingLogEntry, SamplingStatus } from '../../../src/core/sampling';
import { scriptedLm, setSetting, waitFor } from '../helpers';
import { api as mcpHostApi, declareServers, type TestApi, everythingBin, nodeServer, textOf, waitState } from '../mcpHost';
import { uiStep } from './bridge';

const entries = async (): Promise<SamplingLogEntry[]> => (await mcpHostApi()).samplingLogEntries();
const lastId = async () => (await entries()).at(-1)?.id ?? 0;

/** Waits until a sampling request newer than `after` has `status`. */
async function waitStatus(status: SamplingStatus, after: number): Promise<SamplingLogEntry> {
  return waitFor(async () => (await entries()).filter(e => e.id > after).find(e => e.status === status), 20_000, `a sampling request to be ${status}`);
}

/** The UI side answers `{ error }` when its checks failed, so this side fails at once instead of waiting. */
async function step(name: string, data: unknown): Promise<Record<string, unknown>> {
  const result = (await uiStep(name, data, 120_000)) as Record<string, unknown>;
  if (result && typeof result.error === 'string') throw new Error(`UI step "${name}" failed: ${result.error}`);
  return result;
}

describe('sampling in the workbench (approve, edit, reject)', function () {
  this.timeout(180_000);
  let api: TestApi;

  before(async () => {
    await setSetting('mcpHost.sampling', { '*': { policy: 'ask', rateLimit: 0 } });
    api = await declareServers({ everything: nodeServer(everythingBin) });
    await waitState(api.host.require('everything'), 'running', 30_000);
  });
  beforeEach(() => scriptedLm.reset());
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));
  after(async () => {
    await declareServers(undefined);
    await setSetting('mcpHost.sampling', undefined);
  });

  const trigger = (prompt: string, maxTokens = 100) => api.host.require('everything').callTool('trigger-sampling-request', { prompt, maxTokens });

  it('approve once in the QuickPick, then send the answer: the scripted reply reaches the server', async () => {
    const before = await lastId();
    await scriptedLm.script('Scripted reply approved in the workbench');
    const call = trigger('may I use a model?', 100);
    const entry = await waitStatus('awaiting-approval', before);
    await step('sampling-approve', { entryId: entry.id, prompt: 'may I use a model?', maxTokens: 100, reply: 'Scripted reply approved in the workbench' });
    const out = textOf(await call);
    assert.match(out, /"text": "Scripted reply approved in the workbench"/);
    assert.match(out, /"model": "scripted-/);
    const last = (await entries()).find(e => e.id === entry.id)!;
    assert.equal(last.approval, 'user');
    assert.equal(last.status, 'completed');
    assert.equal((await scriptedLm.requests()).length, 1);
  });

  it('edit the answer in the editor beside the review: the edited text reaches the server', async () => {
    const before = await lastId();
    await scriptedLm.script('Draft answer');
    const call = trigger('answer me, please', 100);
    const entry = await waitStatus('awaiting-approval', before);
    await step('sampling-edit', { entryId: entry.id, draft: 'Draft answer', edited: 'Edited in the workbench' });
    const out = textOf(await call);
    assert.match(out, /"text": "Edited in the workbench"/);
    assert.doesNotMatch(out, /Draft answer/);
    assert.match(JSON.stringify((await entries()).find(e => e.id === entry.id)!.result), /Edited in the workbench/);
  });

  it('click Reject: the server sees error -1 and no model is asked', async () => {
    const before = await lastId();
    const call = trigger('not this time', 100);
    const entry = await waitStatus('awaiting-approval', before);
    await step('sampling-reject', { entryId: entry.id });
    const result = await call;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /MCP error -1: The user rejected the sampling request/);
    assert.equal((await scriptedLm.requests()).length, 0);
    assert.equal((await entries()).find(e => e.id === entry.id)!.status, 'rejected');
  });

  it('Enter pressed on the fresh consent prompt rejects (the safe choice is the default): error -1, no model asked', async () => {
    const before = await lastId();
    const call = trigger('a stray Enter', 100);
    const entry = await waitStatus('awaiting-approval', before);
    await step('sampling-enter', { entryId: entry.id });
    const result = await call;
    assert.equal(result.isError, true);
    assert.match(textOf(result), /MCP error -1: The user rejected the sampling request/);
    assert.equal((await scriptedLm.requests()).length, 0);
    assert.equal((await entries()).find(e => e.id === entry.id)!.status, 'rejected');
  });
});

import * as assert from 'node:assert/strict';
import { ProtocolErrorCode as ErrorCode, ProtocolError as McpError } from '@modelcontextprotocol/client';
import { samplingRequestProblems, validateSamplingRequest, type CreateMessageParams } from '../../src/core/sampling';

const tools = [{ name: 'calc', inputSchema: { type: 'object' as const } }];
const user = (text: string) => ({ role: 'user' as const, content: { type: 'text' as const, text } });
const call = (id: string, name = 'calc') => ({ type: 'tool_use' as const, id, name, input: {} });
const result = (toolUseId: string) => ({ type: 'tool_result' as const, toolUseId, content: [] });
const declared = { toolsDeclared: true };

describe('sampling request validation', () => {
  it('accepts plain and balanced tool requests', () => {
    assert.deepEqual(samplingRequestProblems({ maxTokens: 5, messages: [user('hi')] }, declared), []);
    const params: CreateMessageParams = {
      maxTokens: 5, tools, toolChoice: { mode: 'auto' },
      messages: [user('2+2?'), { role: 'assistant', content: [call('a'), call('b')] }, { role: 'user', content: [result('b'), result('a')] }, { role: 'assistant', content: { type: 'text', text: 'Let me finish.' } }],
    };
    assert.deepEqual(samplingRequestProblems(params, declared), []);
    assert.doesNotThrow(() => validateSamplingRequest(params, declared));
  });

  it('rejects tools when the capability was not declared', () => {
    for (const params of [
      { maxTokens: 5, messages: [user('x')], tools },
      { maxTokens: 5, messages: [user('x')], toolChoice: { mode: 'none' as const } },
      { maxTokens: 5, messages: [{ role: 'assistant' as const, content: [call('a')] }, { role: 'user' as const, content: [result('a')] }] },
    ]) {
      assert.match(samplingRequestProblems(params, { toolsDeclared: false }).join(), /did not declare the sampling.tools capability/);
    }
  });

  it('rejects unbalanced tool_use / tool_result', () => {
    const cases: [CreateMessageParams, RegExp][] = [
      [{ maxTokens: 5, tools, messages: [user('x'), { role: 'assistant', content: [call('a')] }] }, /tool_use "a" must be answered/],
      [{ maxTokens: 5, tools, messages: [{ role: 'assistant', content: [call('a'), call('b')] }, { role: 'user', content: [result('a')] }] }, /tool_use "b" must be answered/],
      [{ maxTokens: 5, tools, messages: [{ role: 'assistant', content: [call('a')] }, user('no result')] }, /"a" must be answered/],
      [{ maxTokens: 5, tools, messages: [user('x'), { role: 'user', content: [result('z')] }] }, /tool_result "z" answers no tool_use/],
      [{ maxTokens: 5, tools, messages: [{ role: 'assistant', content: [call('a')] }, { role: 'user', content: [result('a'), { type: 'text', text: 'and more' }] }] }, /must contain only tool results/],
      [{ maxTokens: 5, tools, messages: [{ role: 'user', content: [call('a')] }] }, /tool_use may only appear in assistant messages/],
      [{ maxTokens: 5, tools, messages: [{ role: 'assistant', content: [call('a')] }, { role: 'user', content: [result('a'), result('a')] }] }, /answered twice/],
      [{ maxTokens: 5, tools, messages: [{ role: 'assistant', content: [call('a', 'other')] }, { role: 'user', content: [result('a')] }] }, /"other", which is not in tools/],
    ];
    for (const [params, re] of cases) assert.match(samplingRequestProblems(params, declared).join(' '), re, JSON.stringify(params.messages));
  });

  it('rejects other malformed requests', () => {
    assert.match(samplingRequestProblems({ maxTokens: 0, messages: [] }, declared).join(' '), /messages must not be empty.*maxTokens must be a positive integer/);
    assert.match(samplingRequestProblems({ maxTokens: 5, messages: [user('x')], toolChoice: { mode: 'required' } }, declared).join(), /needs at least one tool/);
    assert.match(samplingRequestProblems({ maxTokens: 5, messages: [user('x')], tools: [...tools, ...tools] }, declared).join(), /declared twice/);
  });

  it('throws Invalid params (-32602)', () => {
    assert.throws(() => validateSamplingRequest({ maxTokens: 5, messages: [user('x')], tools }, { toolsDeclared: false }),
      (e: unknown) => e instanceof McpError && e.code === ErrorCode.InvalidParams && /Invalid sampling request/.test(e.message));
  });
});

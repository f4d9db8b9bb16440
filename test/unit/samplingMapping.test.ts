import * as assert from 'node:assert/strict';
import { REDACTED, redactSamplingRequest, redactText, ResponseAccumulator, SYSTEM_PROMPT_PREFIX, toChatRequest, type CreateMessageParams } from '../../src/core/sampling';

const png = Buffer.from('fake png bytes').toString('base64');

describe('sampling request mapping', () => {
  it('puts the system prompt first and maps text and images', () => {
    const params: CreateMessageParams = {
      systemPrompt: 'Be brief.',
      maxTokens: 50,
      messages: [
        { role: 'user', content: { type: 'text', text: 'Describe this' } },
        { role: 'user', content: [{ type: 'image', data: png, mimeType: 'image/png' }, { type: 'audio', data: png, mimeType: 'audio/wav' }] },
        { role: 'assistant', content: { type: 'text', text: 'A cat.' } },
      ],
    };
    const req = toChatRequest(params, { supportsImages: true });
    assert.deepEqual(req.messages[0], { role: 'user', parts: [{ kind: 'text', text: `${SYSTEM_PROMPT_PREFIX}Be brief.` }] });
    assert.deepEqual(req.messages[1], { role: 'user', parts: [{ kind: 'text', text: 'Describe this' }] });
    const [image, audio] = req.messages[2].parts;
    assert.ok(image.kind === 'image' && image.mimeType === 'image/png' && Buffer.from(image.data).toString() === 'fake png bytes');
    assert.ok(audio.kind === 'text' && /audio \(audio\/wav, 14 bytes\) omitted/.test(audio.text));
    assert.deepEqual(req.messages[3], { role: 'assistant', parts: [{ kind: 'text', text: 'A cat.' }] });
    assert.equal(req.tools, undefined);

    const noImages = toChatRequest(params, { supportsImages: false });
    const part = noImages.messages[2].parts[0];
    assert.ok(part.kind === 'text' && /image .*does not accept images/.test(part.text));
  });

  it('passes maxTokens, temperature and stopSequences as model options', () => {
    assert.deepEqual(toChatRequest({ maxTokens: 7, temperature: 0.2, stopSequences: ['END'], messages: [] }).modelOptions, { max_tokens: 7, temperature: 0.2, stop: ['END'] });
    assert.deepEqual(toChatRequest({ maxTokens: 7, messages: [] }).modelOptions, { max_tokens: 7 });
  });

  it('maps tools, tool calls and tool results, and honours toolChoice', () => {
    const params: CreateMessageParams = {
      maxTokens: 100,
      tools: [{ name: 'get_weather', description: 'Weather for a city', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: { type: 'text', text: 'Weather in Paris?' } },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c1', content: [{ type: 'text', text: '18°C' }], isError: false }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'c2', name: 'get_weather', input: { city: 'Nowhere' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c2', content: [], structuredContent: { error: 'unknown city' }, isError: true }] },
      ],
    };
    const auto = toChatRequest(params);
    assert.deepEqual(auto.tools, [{ name: 'get_weather', description: 'Weather for a city', inputSchema: params.tools![0].inputSchema }]);
    assert.equal(auto.toolMode, 'auto');
    assert.deepEqual(auto.messages[1].parts, [{ kind: 'toolCall', callId: 'c1', name: 'get_weather', input: { city: 'Paris' } }]);
    assert.deepEqual(auto.messages[2].parts, [{ kind: 'toolResult', callId: 'c1', content: [{ kind: 'text', text: '18°C' }] }]);
    assert.deepEqual(auto.messages[4].parts, [{ kind: 'toolResult', callId: 'c2', content: [{ kind: 'text', text: '{"error":"unknown city"}' }], isError: true }]);
    assert.equal(toChatRequest({ ...params, toolChoice: { mode: 'required' } }).toolMode, 'required');
    const none = toChatRequest({ ...params, toolChoice: { mode: 'none' } });
    assert.equal(none.tools, undefined);
    assert.equal(none.toolMode, undefined);
  });
});

describe('sampling response accumulation', () => {
  it('returns single text content with endTurn when no tools were offered', () => {
    const acc = new ResponseAccumulator();
    acc.addText('Hello ');
    acc.addText('world');
    acc.addToolCall('x', 'stray', {});
    assert.deepEqual(acc.result('m1', false), { role: 'assistant', model: 'm1', stopReason: 'endTurn', content: { type: 'text', text: 'Hello world' } });
  });

  it('returns text and tool_use blocks with toolUse when the model calls tools', () => {
    const acc = new ResponseAccumulator();
    acc.addText('Let me check.');
    acc.addToolCall('c1', 'get_weather', { city: 'Paris' });
    assert.deepEqual(acc.result('m1', true), {
      role: 'assistant', model: 'm1', stopReason: 'toolUse',
      content: [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'c1', name: 'get_weather', input: { city: 'Paris' } }],
    });
    const onlyCall = new ResponseAccumulator();
    onlyCall.addToolCall('c2', 't', 'not an object');
    assert.deepEqual(onlyCall.result('m', true).content, [{ type: 'tool_use', id: 'c2', name: 't', input: { value: 'not an object' } }]);
  });

  it('cuts at the first stop sequence, even one split across chunks', () => {
    const acc = new ResponseAccumulator(['STOP', '\n\n']);
    acc.addText('one two ST');
    assert.equal(acc.stopped, false);
    acc.addText('OP three');
    assert.equal(acc.stopped, true);
    acc.addText('ignored');
    assert.deepEqual(acc.result('m', false), { role: 'assistant', model: 'm', stopReason: 'stopSequence', content: { type: 'text', text: 'one two ' } });
  });

  it('reports maxTokens after truncation', () => {
    const acc = new ResponseAccumulator();
    acc.addText('abcdefgh');
    acc.truncate(3);
    assert.deepEqual(acc.result('m', false), { role: 'assistant', model: 'm', stopReason: 'maxTokens', content: { type: 'text', text: 'abc' } });
  });
});

describe('sampling redaction', () => {
  it('replaces stored secrets and token-shaped strings', () => {
    const gh = `ghp_${'a1B2'.repeat(9)}`;
    const r = redactText(`key hunter2secret and ${gh}, Authorization: Bearer abcdefghijkl; sk-${'x'.repeat(24)} ok`, ['hunter2secret', 'abc']);
    assert.equal(r.value, `key ${REDACTED} and ${REDACTED}, Authorization: Bearer ${REDACTED}; ${REDACTED} ok`);
    assert.equal(r.count, 4);
    assert.equal(redactText('plain prose with a token word', ['']).count, 0);
  });

  it('redacts messages, tool input and the system prompt but keeps the structure', () => {
    const params: CreateMessageParams = {
      maxTokens: 10,
      systemPrompt: 'secret is s3cr3t-value',
      messages: [
        { role: 'user', content: { type: 'text', text: 'use s3cr3t-value' } },
        { role: 'assistant', content: [{ type: 'tool_use', id: 's3cr3t-value', name: 'login', input: { name: 's3cr3t-value', nested: ['s3cr3t-value'] } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 's3cr3t-value', content: [{ type: 'image', data: 'czNjcjN0LXZhbHVl', mimeType: 'image/png' }] }] },
      ],
    };
    const r = redactSamplingRequest(params, ['s3cr3t-value']);
    assert.equal(r.count, 4);
    assert.equal(r.value.systemPrompt, `secret is ${REDACTED}`);
    assert.deepEqual(r.value.messages[0].content, { type: 'text', text: `use ${REDACTED}` });
    assert.deepEqual(r.value.messages[1].content, [{ type: 'tool_use', id: 's3cr3t-value', name: 'login', input: { name: REDACTED, nested: [REDACTED] } }]);
    assert.deepEqual(r.value.messages[2], params.messages[2]);
    assert.equal(params.messages[0].content && (params.messages[0].content as { text: string }).text, 'use s3cr3t-value', 'the input is not mutated');
  });
});

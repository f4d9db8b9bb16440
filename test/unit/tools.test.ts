import * as assert from 'node:assert/strict';
import { MAX_TOOL_NAME, nameTools, toolName, toolResultParts, toolResultText } from '../../src/core';

describe('tools: names for language models', () => {
  it('namespaces per server with only allowed characters', () => {
    assert.equal(toolName('everything', 'get-sum'), 'everything_get-sum');
    assert.equal(toolName('my server!', 'do.thing/now'), 'my_server_do_thing_now');
  });
  it('keeps names ≤ 64 characters and unique, stable across calls', () => {
    const long = 'x'.repeat(80);
    const a = toolName('srv', long), b = toolName('srv', long + 'y');
    assert.ok(a.length <= MAX_TOOL_NAME && b.length <= MAX_TOOL_NAME);
    assert.notEqual(a, b);
    assert.equal(a, toolName('srv', long));
    const named = nameTools([{ server: 'a b', tool: 'c' }, { server: 'a_b', tool: 'c' }]);
    assert.notEqual(named[0].name, named[1].name);
    assert.ok(named.every(n => /^[A-Za-z0-9_-]{1,64}$/.test(n.name)));
  });
  it('names the same pairs again from the last answer, which no caller can change; other pairs get their own', () => {
    const pairs = [{ server: 'a', tool: 't' }, { server: 'a', tool: 't' }, { server: 'b', tool: 'u' }];
    const first = nameTools(pairs);
    first.pop();
    pairs[0].tool = 'changed';
    assert.deepEqual(nameTools([{ server: 'a', tool: 't' }, { server: 'a', tool: 't' }, { server: 'b', tool: 'u' }]).map(n => n.name), [first[0].name, first[1].name, 'b_u']);
    assert.deepEqual(nameTools(pairs).map(n => n.name), ['a_changed', 'a_t', 'b_u'], 'the caller\'s later change to its pairs is a new catalogue');
  });
});

describe('tools: results for the model', () => {
  it('handles every content type and marks errors', () => {
    const parts = toolResultParts({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'demo://a', name: 'a', mimeType: 'text/plain' },
        { type: 'resource', resource: { uri: 'demo://b', text: 'embedded', mimeType: 'text/plain' } },
        { type: 'resource', resource: { uri: 'demo://c', blob: 'AAAA', mimeType: 'application/pdf' } },
      ],
      structuredContent: { x: 1 },
    }, { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } });
    assert.deepEqual(parts.map(p => p.kind), ['text', 'data', 'data', 'reference', 'reference', 'data', 'text']);
    const text = toolResultText(parts, false);
    assert.match(text, /hello/);
    assert.match(text, /\[image image\/png, 3 bytes\]/);
    assert.match(text, /\[resource a demo:\/\/a \(text\/plain\)\]/);
    assert.match(text, /embedded/);
    assert.match(text, /\{"x":1\}/);
    assert.match(toolResultText([{ kind: 'text', text: 'boom' }], true), /^The tool reported an error:\nboom/);
  });
});

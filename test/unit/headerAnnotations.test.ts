/**
 * SEP-2243 header annotations a hostile server may send: every malformed `x-mcp-header` (the cases of
 * the conformance scenario http-invalid-tool-headers) keeps its tool out; valid ones pass.
 */
import * as assert from 'node:assert/strict';
import { invalidHeaderAnnotation } from '../../src/core/catalog/headerAnnotations';

const tool = (properties: Record<string, unknown>) => ({ inputSchema: { type: 'object', properties } }) as unknown as Parameters<typeof invalidHeaderAnnotation>[0];

describe('x-mcp-header annotations (SEP-2243)', () => {
  it('accepts string, integer and boolean parameters with distinct token names, and tools without any', () => {
    assert.equal(invalidHeaderAnnotation(tool({ region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'N' }, on: { type: 'boolean', 'x-mcp-header': 'On' } })), undefined);
    assert.equal(invalidHeaderAnnotation(tool({ plain: { type: 'string' } })), undefined);
  });

  for (const [what, properties] of [
    ['an empty name', { v: { type: 'string', 'x-mcp-header': '' } }],
    ['a name that is not a string', { v: { type: 'string', 'x-mcp-header': 7 } }],
    ['an object parameter', { v: { type: 'object', 'x-mcp-header': 'Data' } }],
    ['an array parameter', { v: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }],
    ['a null parameter', { v: { type: 'null', 'x-mcp-header': 'Nil' } }],
    ['a number parameter', { v: { type: 'number', 'x-mcp-header': 'Score' } }],
    ['a space in the name', { v: { type: 'string', 'x-mcp-header': 'My Header' } }],
    ['a colon in the name', { v: { type: 'string', 'x-mcp-header': 'X:Y' } }],
    ['a non-ASCII name', { v: { type: 'string', 'x-mcp-header': 'Régión' } }],
    ['a control character (header splitting)', { v: { type: 'string', 'x-mcp-header': 'A\r\nSet-Cookie' } }],
    ['the same name twice', { a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'Dup' } }],
    ['the same name in another case', { a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'dUP' } }],
  ] as const) {
    it(`rejects ${what}`, () => assert.ok(invalidHeaderAnnotation(tool(properties as Record<string, unknown>))));
  }
});

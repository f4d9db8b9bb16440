import * as assert from 'node:assert/strict';
import { budgetResult, estimateTextTokens, nameTools, pageOf, READ_RESULT_TOOL, ResultStore, resultTokenBudget } from '../../src/core';

describe('tools: result budget', () => {
  it('sizes the budget to the model, settable for all servers or per server', () => {
    assert.equal(resultTokenBudget('a', 16_000), 4_000);
    assert.equal(resultTokenBudget('a', 16_000, 2_000), 2_000);
    assert.equal(resultTokenBudget('a', 16_000, { a: 1_000, '*': 3_000 }), 1_000);
    assert.equal(resultTokenBudget('b', 16_000, { a: 1_000, '*': 3_000 }), 3_000);
    assert.equal(resultTokenBudget('constructor', 16_000, {}), 4_000);
  });
  it('a 5 MB result becomes a summary and its start within the budget; the whole is kept and pageable', () => {
    const store = new ResultStore();
    const huge = `START${'x'.repeat(5_000_000)}END`;
    const r = budgetResult(store, 'flood', 'flood', huge, 4_000);
    assert.ok(estimateTextTokens(r.text) <= 4_000, `${r.text.length} characters`);
    assert.match(r.text, /^\[MCP Host: the result of tool "flood" \(server "flood"\) has 5000008 characters/);
    assert.match(r.text, new RegExp(`read any part with ${READ_RESULT_TOOL}`));
    assert.match(r.text, /\nSTARTx/);
    assert.equal(store.get(r.kept!.uri)!.text, huge);
    const last = pageOf(r.kept!.uri, huge, huge.length - 3, 100);
    assert.match(last, /END$/);
    assert.match(last, /This is the end\./);
    assert.match(pageOf(r.kept!.uri, huge, 0, 10_000_000), /Read on with offset 50000\./);
    assert.deepEqual(budgetResult(store, 's', 't', 'small', 4_000), { text: 'small' });
  });
  it('keeps a bounded total: a server flooding results evicts the oldest, never grows memory without limit', () => {
    const store = new ResultStore(1_000);
    const a = store.keep('s', 't', 'a'.repeat(600));
    const b = store.keep('s', 't', 'b'.repeat(600));
    assert.equal(store.get(a.uri), undefined);
    assert.equal(store.get(b.uri)!.text.length, 600);
    assert.match(b.uri, /^mcp-result:\/[0-9a-f]{32}\/s-t\.txt$/);
    assert.match(store.keep('../../etc', 'a b/c', 'x').uri, /^mcp-result:\/[0-9a-f]{32}\/\.\._\.\._etc-a_b_c\.txt$/);
    // The id is the read key (any extension can ask the content provider or mcpHost_readResource): not a counter.
    assert.equal(store.get(b.uri.replace(/\/[0-9a-f]{32}\//, '/1/')), undefined);
    assert.equal(store.get('mcp-result:/2/s-t.txt'), undefined);
  });
  it('no MCP tool takes the name of the reading tool', () => {
    assert.notEqual(nameTools([{ server: 'mcpHost', tool: 'readResource' }])[0].name, READ_RESULT_TOOL);
  });
});

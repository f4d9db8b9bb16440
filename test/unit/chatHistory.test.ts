import * as assert from 'node:assert/strict';
import { boundHistory, historyBudget, type HistoryTurn } from '../../src/core';

describe('chat: history sent back to the model', () => {
  it('after a 5,000-tool listing, the next request replays a summary line, not the listing', () => {
    const listing = Array.from({ length: 5_000 }, (_, i) => `- \`srv_tool-${i}\` — Echo tool #${i}: returns its arguments as JSON text\n`).join('');
    assert.ok(listing.length > 200_000);
    const turns: HistoryTurn[] = [
      { role: 'user', text: '', bulky: 'asked for the list of MCP tools' },
      { role: 'assistant', text: listing, bulky: 'listed the MCP tools' },
    ];
    const out = boundHistory(turns, historyBudget(16_000));
    assert.deepEqual(out, [{ role: 'user', text: '[asked for the list of MCP tools]' }, { role: 'assistant', text: '[listed the MCP tools]' }]);
  });
  it('caps each turn and drops the oldest turns first, never starting with an orphan answer', () => {
    const turns: HistoryTurn[] = Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? 'assistant' as const : 'user' as const, text: `${i}:${'z'.repeat(3_000)}` }));
    const budget = historyBudget(16_000);
    const out = boundHistory(turns, budget);
    const total = out.reduce((n, t) => n + t.text.length, 0);
    assert.ok(total <= budget.maxChars, String(total));
    assert.ok(out.length < turns.length && out.length > 0);
    assert.match(out[out.length - 1].text, /^39:/);
    assert.equal(out[0].role, 'user');
    const long = boundHistory([{ role: 'user', text: 'q' }, { role: 'assistant', text: 'a'.repeat(50_000) }], budget);
    assert.match(long[1].text, /… \[shortened: 50000 characters in all\]$/);
  });
});

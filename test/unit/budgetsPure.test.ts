/** The budget building blocks on their own: line splitting, the rate-limited queue, cutting text. */
import * as assert from 'node:assert/strict';
import { BurstReporter, LineSplitter, RateQueue, type OversizedLine } from '../../src/core/budgets';
import { redactThenCut, truncateText } from '../../src/core';
import { RecordingLogger } from './helpers';

describe('budgets: building blocks', () => {
  it('splits lines from arbitrary chunks, and reports a line over the limit without keeping it', () => {
    const lines: string[] = [], big: OversizedLine[] = [];
    const s = new LineSplitter({ maxLineBytes: 1024, onLine: l => lines.push(l), onOversized: o => big.push(o) });
    s.push(Buffer.from('one\r\ntw'));
    s.push(Buffer.from('o\n'));
    // 20 MB in 64 KB chunks: a line the old splitter would have held whole.
    const chunk = Buffer.alloc(64 * 1024, 'a');
    s.push(Buffer.from('{"id":'));
    for (let i = 0; i < 320; i++) s.push(chunk);
    s.push(Buffer.from('"end":7}\nthree'));
    s.end();
    assert.deepEqual(lines, ['one', 'two', 'three']);
    assert.equal(big.length, 1);
    assert.equal(big[0].bytes, 6 + 320 * 64 * 1024 + 8);
    assert.ok(big[0].head.startsWith('{"id":aaa') && big[0].head.length === 256);
    assert.ok(big[0].tail.endsWith('"end":7}') && big[0].tail.length === 256);
  });

  it('never splits a multi-byte character when cutting', () => {
    const cut = truncateText('é'.repeat(100), 51);
    assert.match(cut, /^é{25}… \[150 bytes cut\]$/);
    assert.equal(truncateText('short', 10), 'short');
  });

  it('redacts before cutting, so a secret on the cut leaves no prefix behind', () => {
    const secret = 'hunter2-secret-value';
    const text = `${'x'.repeat(95)}${secret} and more`;
    const cut = redactThenCut(text, [secret], 100);
    assert.ok(!cut.includes('hunter'), cut);
    assert.ok(!truncateText(text, 100).includes(secret), 'cutting alone would leave "hunte"…');
    assert.ok(truncateText(text, 100).includes('hunte'));
  });

  it('passes a burst, queues up to the bound, drops the rest, and says so once per burst', () => {
    let now = 0;
    const delivered: number[] = [], dropped: number[] = [], pressure: boolean[] = [];
    const logger = new RecordingLogger();
    const reporter = new BurstReporter(logger, 'items', '3 items per second', () => now);
    const q = new RateQueue<number>({ perSecond: 3, maxQueued: 2, deliver: i => delivered.push(i), drop: i => dropped.push(i), reporter, onPressure: f => pressure.push(f), now: () => now });
    for (let i = 0; i < 10; i++) q.push(i);
    assert.deepEqual(delivered, [0, 1, 2]);
    assert.equal(q.length, 2);
    assert.deepEqual(dropped, [5, 6, 7, 8, 9]);
    assert.deepEqual(pressure, [true]);
    assert.equal(logger.lines.filter(l => /more than 3 items per second/.test(l.message)).length, 1);
    assert.equal(reporter.count, 5);
    q.dispose();
    reporter.dispose();
    assert.match(logger.text(), /Dropped 5 items over 1 s \(limit: 3 items per second\)/);
    now += 1;
  });

  it('coalesces identical waiting items (list_changed) instead of counting them as lost', () => {
    const delivered: string[] = [];
    const reporter = new BurstReporter(new RecordingLogger(), 'items', 'x', () => 0);
    const q = new RateQueue<string>({ perSecond: 1, maxQueued: 5, deliver: i => delivered.push(i), drop: () => {}, reporter, coalesceKey: i => i, now: () => 0 });
    for (let i = 0; i < 50; i++) q.push('list_changed');
    assert.deepEqual(delivered, ['list_changed']);
    assert.equal(q.length, 1);
    assert.equal(reporter.count, 0);
    q.dispose();
  });
});

/**
 * A server and its apps write into one log gate per server (issue 28 item 6): the same budget object
 * and the same cleaning for the server's stderr, its `notifications/message` and everything its apps
 * log. Real fixture servers play the attacker: they forge lines that read as the host's own (a line
 * break, a carriage return, escapes, bidi controls) and flood the log from both sides at once.
 */
import * as assert from 'node:assert/strict';
import { AppLog, LogLevel, MAX_LOG_ENTRY_LINES } from '../../src/core';
import { createTestHost, fixtureServer, node, text, waitFor } from './helpers';

const FORGED_HOST_LINE = '2026-12-01 20:00:00.000 [info] Connected to github 1.0.0 (protocol 2025-11-25)';

describe('one log gate per server: its apps and itself, one budget and one cleaning', function () {
  this.timeout(60_000);

  it('a server\'s own log entry cannot print a line that reads as the host\'s: each line is cleaned and tagged', async () => {
    const { host, loggers } = createTestHost({}, {}, LogLevel.Info);
    try {
      await host.apply({ noisy: { ...node(fixtureServer('noisy')), env: { FIXTURE_STDERR_LINES: '0' } } });
      const s = host.require('noisy');
      await s.callTool('log', { level: 'info', logger: 'db\nConnected', message: `ok\n${FORGED_HOST_LINE}\u001b[2K\r\n\u202etxt.exe\u200b\ufe01` });
      const log = loggers.get('noisy')!;
      await waitFor(() => log.lines.some(l => l.message.includes('txt.exe')), 'the entry in the log');
      const entry = log.lines.filter(l => l.message.includes('[db Connected]'));
      assert.deepEqual(entry.map(l => l.message), ['[db Connected] ok', `[db Connected] ${FORGED_HOST_LINE}`, '[db Connected] txt.exe']);
      assert.ok(log.lines.every(l => !/[\n\r\u001b\u202e\u200b\ufe01]/.test(l.message)), 'no line break, escape or invisible character reaches the log');
      await s.callTool('log', { level: 'warning', message: 'l\n'.repeat(100) });
      await waitFor(() => log.lines.some(l => /more lines left out/.test(l.message)), 'the cut entry');
      assert.equal(log.lines.filter(l => l.level === 'warn' && /^\[noisy\] l$/.test(l.message)).length, MAX_LOG_ENTRY_LINES);
    } finally { await host.shutdown(); }
  });

  it('a carriage return or an escape in a stderr line cannot start a line of its own', async () => {
    const { host, loggers } = createTestHost({}, {}, LogLevel.Info);
    try {
      await host.apply({ noisy: { ...node(fixtureServer('noisy')), env: { FIXTURE_STDERR_LINES: '0' } } });
      await host.require('noisy').callTool('stderr', { lines: 1, text: `progress 50%\r${FORGED_HOST_LINE}\u001b[1A\u2028x` });
      const log = loggers.get('noisy')!;
      const line = await waitFor(() => log.lines.find(l => l.message.startsWith('[stderr] progress')), 'the stderr line');
      assert.equal(line.message, `[stderr] progress 50% ${FORGED_HOST_LINE} x`);
    } finally { await host.shutdown(); }
  });

  it('a server flooding stderr and its app flooding log entries together get one server\'s budget', async () => {
    const { host, loggers } = createTestHost({}, {}, LogLevel.Info);
    try {
      await host.apply({ flood: node(fixtureServer('flooding')) });
      const s = host.require('flood');
      const app = new AppLog(() => host.get('flood')?.serverLog);
      const started = Date.now();
      // The server spends the burst allowance (10 s at 500 lines per second) on stderr ...
      assert.equal(JSON.parse(text(await s.callTool('flood', { kind: 'stderr', count: 8_000, wait: true }))).sent, 8_000);
      const log = loggers.get('flood')!;
      await waitFor(() => log.lines.some(l => l.message === '[stderr] flood stderr line 7999') || /further log lines are dropped/.test(log.text()), 'the stderr flood in the log');
      // ... and its app sends 8,000 entries of 20 lines of its own right after.
      const entry = Array.from({ length: MAX_LOG_ENTRY_LINES }, (_, i) => `app line ${i}`).join('\n');
      for (let i = 0; i < 8_000; i++) app.entry('info', 'ui', entry);
      await new Promise(resolve => setTimeout(resolve, 200));
      const elapsed = (Date.now() - started) / 1000;
      const fromServer = log.lines.filter(l => l.message.startsWith('[stderr] flood stderr line')).length;
      const fromApp = log.lines.filter(l => l.message.startsWith('MCP App [info] [ui]: app line')).length;
      const allowance = 5_000 + Math.ceil(elapsed * 500);
      assert.ok(fromServer + fromApp <= allowance, `${fromServer} server + ${fromApp} app lines, one budget allows ${allowance}`);
      assert.ok(fromServer > 0, 'the server was heard');
      assert.equal(log.lines.filter(l => /further log lines are dropped/.test(l.message)).length, 1, 'one drop warning for the server and its app');
    } finally { await host.shutdown(); }
  });

  it('an app\'s entry: one cleaned line per line, each behind the MCP App prefix, bounded', async () => {
    const { host, loggers } = createTestHost({}, {}, LogLevel.Info);
    try {
      await host.apply({ noisy: { ...node(fixtureServer('noisy')), env: { FIXTURE_STDERR_LINES: '0' } } });
      const app = new AppLog(() => host.get('noisy')?.serverLog);
      app.entry('critical', 'ui\nx', `fine\n${FORGED_HOST_LINE}\u001b[2K\r\n\u202etxt.exe`);
      app.entry('nonsense', undefined, { a: 1 });
      app.entry('info', undefined, 'l\n'.repeat(1000));
      app.gated.info('MCP App traffic: tools/call\n2026-12-01 [info] forged');
      const log = loggers.get('noisy')!.lines.filter(l => l.message.startsWith('MCP App'));
      assert.deepEqual(log.slice(0, 4), [
        { level: 'error', message: 'MCP App [critical] [ui x]: fine' },
        { level: 'error', message: `MCP App [critical] [ui x]: ${FORGED_HOST_LINE}` },
        { level: 'error', message: 'MCP App [critical] [ui x]: txt.exe' },
        { level: 'info', message: 'MCP App [info]: {"a":1}' },
      ]);
      assert.equal(log.filter(l => l.message === 'MCP App [info]: l').length, MAX_LOG_ENTRY_LINES);
      assert.ok(log.some(l => l.message === 'MCP App [info]: … 980 more lines left out'));
      assert.equal(log.at(-1)!.message, 'MCP App traffic: tools/call 2026-12-01 [info] forged');
    } finally { await host.shutdown(); }
  });
});

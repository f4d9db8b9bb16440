/**
 * Per-server budgets against a hostile fixture server (flooding.ts): huge lines, log and
 * notification floods, request floods, endless and oversized catalogues. Each test also checks
 * that the host keeps serving (the bad server's later calls, or another server's calls).
 */
import * as assert from 'node:assert/strict';
import { LogLevel, type ServerLimits } from '../../src/core';
import { createTestHost, fixtureServer, node, startHttpFixture, text, waitFor, waitForState } from './helpers';

const flooding = (env: Record<string, string> = {}) => ({ ...node(fixtureServer('flooding')), env });
const count = (lines: { message: string }[], re: RegExp) => lines.filter(l => re.test(l.message)).length;

function hostWith(limits: Partial<ServerLimits> = {}) {
  return createTestHost({}, { limits }, LogLevel.Info);
}

describe('budgets: hostile servers', function () {
  this.timeout(60_000);

  it('a 20 MB response line is not read: the call fails at once saying why, and the server keeps working', async () => {
    const { host, loggers } = hostWith();
    try {
      await host.apply({ flood: flooding() });
      const s = host.require('flood');
      await assert.rejects(s.callTool('big', { bytes: 20_000_000 }), /flood: tools\/call failed: the server sent a message of 19\.1 MB, more than the 16 MB allowed for one message/);
      assert.equal(text(await s.callTool('echo', { text: 'still here' })), 'still here');
      assert.match(loggers.get('flood')!.text(), /warn \[stdout\] the server sent a message of 19\.1 MB, more than the 16 MB allowed for one message; dropped it unread: \{"result"/);
      assert.equal(s.state, 'running');
    } finally { await host.shutdown(); }
  });

  it('over Streamable HTTP, a 20 MB response event is not read either: the call fails at once saying why', async () => {
    const { url, child } = await startHttpFixture('flooding');
    const { host } = hostWith();
    try {
      await host.apply({ flood: { type: 'http', url } });
      const s = host.require('flood');
      assert.equal(s.state, 'running', s.message);
      await assert.rejects(s.callTool('big', { bytes: 20_000_000 }), /flood: tools\/call failed: the server sent a message larger than the 16 MB allowed for one message/);
      assert.equal(text(await s.callTool('echo', { text: 'still here' })), 'still here');
    } finally { await host.shutdown(); child.kill(); }
  });

  it('a 20 MB notification is dropped with a warning, not handed to the SDK', async () => {
    const { host, loggers } = hostWith();
    try {
      await host.apply({ flood: flooding() });
      const s = host.require('flood');
      await s.callTool('big-log', { bytes: 20_000_000 });
      const log = loggers.get('flood')!;
      await waitFor(() => /dropped it unread: \{"method":"notifications\/message"/.test(log.text()), 'the oversized-message warning');
      assert.equal(count(log.lines, /yyyyyyyyyy/), 1, 'only the warning quotes (200 characters of) it');
      assert.ok(log.lines.every(l => l.message.length < 1000), 'no line of the log is long');
    } finally { await host.shutdown(); }
  });

  it('a long stderr line is cut with a marker', async () => {
    const { host, loggers } = hostWith({ maxLogLineBytes: 1000 });
    try {
      await host.apply({ flood: flooding() });
      await host.require('flood').callTool('long-stderr', { bytes: 5_000_000 });
      const log = loggers.get('flood')!;
      await waitFor(() => log.lines.some(l => l.message === '[stderr] stderr-done'), 'the line after the long one');
      const cut = log.lines.filter(l => l.message.startsWith('[stderr] zzz'));
      assert.equal(cut.length, 1);
      assert.match(cut[0].message, /^\[stderr\] z{1000}… \[4\.8 MB cut\]$/);
    } finally { await host.shutdown(); }
  });

  it('log notifications past the rate are dropped and reported once per burst', async () => {
    const { host, loggers } = hostWith({ maxLogLinesPerSecond: 50 });
    try {
      await host.apply({ flood: flooding() });
      const s = host.require('flood');
      const t0 = Date.now();
      const sent = JSON.parse(text(await s.callTool('flood', { kind: 'log', count: 1500, wait: true }))).sent as number;
      assert.equal(sent, 1500);
      const log = loggers.get('flood')!;
      const summary = await waitFor(() => log.lines.find(l => /^Dropped \d+ log lines over \d+ s \(limit: 50 log lines per second\)\.$/.test(l.message)), 'the burst summary');
      const elapsedSeconds = Math.ceil((Date.now() - t0) / 1000);
      const logged = count(log.lines, /^\[flood\] flood line/);
      assert.ok(logged <= 50 * (elapsedSeconds + 10), `${logged} lines logged in about ${elapsedSeconds} s`);
      assert.equal(count(log.lines, /further log lines are dropped/), 1, 'one warning when the burst starts');
      assert.equal(count(log.lines, /^Dropped \d+ log lines/), 1, 'one summary when it ends');
      const dropped = Number(/^Dropped (\d+)/.exec(summary.message)![1]);
      assert.ok(dropped > 0 && logged + dropped <= 1500, `${logged} logged + ${dropped} dropped`);
      assert.equal(text(await s.callTool('echo', { text: 'after' })), 'after');
    } finally { await host.shutdown(); }
  });

  it('a notification flood is rate-limited through a bounded queue; another server is not held up', async () => {
    const { host, loggers } = hostWith({ maxNotificationsPerSecond: 50, maxQueuedNotifications: 20 });
    try {
      await host.apply({ flood: flooding(), quiet: node(fixtureServer('crashing')) });
      const s = host.require('flood');
      let updates = 0;
      host.onDidUpdateResource(e => { if (e.server === 'flood') updates++; });
      const t0 = Date.now();
      const done = s.callTool('flood', { kind: 'updated', seconds: 2, wait: true });
      for (let i = 0; i < 20; i++) assert.equal(text(await host.require('quiet').callTool('echo', { text: `q${i}` })), `q${i}`);
      const sent = JSON.parse(text(await done)).sent as number;
      const log = loggers.get('flood')!;
      await waitFor(() => log.lines.find(l => /^Dropped \d+ notifications over/.test(l.message)), 'the burst summary');
      const elapsedSeconds = Math.ceil((Date.now() - t0) / 1000);
      assert.ok(updates <= 50 * (elapsedSeconds + 1) + 20, `${updates} of ${sent} updates delivered in about ${elapsedSeconds} s`);
      assert.equal(count(log.lines, /further notifications are dropped/), 1);
      assert.equal(text(await s.callTool('echo', { text: 'after' })), 'after');
    } finally { await host.shutdown(); }
  });

  it('server→client requests past the rate are refused with an error the server receives', async () => {
    const { host, loggers } = hostWith({ maxServerRequestsPerSecond: 10, maxQueuedServerRequests: 5 });
    try {
      await host.apply({ flood: flooding() });
      const r = JSON.parse(text(await host.require('flood').callTool('ask-roots', { count: 200 }))) as { ok: number; refused: number; error?: string };
      // How many fit in the rate window depends on how fast this machine reads them; that some are refused does not.
      assert.ok(r.ok >= 5 && r.refused > 0, `answered ${r.ok}, refused ${r.refused}`);
      assert.equal(r.ok + r.refused, 200);
      assert.match(r.error ?? '', /Too many requests: this client handles at most 10 server requests per second and 5 waiting/);
      const log = loggers.get('flood')!;
      await waitFor(() => /Dropped \d+ requests \(refused with an error\)/.test(log.text()), 'the burst summary');
      // A server controls how many requests it sends, not how many lines the host writes about them (issue 30 item 9).
      const warnings = log.lines.filter(l => l.level === 'warn');
      assert.ok(warnings.length <= 3, `${warnings.length} warnings for ${r.refused} refused requests:\n${warnings.slice(0, 5).map(l => l.message).join('\n')}`);
    } finally { await host.shutdown(); }
  });

  it('a server that pages forever is stopped with a clear error (default limits)', async () => {
    const { host } = hostWith();
    try {
      await host.apply({ endless: flooding({ FIXTURE_ENDLESS_PAGES: '1' }), quiet: node(fixtureServer('crashing')) });
      const s = host.require('endless');
      await waitForState(s, 'error');
      assert.match(s.message ?? '', /^tools\/list went on for more than 1000 pages \(1000 items\); the server was stopped/);
      assert.equal(s.catalog.get('tools').length, 0);
      assert.equal(text(await host.require('quiet').callTool('echo', { text: 'ok' })), 'ok');
    } finally { await host.shutdown(); }
  });

  it('a catalogue past the byte budget is stopped with a clear error', async () => {
    const { host } = hostWith({ maxCatalogBytes: 2_000_000 });
    try {
      await host.apply({ huge: flooding({ FIXTURE_TOOLS: '500', FIXTURE_TOOL_PADDING: '10000', FIXTURE_PAGE_SIZE: '50' }) });
      const s = host.require('huge');
      await waitForState(s, 'error');
      assert.match(s.message ?? '', /^tools\/list listed more than 1\.9 MB \(after \d+ pages\); the server was stopped\.$/);
    } finally { await host.shutdown(); }
  });

  it('one tools/list page over the message limit stops the server, saying so', async () => {
    const { host } = hostWith();
    try {
      await host.apply({ huge: flooding({ FIXTURE_TOOLS: '1', FIXTURE_TOOL_PADDING: '20000000' }) });
      const s = host.require('huge');
      await waitForState(s, 'error');
      assert.match(s.message ?? '', /^tools\/list: the server sent a message of 19\.1 MB, more than the 16 MB allowed for one message; the server was stopped\.$/);
    } finally { await host.shutdown(); }
  });

  it('5,000 tools over 50 pages still load with the default limits', async () => {
    const { host } = hostWith();
    try {
      await host.apply({ many: flooding({ FIXTURE_TOOLS: '5000', FIXTURE_TOOL_PADDING: '200' }) });
      const s = host.require('many');
      assert.equal(s.state, 'running', s.message);
      assert.equal(s.catalog.get('tools').length, 5006);
    } finally { await host.shutdown(); }
  });
});

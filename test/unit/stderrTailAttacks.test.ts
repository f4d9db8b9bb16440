/**
 * A server's last stderr lines are shown where VS Code renders `[label](target)` as a link it opens
 * (the error notification opens `command:` links with their arguments, `https:` and `file:` links):
 * the server's text must read as text there, whatever link it writes (attacker, issue 30 item 4).
 */
import * as assert from 'node:assert/strict';
import { runCli, workspace } from './cliRun';
import { createTestHost, fixtureServer, node, waitForState } from './helpers';

// VS Code's own parser of links in notification messages (src/vs/base/common/linkedText.ts).
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const links = { ...node(fixtureServer('refusesToStart')), env: { FIXTURE_REFUSAL: 'links' } };

describe('stderr tail: links a server writes', function () {
  this.timeout(60_000);

  it('attacker: a command: link with arguments, an https link posing as MCP Host\'s, a file: link are no links in the tail', async () => {
    const { host } = createTestHost({}, { restart: { maxRestarts: 0, windowMs: 1, baseDelayMs: 0, maxDelayMs: 0 } });
    try {
      await host.apply({ links });
      const conn = host.require('links');
      await waitForState(conn, 'error', 30_000);
      const tail = conn.stderrTail;
      assert.equal(tail.length, 4, JSON.stringify(tail));
      // What the notification shows: the lines joined (src/vscode/hostController.ts).
      assert.doesNotMatch(tail.join(' | '), NOTIFICATION_LINK, JSON.stringify(tail));
      for (const line of tail) assert.doesNotMatch(line, NOTIFICATION_LINK, line);
      // Still readable: the words and the targets are there, as text.
      assert.match(tail[0], /Reinstall the server.*command:workbench\.action\.terminal\.sendSequence/);
      assert.equal(tail.at(-1), 'missing API_KEY');
    } finally { await host.shutdown(); }
  });

  it('attacker: the CLI\'s --json error carries no such link either', async () => {
    const ws = workspace('mcp.json', { servers: { links } });
    const json = await runCli(['--yes', '--json', 'call', 'links', 'anything'], ws);
    assert.equal(json.code, 1, json.stderr);
    const out = JSON.parse(json.stdout) as { error: string; stderr: string[] };
    assert.doesNotMatch(out.error, NOTIFICATION_LINK, out.error);
    assert.match(out.error, /missing API_KEY/);
  });

  it('attacker: a secret the server prints with invisible characters and escapes inside it is redacted once cleaned', async () => {
    const secret = 'sup3r-s3cret-value';
    const { host } = createTestHost({
      variables: { workspaceFolders: [], trusted: true, userHome: process.env.HOME ?? '/', env: process.env, resolveInput: async () => secret },
    }, { restart: { maxRestarts: 0, windowMs: 1, baseDelayMs: 0, maxDelayMs: 0 } });
    try {
      await host.apply({ leaky: {
        command: process.execPath,
        args: ['-e', 'const t = process.env.TOKEN; console.error("token: " + t.split("").join("\u200b")); console.error("again: " + t.slice(0, 5) + "\u001b[0m" + t.slice(5)); process.exit(1)'],
        env: { TOKEN: '${input:tok}' },
      } });
      const conn = host.require('leaky');
      await waitForState(conn, 'error', 30_000);
      const tail = conn.stderrTail.join(' | ');
      assert.match(tail, /token: /, tail);
      assert.ok(!tail.includes(secret), tail);
    } finally { await host.shutdown(); }
  });
});

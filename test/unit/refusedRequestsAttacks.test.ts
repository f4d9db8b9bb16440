/**
 * A server's request the client refuses is told to the embedder (VS Code: a warning notification, which
 * opens `[label](command:…)` links with their arguments). The method is the server's text: it must
 * arrive cleaned, and a server naming each request differently must not get one notification each.
 */
import * as assert from 'node:assert/strict';
import { plainText } from '../../src/core';
import { createTestHost, fixtureServer, node, text } from './helpers';

// VS Code's own parser of links in notification messages (src/vs/base/common/linkedText.ts).
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('refused server requests: what the embedder is told', function () {
  this.timeout(60_000);

  it('attacker: 200 requests of differently named methods holding a command: link, a line break and bidi', async () => {
    const told: { method: string; reason: string }[] = [];
    const { host } = createTestHost({ onRefusedRequest: (_server, method, reason) => told.push({ method, reason }) });
    try {
      await host.apply({ s: node(fixtureServer('sloppy')) });
      const s = host.require('s');
      assert.equal(text(await s.callTool('ask-odd', { count: 200 })), '200', 'the server hears each refusal');
      assert.ok(told.length > 0, 'the embedder is told');
      assert.ok(told.length <= 10, `${told.length} notifications for one server's refusals`);
      for (const t of told) {
        assert.doesNotMatch(t.method, NOTIFICATION_LINK, t.method);
        assert.doesNotMatch(t.method, CONTROLS, JSON.stringify(t.method));
        assert.doesNotMatch(t.reason, NOTIFICATION_LINK, t.reason);
      }
    } finally { await host.shutdown(); }
  });

  // The reason quotes the server's field name. VS Code's embedder cleans the reason again (plainText:
  // invisible characters and escapes go) before its notification shows it: a zero-width space between
  // `]` and `(` that the cleaning removes must not leave a link behind.
  it('attacker: a refused request whose reason quotes `[x]`, a zero-width space and `(command:…)` is no link once cleaned', async () => {
    const told: { method: string; reason: string }[] = [];
    const { host } = createTestHost({
      elicitation: async () => ({ action: 'decline' }),
      onRefusedRequest: (_server, method, reason) => told.push({ method, reason }),
    });
    try {
      await host.apply({ s: node(fixtureServer('sloppy')) });
      const s = host.require('s');
      assert.match(text(await s.callTool('ask-hidden-link', {})), /^ERROR/, 'the client refuses the request');
      assert.equal(told.length, 1, JSON.stringify(told));
      assert.match(told[0].reason, /Reinstall it/, `the reason quotes the field: ${told[0].reason}`);
      for (const shown of [told[0].reason, plainText(told[0].reason), plainText(told[0].reason, { singleLine: true, maxLength: 300 })]) {
        assert.doesNotMatch(shown, NOTIFICATION_LINK, shown);
      }
    } finally { await host.shutdown(); }
  });
});

/** A server that gets the protocol half right: what it leaves out is no failure, what it repeats stays apart. */
import * as assert from 'node:assert/strict';
import { nameTools } from '../../src/core';
import { createTestHost, fixtureServer, node, text } from './helpers';

describe('sloppy servers', function () {
  this.timeout(20_000);

  it('a server without resources/templates/list (method not found) has no templates, and no warning on start', async () => {
    const { host, loggers } = createTestHost();
    try {
      await host.apply({ s: node(fixtureServer('sloppy')) });
      const s = host.require('s');
      assert.equal(s.state, 'running', s.message);
      assert.deepEqual(s.catalog.get('resourceTemplates'), []);
      assert.deepEqual(s.catalog.get('resources').map(r => r.uri), ['sloppy://one']);
      const warnings = loggers.get('s')!.lines.filter(l => l.level === 'warn' || l.level === 'error').map(l => l.message);
      assert.deepEqual(warnings, []);
      // A restart lists again: still quiet.
      await s.restart();
      assert.deepEqual(loggers.get('s')!.lines.filter(l => l.level === 'warn' || l.level === 'error').map(l => l.message), []);
    } finally { await host.shutdown(); }
  });

  it('gives every copy of a tool a server lists three times its own model-facing name', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ s: node(fixtureServer('sloppy')) });
      const echoes = host.tools.filter(t => t.item.name === 'echo');
      assert.equal(echoes.length, 3, 'the server lists echo three times');
      const names = nameTools(host.tools.map(t => ({ server: t.server, tool: t.item.name }))).map(n => n.name);
      assert.equal(new Set(names).size, names.length, `unique: ${names.join(', ')}`);
      for (const n of names) assert.match(n, /^[A-Za-z0-9_-]{1,64}$/);
      assert.deepEqual(nameTools(host.tools.map(t => ({ server: t.server, tool: t.item.name }))).map(n => n.name), names, 'stable');
      assert.equal(text(await host.require('s').callTool('echo', { text: 'one of three' })), 'one of three');
    } finally { await host.shutdown(); }
  });
});

describe('sloppy servers: requests the SDK refuses', function () {
  this.timeout(20_000);

  it('logs a server request the SDK refuses before our handler (nested elicitation schema) with the reason, and tells the embedder once', async () => {
    const told: string[] = [];
    let asked = 0;
    const { host, loggers } = createTestHost({
      elicitation: async () => { asked++; return { action: 'decline' }; },
      onRefusedRequest: (server, method, reason) => told.push(`${server.name} ${method} ${reason}`),
    });
    try {
      await host.apply({ s: node(fixtureServer('sloppy')) });
      const s = host.require('s');
      for (let i = 0; i < 2; i++) {
        assert.match(text(await s.callTool('ask-nested', {})), /^ERROR -326\d\d: /, 'the server hears a refusal');
      }
      assert.equal(asked, 0, 'our handler never saw it');
      const warnings = loggers.get('s')!.lines.filter(l => l.level === 'warn').map(l => l.message);
      assert.equal(warnings.length, 2, warnings.join('\n'));
      for (const w of warnings) assert.match(w, /^Refused the server.s elicitation\/create request before MCP Host could handle it: params\.requestedSchema\.properties\.address: Invalid input$/);
      assert.equal(told.length, 1, 'told once');
      assert.match(told[0], /^s elicitation\/create /);
    } finally { await host.shutdown(); }
  });
});

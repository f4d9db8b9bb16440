/**
 * Skills of a real server (test/fixtures/servers/skilled.ts over stdio, SDK 2.x): the host lists them
 * without reading a file, loads one by reading only its SKILL.md, refuses a tampered one with the
 * message, and the gateway (VS Code's chat route) passes on a skill file only once it is verified.
 */
import * as assert from 'node:assert/strict';
import type { Client, StandardSchemaV1 } from '@modelcontextprotocol/client';
import { SKILLS_EXTENSION, SkillRefusedError, startGateway, type Gateway, type McpHost } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger, text, waitForState } from './helpers';

const anyResult: StandardSchemaV1<Record<string, unknown>> = { '~standard': { version: 1, vendor: 'test', validate: v => ({ value: v as Record<string, unknown> }) } };
const WINDOW = { id: 'window-a', label: 'Window A', kind: 'window' as const };

describe('skills of a real server', function () {
  this.timeout(60_000);
  let host: McpHost;
  let gateway: Gateway;
  const clients: Client[] = [];

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({ skilled: node(fixtureServer('skilled')), tampered: { ...node(fixtureServer('skilled')), env: { FIXTURE_TAMPER: 'code-review' } } });
    await waitForState(host.require('skilled'), 'running');
    await waitForState(host.require('tampered'), 'running');
    gateway = await startGateway({ host, logger: new RecordingLogger(), approve: async () => true });
  });
  after(async () => { for (const c of clients) await c.close(); gateway.dispose(); await host.shutdown(); });

  const reads = async (server: string) => JSON.parse(text(await host.require(server).callTool('reads'))) as string[];

  it('lists both skills and reads nothing until one is loaded, then only its SKILL.md', async () => {
    const conn = host.require('skilled');
    const { skills, problems } = await host.skills.list(conn);
    assert.deepEqual(skills.map(s => s.name), ['release-notes', 'code-review']);
    assert.deepEqual(problems, []);
    assert.deepEqual(await reads('skilled'), []);
    const loaded = await host.skills.load(conn, 'release-notes');
    assert.match(loaded.body, /^# Release notes\n\nSKILL-BODY-RELEASE-NOTES/);
    assert.deepEqual(await reads('skilled'), ['skill://release-notes/SKILL.md']);
  });

  it('refuses a skill whose SKILL.md does not match its listed digest, naming server and skill', async () => {
    const conn = host.require('tampered');
    await assert.rejects(host.skills.load(conn, 'code-review'), (e: unknown) => {
      assert.ok(e instanceof SkillRefusedError);
      assert.match(e.message, /^MCP Host did not load skill "code-review" of server "tampered": skill:\/\/code-review\/SKILL\.md does not match the digest the server listed/);
      return true;
    });
    // Its other skill is intact and loads.
    assert.match((await host.skills.load(conn, 'release-notes')).body, /SKILL-BODY-RELEASE-NOTES/);
  });

  it('through the gateway, answers a read of a skill file only when it matches the listing', async () => {
    const good = await connect(gateway.endpoint('skilled', WINDOW));
    const bad = await connect(gateway.endpoint('tampered', WINDOW));
    clients.push(good, bad);
    const read = await good.readResource({ uri: 'skill://release-notes/templates/NOTES.md' });
    assert.match(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64').toString('utf8'), /^Template:/);
    const md = await good.readResource({ uri: 'skill://release-notes/SKILL.md' });
    assert.match((md.contents[0] as { text: string }).text, /SKILL-BODY-RELEASE-NOTES/);
    await assert.rejects(bad.readResource({ uri: 'skill://code-review/SKILL.md' }), /MCP Host did not load skill "code-review" of server "tampered".*digest/);
    // The route offers no skills as such (README "Skills"): no extension declared, no skills/list.
    assert.equal((good.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[SKILLS_EXTENSION], undefined);
    await assert.rejects(good.request({ method: 'skills/list', params: {} }, anyResult), /-32601|not found/i);
  });
});

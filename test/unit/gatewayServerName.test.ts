/**
 * Found in the native-chat workbench run (issue 31): VS Code names a server's tools after the serverInfo
 * the gateway gives it (its title when it has one), and the gateway passed the server's own title on, so a
 * server picked its own tool prefix in VS Code: a title of "github" put its tools under another server's
 * name. The gateway now names each server as the user declared it.
 */
import * as assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/client';
import { startGateway } from '../../src/core';
import { connect } from './gatewayClient';
import { createTestHost, fixtureServer, node, RecordingLogger } from './helpers';

describe('the gateway names each server as it is declared', function () {
  this.timeout(30_000);

  it('ATTACKER: a server titled "github" is served as "mine", with no title of its own choosing', async () => {
    const { host } = createTestHost();
    await host.apply({ mine: { ...node(fixtureServer('eliciting')), env: { FIXTURE_TITLE: 'github' } } });
    const gateway = await startGateway({ host, logger: new RecordingLogger(), approve: async () => true });
    let client: Client | undefined;
    try {
      assert.equal(host.require('mine').serverInfo?.title, 'github', 'the server does call itself github');
      client = await connect(gateway.endpoint('mine', { id: 'w', label: 'window', kind: 'window' }));
      const info = client.getServerVersion();
      assert.equal(info?.name, 'mine');
      assert.equal(info?.title, undefined, 'the server\'s own title would name its tools in VS Code');
    } finally {
      await client?.close().catch(() => undefined);
      gateway.dispose();
      await host.shutdown();
    }
  });
});

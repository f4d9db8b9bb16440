/**
 * Issue 28.3, found by an outside attack: a user server that runs in the launch folder (no absolute `cwd`)
 * kept running in the home folder after trust was granted, while its approvals were already read for the
 * workspace's program, so an "always" given then would carry to the repository's code at its next start. A
 * moved launch folder (trust granted, another first folder) restarts it there; a server with an absolute
 * `cwd` runs the same program wherever the window is and keeps running.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { VariableContext } from '../../src/core';
import { createTestHost, fixtureServer, node, text } from './helpers';

describe('a server that runs in the launch folder restarts when the folder moves (issue 28.3)', function () {
  this.timeout(30_000);

  it('ATTACKER: trust granted, then another first folder: the server without a cwd restarts in the new folder; one with an absolute cwd keeps running', async () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cloned-'));
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-other-'));
    const variables: { -readonly [K in keyof VariableContext]: VariableContext[K] } = {
      workspaceFolders: [{ name: 'cloned', path: repo }], trusted: false, userHome: os.homedir(), env: process.env,
    };
    const { host } = createTestHost({ variables });
    const servers = { inFolder: node(fixtureServer('crashing')), fixed: { ...node(fixtureServer('crashing')), cwd: os.tmpdir() } };
    const cwdOf = async (name: string) => fs.realpathSync(fs.readlinkSync(`/proc/${JSON.parse(text(await host.require(name).callTool('pid', {}))).pid}/cwd`));
    try {
      await host.apply(servers);
      assert.equal(await cwdOf('inFolder'), fs.realpathSync(os.homedir()), 'untrusted, it runs in the home folder');
      const fixedPid = host.require('fixed').pid;

      variables.trusted = true;
      const granted = await host.apply(servers);
      assert.deepEqual(granted.restarted, ['inFolder'], 'trust moved its launch folder');
      assert.equal(await cwdOf('inFolder'), fs.realpathSync(repo), 'it runs in the trusted folder now');
      assert.equal(host.require('fixed').pid, fixedPid, 'the absolute cwd runs the same program: no restart');

      variables.workspaceFolders = [{ name: 'other', path: other }, { name: 'cloned', path: repo }];
      const moved = await host.apply(servers);
      assert.deepEqual(moved.restarted, ['inFolder'], 'another first folder');
      assert.equal(await cwdOf('inFolder'), fs.realpathSync(other));

      const again = await host.apply(servers);
      assert.deepEqual(again.restarted, [], 'nothing moved: nothing restarts');
    } finally {
      await host.shutdown();
      fs.rmSync(repo, { recursive: true, force: true });
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

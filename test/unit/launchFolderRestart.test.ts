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
import { parseServers, type VariableContext } from '../../src/core';
import { workspaceVariableValues } from '../../src/core/config/trust';
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

  // Issue 28.3, the same class: `${workspaceFolder…}` fixes the cwd (so the launch-folder rule above does
  // not apply), yet names a folder that moves. The running program must follow its text's meaning.
  it('ATTACKER: a server whose cwd or args name a folder by variable restarts when that folder moves, renames or another comes first; one that names no folder keeps running', async () => {
    const a = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-a-'));
    const b = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-b-'));
    const variables: { -readonly [K in keyof VariableContext]: VariableContext[K] } = {
      workspaceFolders: [{ name: 'a', path: a }, { name: 'b', path: b }], trusted: true, userHome: os.homedir(), env: process.env,
    };
    const { host } = createTestHost({ variables });
    const crashing = node(fixtureServer('crashing'));
    const servers = {
      first: { ...crashing, cwd: '${workspaceFolder}' },
      named: { ...crashing, cwd: os.tmpdir(), args: [...crashing.args, '--folder=${workspaceFolder:b}'] },
      fixed: { ...crashing, cwd: os.tmpdir() },
    };
    const cwdOf = async (name: string) => fs.realpathSync(fs.readlinkSync(`/proc/${JSON.parse(text(await host.require(name).callTool('pid', {}))).pid}/cwd`));
    const argsOf = async (name: string) => fs.readFileSync(`/proc/${JSON.parse(text(await host.require(name).callTool('pid', {}))).pid}/cmdline`, 'utf8').split('\0');
    try {
      await host.apply(servers);
      assert.equal(await cwdOf('first'), fs.realpathSync(a));
      const fixedPid = host.require('fixed').pid;

      variables.workspaceFolders = [{ name: 'b', path: b }, { name: 'a', path: a }];
      const reordered = await host.apply(servers);
      assert.deepEqual(reordered.restarted, ['first'], 'another first folder: ${workspaceFolder} is another folder');
      assert.equal(await cwdOf('first'), fs.realpathSync(b), 'it runs in the new first folder');

      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-b2-'));
      try {
        variables.workspaceFolders = [{ name: 'b', path: other }, { name: 'a', path: a }];
        const moved = await host.apply(servers);
        assert.deepEqual([...moved.restarted].sort(), ['first', 'named'], 'the folder named "b" is another folder now');
        assert.ok((await argsOf('named')).includes(`--folder=${other}`), 'the argument names the new folder');
        assert.equal(host.require('fixed').pid, fixedPid, 'a server that names no folder runs the same program: no restart');

        const again = await host.apply(servers);
        assert.deepEqual(again.restarted, [], 'nothing moved: nothing restarts');
      } finally {
        fs.rmSync(other, { recursive: true, force: true });
      }
    } finally {
      await host.shutdown();
      fs.rmSync(a, { recursive: true, force: true });
      fs.rmSync(b, { recursive: true, force: true });
    }
  });

  // Found by an outside attack: `auth` fields are substituted like headers, so a folder they name is part of the running key.
  it('ATTACKER: a folder named in a remote server\'s headers, URL or auth (clientId) is part of what keeps it running', () => {
    const [decl] = parseServers({ remote: { type: 'http', url: 'https://mcp.example.com/${workspaceFolderBasename}', headers: { 'X-Root': '${workspaceFolder:b}' }, auth: { grant: 'client_credentials', clientId: 'client-${workspaceFolderBasename}', clientSecret: '${input:secret}' } } }).servers;
    const values = (folders: { name: string; path: string }[]) => workspaceVariableValues(decl, folders);
    const a = { name: 'a', path: '/w/a' }, b = { name: 'b', path: '/w/b' };
    assert.deepEqual(values([a, b]), ['workspaceFolderBasename=a', 'workspaceFolder:b=/w/b', 'workspaceFolderBasename=a']);
    assert.notDeepEqual(values([b, a]), values([a, b]), 'another first folder: another URL and client ID');
    const [plain] = parseServers({ remote: { type: 'http', url: 'https://mcp.example.com/mcp', auth: { grant: 'client_credentials', clientId: 'fixed', clientSecret: '${input:secret}' } } }).servers;
    assert.deepEqual(workspaceVariableValues(plain, [a, b]), [], 'no folder named: nothing to follow');
  });
});

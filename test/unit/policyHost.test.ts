/**
 * Issue 32: nothing a policy refuses ever starts, whichever way its declaration gets to the host, and
 * the refusal is the server's own problem with the rule that refused it. Real fixture servers; each
 * start of one appends a line to a file (FIXTURE_START_LOG), so "never ran" is read from disk.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { EarlyProcesses, mergePolicies, startEarlyProcesses, type PolicyValues, type ServerPolicy } from '../../src/core';
import { createTestHost, fixtureServer, waitForState } from './helpers';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-host-policy-host-'));
const startLog = (name: string) => path.join(dir, `${name}.starts`);
const starts = (name: string) => existsSync(startLog(name)) ? readFileSync(startLog(name), 'utf8').split('\n').filter(Boolean).length : 0;
const server = (name: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [fixtureServer('crashing')], env: { FIXTURE_START_LOG: startLog(name) }, ...extra });
const fixed = (values: PolicyValues): () => ServerPolicy => { const p = mergePolicies([{ label: '/etc/vscode/policy.json', values }]); return () => p; };

describe('policy in the host: a refused server never starts (issue 32)', function () {
  this.timeout(60_000);

  it('a denied server is a problem naming the rule, gets no connection and never runs; the others run', async () => {
    const { host } = createTestHost({ policy: fixed({ deny: ['name:blocked'] }) });
    try {
      const r = await host.apply({ blocked: server('blocked'), fine: server('fine') });
      assert.equal(host.get('blocked'), undefined);
      assert.match(r.problems.find(p => p.server === 'blocked')?.message ?? '', /Refused by policy: the rule "name:blocked" of the deny list \(set by \/etc\/vscode\/policy\.json\)/);
      await waitForState(host.require('fine'), 'running');
      assert.equal(starts('blocked'), 0);
      assert.equal(starts('fine'), 1);
    } finally { await host.shutdown(); }
  });

  it('a command hidden in a variable is decided at launch, before anything is spawned', async () => {
    process.env.MCP_HOST_TEST_POLICY_CMD = process.execPath;
    const { host } = createTestHost({ policy: fixed({ allow: ['command:/nonexistent/allowed-server'] }) });
    try {
      const r = await host.apply({ hidden: server('hidden', { command: '${env:MCP_HOST_TEST_POLICY_CMD}' }) });
      assert.deepEqual(r.problems, []);
      const conn = host.require('hidden');
      await waitForState(conn, 'error');
      assert.match(conn.message ?? '', /Refused by policy: no rule of the allow list/);
      assert.equal(starts('hidden'), 0);
    } finally { await host.shutdown(); delete process.env.MCP_HOST_TEST_POLICY_CMD; }
  });

  it('a denied program reached through a symbolic link is still the denied program', async () => {
    const link = path.join(dir, 'innocent-name');
    symlinkSync(process.execPath, link);
    const { host } = createTestHost({ policy: fixed({ deny: [`command:${process.execPath}`] }) });
    try {
      await host.apply({ linked: server('linked', { command: link }) });
      const conn = host.require('linked');
      await waitForState(conn, 'error');
      assert.match(conn.message ?? '', /Refused by policy: the rule "command:/);
      assert.equal(starts('linked'), 0);
    } finally { await host.shutdown(); }
  });

  it('an env file that adds NODE_OPTIONS voids a package admission', async () => {
    const envFile = path.join(dir, 'evil.env');
    writeFileSync(envFile, 'NODE_OPTIONS=--require /tmp/evil.js\n');
    const { host } = createTestHost({ policy: fixed({ allow: ['package:@modelcontextprotocol/server-everything'] }) });
    try {
      await host.apply({ pkg: server('pkg', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], envFile }) });
      const conn = host.require('pkg');
      await waitForState(conn, 'error');
      assert.match(conn.message ?? '', /Refused by policy: .*runner flags or environment that may load other code/);
    } finally { await host.shutdown(); }
  });

  it('requireSandbox: a local server without a sandbox runtime does not run unsandboxed', async () => {
    const { host } = createTestHost({ policy: fixed({ requireSandbox: true }) });
    try {
      await host.apply({ plain: server('plain') });
      const conn = host.require('plain');
      await waitForState(conn, 'error');
      assert.match(conn.message ?? '', /must run sandboxed/);
      assert.equal(starts('plain'), 0);
    } finally { await host.shutdown(); }
  });

  it('the early start (before the host exists) spawns nothing the policy refuses or decides at launch', async () => {
    const early = new EarlyProcesses();
    const policy = fixed({ deny: ['name:early-blocked'], allow: ['name:early-*'] })();
    await startEarlyProcesses({ 'early-blocked': server('early-blocked'), 'other': server('other'), 'early-fine': server('early-fine') },
      { workspaceFolders: [], trusted: true, userHome: os.homedir(), env: process.env }, false, early, policy);
    try {
      assert.deepEqual(early.started.map(s => s.server), ['early-fine']);
    } finally { await early.release(); }
  });

  it('a policy that changes applies at the next apply(): the newly refused server stops', async () => {
    let values: PolicyValues = {};
    const { host } = createTestHost({ policy: () => mergePolicies([{ label: 'policy file', values }]) });
    try {
      await host.apply({ later: server('later') });
      await waitForState(host.require('later'), 'running');
      values = { deny: ['name:later'] };
      const r = await host.apply({ later: server('later') });
      assert.deepEqual(r.stopped, ['later']);
      assert.equal(host.get('later'), undefined);
    } finally { await host.shutdown(); }
  });
});

/**
 * Issue 32, in a real VS Code: an administrator's policy file (MCP_HOST_POLICY_FILE, written before VS Code
 * started; test/integration/runs.mjs) refuses servers wherever they come from — user settings at startup (the
 * early start included), workspace settings, another host's file (discovery), the API — and the user cannot
 * lift it through settings. A change of the file applies while VS Code runs.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, fixture, nodeServer, serverItems, waitState, type TestApi } from '../mcpHost';
import { setSetting, waitFor, workspaceRoot } from '../helpers';

const POLICY_FILE = process.env.MCP_HOST_POLICY_FILE!;
const startsOf = (name: string) => { const f = `${POLICY_FILE}.${name}.starts`; return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0; };
const refusal = (a: TestApi, name: string) => a.host.problems.find(p => p.server === name)?.message ?? '';

describe('policy: an administrator\'s file decides which servers run, and the user cannot lift it (issue 32)', function () {
  this.timeout(120_000);
  let a: TestApi;
  before(async () => { a = await api(); await a.reload(); });
  after(async () => {
    rmSync(path.join(workspaceRoot().fsPath, '.mcp.json'), { force: true });
    for (const k of ['policy.deny', 'policy.allow', 'policy.access', 'discovery']) await setSetting(`mcpHost.${k}`, undefined);
    await setSetting('mcpHost.servers', undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('at startup the refused servers are problem rows naming the rule and the file, never ran, and the others run', async () => {
    await waitState(a.host.require('control'), 'running');
    for (const [name, rule] of [['plantedNpx', 'package:mcp-host-planted-fixture'], ['blockedEarly', 'name:blocked*'], ['deniedRemote', 'url:https://denied.example/*']]) {
      assert.equal(a.host.get(name), undefined, `${name} has no connection`);
      assert.match(refusal(a, name), new RegExp(`Refused by policy: the rule "${rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}" of the deny list \\(set by ${POLICY_FILE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)`));
    }
    const rows = await serverItems(a);
    const row = rows.find(r => r.label === 'blockedEarly');
    assert.ok(row, JSON.stringify(rows));
    assert.match(`${row.description} ${row.tooltip}`, /Refused by policy/);
    assert.equal(startsOf('blockedEarly'), 0, 'neither the early start nor the host ran it');
    assert.equal(startsOf('control'), 1);
    assert.ok(a.listServers().every(s => s.name !== 'blockedEarly'));
    await assert.rejects(a.callTool('blockedEarly', 'echo', { text: 'x' }), /no server with this name/);
  });

  it('the user\'s own mcpHost.policy.* values cannot lift the file\'s rules, and a renamed or re-spelled copy is refused too', async () => {
    await setSetting('mcpHost.policy.deny', []);
    await setSetting('mcpHost.policy.access', 'all');
    await setSetting('mcpHost.policy.allow', ['package:mcp-host-planted-fixture', 'name:*']);
    await setSetting('mcpHost.servers', {
      plantedNpx: { command: 'npx', args: ['-y', 'mcp-host-planted-fixture'] },
      innocent: { command: 'npm', args: ['exec', '--yes', '--', 'MCP-HOST-PLANTED-FIXTURE@latest'] },
      control: nodeServer(fixture('crashing')),
    });
    await a.reload();
    assert.match(refusal(a, 'plantedNpx'), /Refused by policy/);
    assert.match(refusal(a, 'innocent'), /Refused by policy: the rule "package:mcp-host-planted-fixture"/);
    // The user's own allow list narrows: only what both lists admit runs (control is admitted by the user's `name:*`).
    await waitState(a.host.require('control'), 'running');
  });

  it('a workspace\'s servers and its own policy values are refused alike', async () => {
    await setSetting('mcpHost.servers', { blockedByWorkspace: nodeServer(fixture('crashing')), workspaceNpx: { command: 'npx', args: ['mcp-host-planted-fixture'] } }, vscode.ConfigurationTarget.Workspace);
    await setSetting('mcpHost.policy.deny', [], vscode.ConfigurationTarget.Workspace).catch(() => { /* application scope: VS Code may refuse to write it */ });
    await a.reload();
    assert.match(refusal(a, 'blockedByWorkspace'), /Refused by policy: the rule "name:blocked\*"/);
    assert.match(refusal(a, 'workspaceNpx'), /Refused by policy/);
  });

  it('a server from another host\'s file (discovery) is refused too', async () => {
    writeFileSync(path.join(workspaceRoot().fsPath, '.mcp.json'), JSON.stringify({ mcpServers: { discoveredNpx: { command: 'npx', args: ['--yes', 'mcp-host-planted-fixture@1.0.0'] } } }));
    await setSetting('mcpHost.discovery', { claudeCodeWorkspace: true });
    const message = await waitFor(() => a.host.problems.find(p => p.server.startsWith('discoveredNpx'))?.message, 15_000, 'the discovered server\'s refusal');
    assert.match(message, /Refused by policy: the rule "package:mcp-host-planted-fixture"/);
    assert.ok(!a.host.servers.some(s => s.name.startsWith('discoveredNpx')));
  });

  it('a change of the policy file applies while VS Code runs: the newly denied server stops', async () => {
    await setSetting('mcpHost.policy.allow', undefined);
    await setSetting('mcpHost.servers', { control: nodeServer(fixture('crashing')) });
    await a.reload();
    await waitState(a.host.require('control'), 'running');
    const original = readFileSync(POLICY_FILE, 'utf8');
    try {
      writeFileSync(POLICY_FILE, JSON.stringify({ McpHostDeny: ['name:control'] }));
      await waitFor(() => a.host.get('control') === undefined, 20_000, 'control stopped by the new policy');
      assert.match(refusal(a, 'control'), /Refused by policy: the rule "name:control"/);
    } finally { writeFileSync(POLICY_FILE, original); }
  });
});

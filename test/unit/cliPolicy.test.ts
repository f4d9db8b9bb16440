/** Issue 32: the CLI obeys the machine's policy files as the editor does: a refused server is reported with its rule and never runs. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, workspace } from './cliRun';

describe('CLI: the policy files hold (issue 32)', function () {
  this.timeout(60_000);

  it('list --yes reports a denied server as refused by policy, runs the others, and never starts it', async () => {
    const ws = workspace('mcp.json', { servers: {} });
    const ran = (n: string) => path.join(ws, `${n}.ran`);
    const server = (n: string) => ({ command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(ran(n))}, ''); setInterval(() => {}, 1000)`] });
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { 'blocked-one': server('blocked-one'), other: server('other') } }));
    const policyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-policy-')), 'policy.json');
    fs.writeFileSync(policyFile, JSON.stringify({ McpHostDeny: ['name:blocked-*'] }));
    const r = await runCli(['--yes', '--timeout', '3', 'list'], ws, { MCP_HOST_POLICY_FILE: policyFile });
    assert.match(r.stdout + r.stderr, /blocked-one.*Refused by policy: the rule "name:blocked-\*" of the deny list \(set by .*policy\.json\)/s);
    assert.ok(!fs.existsSync(ran('blocked-one')), 'the refused server ran');
    assert.ok(fs.existsSync(ran('other')), `the admitted server did not run: ${r.stderr}`);
  });

  it('an unreadable policy file refuses every server (check fails)', async () => {
    const ws = workspace('mcp.json', { servers: { s: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } } });
    const policyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-policy-')), 'policy.json');
    fs.writeFileSync(policyFile, '{ not json');
    const r = await runCli(['--yes', 'check'], ws, { MCP_HOST_POLICY_FILE: policyFile });
    assert.match(r.stdout + r.stderr, /Refused by policy: MCP servers are turned off here \(access "none"\) \(set by .*unreadable/s);
    assert.notEqual(r.code, 0);
  });

  it('access registryOnly: the CLI has no record of installing anything from the registry, so a declaration claiming an entry never runs', async () => {
    const ws = workspace('mcp.json', { servers: {} });
    const ran = path.join(ws, 'claimed.ran');
    fs.writeFileSync(path.join(ws, '.vscode', 'mcp.json'), JSON.stringify({ servers: { claimed: {
      command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(ran)}, ''); setInterval(() => {}, 1000)`],
      registry: { name: 'io.github.acme/weather', version: '1.2.0' },
    } } }));
    const policyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-policy-')), 'policy.json');
    fs.writeFileSync(policyFile, JSON.stringify({ McpHostAccess: 'registryOnly' }));
    const r = await runCli(['--yes', '--timeout', '3', 'list'], ws, { MCP_HOST_POLICY_FILE: policyFile });
    assert.match(r.stdout + r.stderr, /claimed.*Refused by policy: only servers installed from the MCP registry may run here \(access "registryOnly"\) \(set by .*policy\.json\), and MCP Host has no record of installing it/s);
    assert.ok(!fs.existsSync(ran), 'the refused server ran');
  });
});

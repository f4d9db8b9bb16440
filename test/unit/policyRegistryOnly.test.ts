/**
 * Issue 32, access "registryOnly": only servers MCP Host installed from the (pinned) registry run, and
 * only as installed. The attacker writes declarations: the same name with another package, a registry
 * id claimed in a hand-written declaration, a version changed, a URL with another path or host, a
 * workspace's or another program's copy of a user install, an install from another registry. Real
 * fixture servers over HTTP; the records are made by the code the install uses (registryDeclaration,
 * registryInstallRecord) and kept by the extension's store (RegistryInstallRecords, on a Memento).
 */
import * as assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import { admittedAsWritten, applyPolicy, EarlyProcesses, launchRefusal, parseRule, mergePolicies, parseServers, policyValues, registryInstallRecord, startEarlyProcesses, type PolicyValues, type RegistryInstall, type ServerPolicy } from '../../src/core';
import { registryDeclaration } from '../../src/core/registry';
import type { RegistryServer } from '../../src/core/registry/types';
import { RegistryInstallRecords } from '../../src/vscode/registry/installRecords';
import { createTestHost, MemoryStorage, startHttpFixture, waitForState } from './helpers';

const REGISTRY = 'https://registry.corp.example';
const policyOf = (values: PolicyValues): ServerPolicy => mergePolicies([{ label: '/etc/vscode/policy.json', values }]);
const registryOnly = policyOf({ access: 'registryOnly', registryUrl: REGISTRY });

const npmEntry: RegistryServer = {
  name: 'io.github.acme/weather', version: '1.2.0',
  packages: [{ registryType: 'npm', identifier: '@acme/weather', version: '1.2.0', packageArguments: [{ type: 'named', name: '--units', value: 'metric' }] }],
};
const remoteEntry = (url: string): RegistryServer => ({ name: 'io.github.acme/echo-remote', version: '2.0.0', remotes: [{ type: 'streamable-http', url }] });

/** What the install writes and records for one entry (the same calls installEntry and installWithConsent make). */
function install(entry: RegistryServer, name: string, kind: 'package' | 'remote', registryUrl = REGISTRY): { declaration: Record<string, unknown>; record: RegistryInstall } {
  const built = registryDeclaration(entry, { kind, index: 0 }, name);
  assert.deepEqual(built.errors, []);
  const decl = parseServers({ [name]: built.declaration }).servers[0];
  const record = registryInstallRecord(decl, { registryUrl, entry: entry.name, version: entry.version });
  assert.ok(typeof record !== 'string', String(record));
  return { declaration: built.declaration, record };
}

const refusal = (problems: readonly { server: string; message: string }[], name: string) => problems.find(p => p.server === name && /Refused by policy/.test(p.message))?.message ?? '';

describe('policy registryOnly: only what MCP Host installed from the registry runs, as installed (issue 32)', function () {
  this.timeout(60_000);
  const children: ChildProcess[] = [];
  after(() => { for (const c of children) c.kill(); });

  it('is a policy value files and settings accept, stricter than all and wider than none', () => {
    assert.deepEqual(policyValues({ McpHostAccess: 'registryOnly' }), { access: 'registryOnly' });
    assert.equal(mergePolicies([{ label: 'a', values: { access: 'registryOnly' } }, { label: 'b', values: { access: 'all' } }]).access, 'registryOnly');
    assert.equal(mergePolicies([{ label: 'a', values: { access: 'registryOnly' } }, { label: 'b', values: { access: 'none' } }]).access, 'none');
  });

  it('a recorded install runs; a changed URL (path, host), a hand-written claim and an install from another registry are refused and never connect', async () => {
    const { url, child } = await startHttpFixture('recording');
    children.push(child);
    const installed = install(remoteEntry(url), 'echo', 'remote');
    const other = install(remoteEntry(url), 'elsewhere', 'remote', 'https://registry.attacker.example');
    const records = new Map<string, RegistryInstall>([['echo', installed.record], ['movedPath', installed.record], ['movedHost', installed.record], ['elsewhere', other.record]]);
    const { host } = createTestHost({ policy: () => registryOnly, registryInstall: name => records.get(name) });
    try {
      const r = await host.apply({
        echo: installed.declaration,
        movedPath: { ...installed.declaration, url: url.replace('/mcp', '/admin/mcp') },
        movedHost: { ...installed.declaration, url: url.replace('127.0.0.1', 'localhost') },
        // A declaration that names the registry entry itself: nothing the declaration says is believed.
        claimed: { ...installed.declaration, registry: { name: 'io.github.acme/echo-remote', version: '2.0.0', url: REGISTRY } },
        elsewhere: other.declaration,
      });
      await waitForState(host.require('echo'), 'running');
      for (const name of ['movedPath', 'movedHost']) {
        assert.equal(host.get(name), undefined, `${name} has no connection`);
        assert.match(refusal(r.problems, name), /Refused by policy: only servers installed from the MCP registry may run here \(access "registryOnly"\) \(set by \/etc\/vscode\/policy\.json\), and its declaration no longer runs what was installed from the registry entry "io\.github\.acme\/echo-remote" 2\.0\.0 \(url http:\/\/127\.0\.0\.1:\d+\/mcp\)/);
      }
      assert.equal(host.get('claimed'), undefined);
      assert.match(refusal(r.problems, 'claimed'), /MCP Host has no record of installing it from the registry here \(a declaration cannot say so itself/);
      assert.equal(host.get('elsewhere'), undefined);
      assert.match(refusal(r.problems, 'elsewhere'), /it was installed from https:\/\/registry\.attacker\.example, not from https:\/\/registry\.corp\.example/);
    } finally { await host.shutdown(); }
  });

  it('the same name with another package, or the package version changed, is refused before anything runs', async () => {
    const installed = install(npmEntry, 'weather', 'package');
    assert.deepEqual(installed.declaration.args, ['-y', '@acme/weather@1.2.0', '--units', 'metric']);
    const { host } = createTestHost({ policy: () => registryOnly, registryInstall: () => installed.record });
    try {
      const args = installed.declaration.args as string[];
      for (const [what, changed] of [
        ['another package', ['-y', '@evil/weather@1.2.0', '--units', 'metric']],
        ['another version', ['-y', '@acme/weather@1.2.1', '--units', 'metric']],
        ['a runner flag added', ['--node-options=--require=/tmp/x.js', ...args]],
        ['another argument', ['-y', '@acme/weather@1.2.0', '--units', 'metric', '--eval-plugin', '/tmp/x']],
      ] as const) {
        const r = await host.apply({ weather: { ...installed.declaration, args: changed } });
        assert.equal(host.get('weather'), undefined, what);
        assert.match(refusal(r.problems, 'weather'), /no longer runs what was installed from the registry entry "io\.github\.acme\/weather" 1\.2\.0 \(package @acme\/weather@1\.2\.0\)/, what);
      }
      for (const [what, extra] of [['an environment variable', { env: { NODE_OPTIONS: '--require /tmp/x.js' } }], ['a working folder', { cwd: os.tmpdir() }], ['another command', { command: '/tmp/npx' }]] as const) {
        const r = await host.apply({ weather: { ...installed.declaration, ...extra } });
        assert.equal(host.get('weather'), undefined, what);
        assert.match(refusal(r.problems, 'weather'), /no longer runs what was installed/, what);
      }
    } finally { await host.shutdown(); }
  });

  it('at launch, what the resolved command line runs must still be the recorded package', async () => {
    const installed = install(npmEntry, 'weather', 'package');
    const decl = parseServers({ weather: installed.declaration }).servers[0];
    const launch = (args: string[]) => ({ type: 'stdio' as const, command: 'npx', args, env: {}, cwd: undefined });
    assert.equal(await launchRefusal(decl, launch(['-y', '@acme/weather@1.2.0', '--units', 'metric']), registryOnly, () => installed.record), undefined);
    assert.match(await launchRefusal(decl, launch(['-y', '@acme/weather@6.6.6']), registryOnly, () => installed.record) ?? '',
      /once its inputs are filled in it does not run what the registry entry "io\.github\.acme\/weather" names \(package @acme\/weather@1\.2\.0\)/);
    assert.match(await launchRefusal(decl, launch(['-y', '@acme/weather@1.2.0']), registryOnly, () => undefined) ?? '', /no record of installing it/);
  });

  it('a deny rule still wins over a recorded install, and without the embedder\'s records (CLI, API) nothing runs', async () => {
    const installed = install(npmEntry, 'weather', 'package');
    const denying = policyOf({ access: 'registryOnly', registryUrl: REGISTRY, deny: ['package:@acme/*'] });
    const denyingHost = createTestHost({ policy: () => denying, registryInstall: () => installed.record }).host;
    try {
      const denied = await denyingHost.apply({ weather: installed.declaration });
      assert.match(refusal(denied.problems, 'weather'), /the rule "package:@acme\/\*" of the deny list/);
    } finally { await denyingHost.shutdown(); }
    const { host } = createTestHost({ policy: () => registryOnly });
    try {
      const r = await host.apply({ weather: installed.declaration });
      assert.equal(host.get('weather'), undefined);
      assert.match(refusal(r.problems, 'weather'), /access "registryOnly".*no record of installing it/);
    } finally { await host.shutdown(); }
  });

  it('the user\'s own mcpHost.policy.registryUrl does not change which registry an administrator\'s registryOnly admits', async () => {
    // The administrator sets registryOnly and pins nothing (the official registry); the user pins a registry of their own.
    const attacker = 'https://registry.attacker.example';
    const p = mergePolicies([
      { label: '/etc/vscode/policy.json', values: { access: 'registryOnly' } },
      { label: 'your settings (mcpHost.policy.*)', values: { registryUrl: attacker } },
    ]);
    assert.equal(p.registryUrl, undefined);
    const fromAttacker = install(npmEntry, 'weather', 'package', attacker);
    const { host } = createTestHost({ policy: () => p, registryInstall: () => fromAttacker.record });
    try {
      const r = await host.apply({ weather: fromAttacker.declaration });
      assert.equal(host.get('weather'), undefined);
      assert.match(refusal(r.problems, 'weather'), /it was installed from https:\/\/registry\.attacker\.example, not from https:\/\/registry\.modelcontextprotocol\.io/);
    } finally { await host.shutdown(); }
    // A source that sets registryOnly itself may pin its registry; so may one before it.
    assert.equal(mergePolicies([{ label: 'a', values: { access: 'registryOnly', registryUrl: REGISTRY } }, { label: 'b', values: { registryUrl: attacker } }]).registryUrl, REGISTRY);
    assert.equal(mergePolicies([{ label: 'a', values: { registryUrl: REGISTRY } }, { label: 'b', values: { access: 'registryOnly' } }]).registryUrl, REGISTRY);
  });

  it('the early start leaves every server to the host under registryOnly', async () => {
    const installed = install(npmEntry, 'weather', 'package');
    const early = new EarlyProcesses();
    await startEarlyProcesses({ weather: installed.declaration }, { workspaceFolders: [], trusted: true, userHome: os.homedir(), env: process.env }, false, early, registryOnly);
    try { assert.deepEqual(early.started, []); } finally { await early.release(); }
  });

  it('the records: a user install is not a workspace\'s, a folder\'s or a discovered server\'s of the same name', async () => {
    const installed = install(npmEntry, 'weather', 'package');
    const state = { globalState: new MemoryStorage(), workspaceState: new MemoryStorage() } as unknown as ConstructorParameters<typeof RegistryInstallRecords>[0];
    const records = new RegistryInstallRecords(state);
    await records.record('weather', 'user', installed.record);
    assert.deepEqual(records.lookup('weather', 'user'), installed.record);
    for (const scope of ['workspace', 'folder', 'discovered', undefined] as const) assert.equal(records.lookup('weather', scope), undefined, String(scope));
    // A workspace install is that workspace's only (workspaceState), and never the user's.
    await records.record('local', 'workspace', installed.record);
    assert.deepEqual(records.lookup('local', 'workspace'), installed.record);
    assert.equal(records.lookup('local', 'user'), undefined);
    // A prototype key is not a record.
    assert.equal(records.lookup('__proto__', 'user'), undefined);
  });
});

describe('policy registry: rules name registry entries, proven by the install record (issue 32)', () => {
  const policyWith = (values: PolicyValues) => policyOf({ registryUrl: REGISTRY, ...values });
  const weather = install(npmEntry, 'weather', 'package');
  const parse = (servers: Record<string, unknown>) => parseServers(servers).servers;

  it('is a rule kind; a registry entry glob', () => {
    const r = parseRule('registry:io.github.acme/*');
    assert.ok(typeof r !== 'string' && r.kind === 'registry', String(r));
  });

  it('attacker: an allow rule by registry id admits the recorded install only — not a hand-written copy, a changed one, or a record from another registry', () => {
    const policy = policyWith({ allow: ['registry:io.github.acme/*'] });
    const changed = { ...weather.declaration, args: [...(weather.declaration.args as string[]), '--inspect'] };
    const elsewhere = install(npmEntry, 'elsewhere', 'package', 'https://registry.attacker.example');
    const records = new Map<string, RegistryInstall>([['weather', weather.record], ['changed', weather.record], ['elsewhere', elsewhere.record]]);
    const r = applyPolicy(parse({ weather: weather.declaration, copy: weather.declaration, changed, elsewhere: elsewhere.declaration }), policy, name => records.get(name));
    assert.deepEqual(r.servers.map(d => d.name), ['weather']);
    for (const name of ['copy', 'changed', 'elsewhere']) assert.match(refusal(r.problems, name), /no rule of the allow list/, name);
  });

  it('attacker: a deny rule by registry id refuses the recorded install, and the early start spawns nothing the records decide', () => {
    const policy = policyWith({ deny: ['registry:IO.GITHUB.ACME/weather'] });
    const other = install({ ...npmEntry, name: 'io.github.other/weather' }, 'other', 'package');
    const records = new Map<string, RegistryInstall>([['weather', weather.record], ['other', other.record]]);
    const r = applyPolicy(parse({ weather: weather.declaration, other: other.declaration }), policy, name => records.get(name));
    assert.deepEqual(r.servers.map(d => d.name), ['other']);
    assert.match(refusal(r.problems, 'weather'), /the rule "registry:IO\.GITHUB\.ACME\/weather" of the deny list/);
    // The early start has no records: with a registry rule it leaves every server to the host.
    for (const decl of parse({ weather: weather.declaration, other: other.declaration })) assert.equal(admittedAsWritten(decl, policy), false, decl.name);
  });
});

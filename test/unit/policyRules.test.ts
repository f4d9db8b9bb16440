/**
 * Issue 32 (controls an administrator can lock): the rules an administrator writes, tried with the
 * spellings a server's author or a cloned repository would use to get past them. A deny rule must catch
 * every spelling of the thing it names; an allow rule must admit nothing it did not name.
 */
import * as assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { declarationFacts, launchFacts, mergePolicies, OPEN_POLICY, parseServers, policyVerdict, readPolicyFile, type PolicyValues, type ServerDeclaration, type ServerPolicy } from '../../src/core';

const policy = (values: PolicyValues, label = 'test policy'): ServerPolicy => mergePolicies([{ label, values }]);
const decl = (name: string, value: Record<string, unknown>): ServerDeclaration => {
  const { servers, problems } = parseServers({ [name]: value });
  assert.equal(servers.length, 1, JSON.stringify(problems));
  return servers[0];
};
const verdict = (p: ServerPolicy, name: string, value: Record<string, unknown>) => policyVerdict(declarationFacts(decl(name, value)), p).kind;
const stdio = (command: string, args: string[] = [], env: Record<string, string> = {}) => ({ command, args, env });

describe('policy rules: a deny rule catches every spelling, an allow rule admits only what it names (issue 32)', () => {
  describe('deny by package', () => {
    const p = policy({ deny: ['package:@evil/pkg'] });
    for (const [label, command, args] of [
      ['npx -y', 'npx', ['-y', '@evil/pkg']],
      ['a version', 'npx', ['--yes', '@evil/pkg@1.2.3']],
      ['upper case', 'npx', ['-y', '@EVIL/Pkg']],
      ['npm exec --', 'npm', ['exec', '-y', '--', '@evil/pkg']],
      ['npx -p', 'npx', ['-p', '@evil/pkg', 'some-bin']],
      ['npx --package=', 'npx', ['--package=@evil/pkg', 'some-bin']],
      ['pnpm dlx', 'pnpm', ['dlx', '@evil/pkg']],
      ['bunx', 'bunx', ['@evil/pkg']],
      ['a Windows path to npx.cmd', 'C:\\Program Files\\nodejs\\npx.cmd', ['-y', '@evil/pkg']],
      ['a second package next to a harmless one', 'npx', ['-p', 'harmless', '-p', '@evil/pkg', 'harmless']],
    ] as const) {
      it(`refuses ${label}`, () => assert.equal(verdict(p, 's', stdio(command, [...args])), 'refused'));
    }
    it('leaves other packages alone', () => assert.equal(verdict(p, 's', stdio('npx', ['-y', '@evil/pkg-extra'])), 'admitted'));
  });

  describe('allow by package', () => {
    const p = policy({ allow: ['package:@good/server'] });
    it('admits the package, with or without a version', () => {
      assert.equal(verdict(p, 's', stdio('npx', ['-y', '@good/server'])), 'admitted');
      assert.equal(verdict(p, 's', stdio('npx', ['-y', '@good/server@2.0.0', '--port', '1'])), 'admitted');
    });
    for (const [label, command, args, env] of [
      ['node options that load other code', 'npx', ['--node-options=--require=/tmp/evil.js', '@good/server'], {}],
      ['another registry', 'npx', ['--registry', 'https://evil.example', '@good/server'], {}],
      ['NODE_OPTIONS in env', 'npx', ['-y', '@good/server'], { NODE_OPTIONS: '--require /tmp/evil.js' }],
      ['npm_config_registry in env', 'npx', ['-y', '@good/server'], { npm_config_registry: 'https://evil.example' }],
      ['LD_PRELOAD in env', 'npx', ['-y', '@good/server'], { LD_PRELOAD: '/tmp/evil.so' }],
      ['a second package', 'npx', ['-p', '@good/server', '-p', 'evil', 'server'], {}],
      ['a tarball URL as the version', 'npx', ['-y', '@good/server@https://evil.example/x.tgz'], {}],
      ['a git spec', 'npx', ['-y', 'github:good/server'], {}],
      ['a local folder', 'npx', ['-y', './good-server'], {}],
      ['the package name inside a shell command', 'bash', ['-c', 'npx -y @good/server; curl evil'], {}],
      ['node running a file', 'node', ['/tmp/@good/server/index.js'], {}],
    ] as const) {
      it(`does not admit ${label}`, () => assert.equal(verdict(p, 's', stdio(command, [...args], { ...env })), 'refused'));
    }
    it('decides at launch when the arguments hold variables, and refuses there what they turn into', () => {
      const d = decl('s', stdio('npx', ['-y', '${env:PKG}']));
      assert.equal(policyVerdict(declarationFacts(d), p).kind, 'atLaunch');
      const launched = launchFacts('s', { type: 'stdio', command: 'npx', args: ['-y', 'evil'], env: {}, cwd: undefined });
      assert.equal(policyVerdict(launched, p).kind, 'refused');
    });
    it('decides at launch for an env file (it may set NODE_OPTIONS), and the launch sees what it set', () => {
      const d = decl('s', { ...stdio('npx', ['-y', '@good/server']), envFile: '/tmp/x.env' });
      assert.equal(policyVerdict(declarationFacts(d), p).kind, 'atLaunch');
      const launched = launchFacts('s', { type: 'stdio', command: 'npx', args: ['-y', '@good/server'], env: { NODE_OPTIONS: '--require x' }, cwd: undefined });
      assert.equal(policyVerdict(launched, p).kind, 'refused');
    });
    it('python and container runners: uvx --from, docker images with registry defaults', () => {
      const py = policy({ allow: ['package:mcp-server-git', 'package:docker.io/mcp/*'] });
      assert.equal(verdict(py, 's', stdio('uvx', ['mcp-server-git'])), 'admitted');
      assert.equal(verdict(py, 's', stdio('uvx', ['--from', 'mcp_server.git==1.0', 'mcp-server-git'])), 'admitted');
      assert.equal(verdict(py, 's', stdio('uvx', ['--index-url', 'https://evil.example', 'mcp-server-git'])), 'refused');
      assert.equal(verdict(py, 's', stdio('uvx', ['--with', 'evil', 'mcp-server-git'])), 'refused');
      assert.equal(verdict(py, 's', stdio('docker', ['run', '-i', '--rm', 'mcp/github'])), 'admitted');
      assert.equal(verdict(py, 's', stdio('docker', ['run', '-i', '--rm', 'ghcr.io/evil/mcp/github'])), 'refused');
      assert.equal(verdict(py, 's', stdio('docker', ['run', '-i', '--privileged', 'mcp/github'])), 'refused');
    });
  });

  describe('url rules', () => {
    const deny = policy({ deny: ['url:https://evil.example.com/*'] });
    for (const url of [
      'https://EVIL.example.com/mcp',
      'https://evil.example.com./mcp',
      'https://user:pw@evil.example.com/mcp',
      'https://evil.example.com:443/mcp',
      'https://evil.example.com/%6Dcp?x=1#frag',
    ]) it(`deny catches ${url}`, () => assert.equal(verdict(deny, 's', { url }), 'refused'));

    const allow = policy({ allow: ['url:https://*.corp.example/*'] });
    it('allow admits a host of the pattern', () => assert.equal(verdict(allow, 's', { url: 'https://mcp.corp.example/v1' }), 'admitted'));
    for (const url of [
      'https://corp.example.evil.net/',
      'https://evil.net/a.corp.example/',
      'https://a.corp.example@evil.net/',
      'https://evil.net#.corp.example/',
      'https://a.corp.example:8443/',
      'http://a.corp.example/',
      'https://a.cоrp.example/', // Cyrillic о: punycode, another host
    ]) it(`allow does not admit ${url}`, () => assert.equal(verdict(allow, 's', { url }), 'refused'));
  });

  describe('name rules', () => {
    const p = policy({ deny: ['name:github'] });
    for (const name of ['GitHub', 'git\u200bhub', 'ｇｉｔｈｕｂ', 'git\u00adhub'])
      it(`deny catches the name ${JSON.stringify(name)}`, () => assert.equal(verdict(p, name, stdio('node', ['x.js'])), 'refused'));
  });

  describe('sources only narrow', () => {
    it('a user allow list cannot widen an administrator\'s, a user deny list adds', () => {
      const p = mergePolicies([
        { label: '/etc/vscode/policy.json', values: { allow: ['package:@good/*'] } },
        { label: 'your settings', values: { allow: ['package:@good/server', 'package:other'], deny: ['package:@good/bad'] } },
      ]);
      assert.equal(verdict(p, 's', stdio('npx', ['-y', '@good/server'])), 'admitted');
      assert.equal(verdict(p, 's', stdio('npx', ['-y', 'other'])), 'refused');
      assert.equal(verdict(p, 's', stdio('npx', ['-y', '@good/bad'])), 'refused');
    });
    it('access none anywhere refuses every server, and says who set it', () => {
      const p = mergePolicies([{ label: '/etc/vscode/policy.json', values: { access: 'none' } }, { label: 'your settings', values: { access: 'all' } }]);
      const v = policyVerdict(declarationFacts(decl('s', stdio('node', ['x.js']))), p);
      assert.equal(v.kind, 'refused');
      assert.match(v.kind === 'refused' ? v.message : '', /access "none"\) \(set by \/etc\/vscode\/policy\.json\)/);
    });
    it('no policy admits everything', () => assert.equal(verdict(OPEN_POLICY, 's', stdio('anything')), 'admitted'));
  });

  describe('policy files', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-host-policy-'));
    it('reads the policy names, lists as arrays or as JSON text', () => {
      const f = path.join(dir, 'ok.json');
      writeFileSync(f, JSON.stringify({ McpHostDeny: '["package:evil"]', McpHostAllow: ['package:good'], McpHostRequireSandbox: true, OtherProductPolicy: 1 }));
      assert.deepEqual(readPolicyFile(f)?.values, { deny: ['package:evil'], allow: ['package:good'], requireSandbox: true });
    });
    it('a file that is not JSON, or holds a wrong value, refuses every server rather than none', () => {
      const bad = path.join(dir, 'bad.json');
      writeFileSync(bad, '{ "McpHostDeny": ["package:evil"], ');
      assert.equal(readPolicyFile(bad)?.values.access, 'none');
      writeFileSync(bad, JSON.stringify({ McpHostDeny: 'package:evil' }));
      assert.equal(readPolicyFile(bad)?.values.access, 'none');
    });
    it('a missing file is no policy; a FIFO is refused without blocking', function () {
      assert.equal(readPolicyFile(path.join(dir, 'missing.json')), undefined);
      if (process.platform === 'win32') return;
      const fifo = path.join(dir, 'fifo.json');
      execFileSync('mkfifo', [fifo]);
      assert.equal(readPolicyFile(fifo)?.values.access, 'none');
    });
  });
});

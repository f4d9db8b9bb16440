/**
 * Workspace Trust at server start (issue 13, item 1): while the folders are not trusted, nothing from
 * them shapes a start. The attacker is a cloned repository that plants code where a user server
 * declared the usual way (`node server.js`, `python3 -m module`) would pick it up from its cwd.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseServers, resolveDeclaration, WorkspaceTrustRequiredError, type VariableContext } from '../../src/core';
import { createTestHost, fixtureServer, node, text, waitForState } from './helpers';

const ctx = (over: Partial<VariableContext> = {}): VariableContext => ({
  workspaceFolders: [{ name: 'app', path: '/ws/app' }, { name: 'lib', path: '/ws/lib' }],
  trusted: false,
  userHome: '/home/me',
  env: { HOME: '/home/me', BIN: '/opt/bin' },
  ...over,
});

const declaration = (raw: unknown) => {
  const { servers, problems } = parseServers({ s: raw });
  assert.deepEqual(problems, []);
  return servers[0];
};

/** A temporary "cloned repository" and a separate temporary "home". */
function plantedWorkspace(): { workspace: string; home: string; cleanup(): void } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mcp-trust-'));
  const workspace = path.join(root, 'repo');
  const home = path.join(root, 'home');
  mkdirSync(workspace);
  mkdirSync(home);
  // Each writes a marker next to itself when it runs: proof that the repository's code ran.
  writeFileSync(path.join(workspace, 'server.js'), `require('fs').writeFileSync(require('path').join(__dirname, 'PWNED-node'), 'ran'); process.exit(1);\n`);
  writeFileSync(path.join(workspace, 'mcp_host_planted.py'), `import os\nopen(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'PWNED-python'), 'w').write('ran')\nraise SystemExit(1)\n`);
  return { workspace, home, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

describe('workspace trust: resolving a start', () => {
  it('starts a user server in the home folder, not the workspace folder, while untrusted (and with no folder open)', async () => {
    const decl = declaration({ command: 'npx', args: ['-y', 'some-package'] });
    const untrusted = await resolveDeclaration(decl, ctx());
    assert.ok(untrusted.launch.type === 'stdio');
    assert.equal(untrusted.launch.cwd, '/home/me');
    const trusted = await resolveDeclaration(decl, ctx({ trusted: true }));
    assert.ok(trusted.launch.type === 'stdio');
    assert.equal(trusted.launch.cwd, '/ws/app', 'trusted: the first workspace folder, where npx users expect their project');
    const noFolder = await resolveDeclaration(decl, ctx({ trusted: true, workspaceFolders: [] }));
    assert.ok(noFolder.launch.type === 'stdio');
    assert.equal(noFolder.launch.cwd, '/home/me', 'no folder open: the home folder, not the editor\'s own directory');
  });

  it('makes every declaration that depends on the folders wait for trust, naming the fields, before asking for inputs', async () => {
    const cases: [unknown, string[]][] = [
      [{ command: 'node', args: ['${workspaceFolder}/server.js'] }, ['args[0]']],
      [{ command: 'node', args: ['x'], cwd: '${workspaceFolder:lib}' }, ['cwd']],
      [{ command: 'node', env: { NAME: '${workspaceFolderBasename}' } }, ['env.NAME']],
      [{ command: '${workspaceFolder}/bin/server' }, ['command']],
      [{ command: 'node', envFile: '${workspaceFolder}/.env' }, ['envFile']],
      [{ command: 'node', cwd: 'sub' }, ['cwd']],
      [{ command: 'node', envFile: '.env' }, ['envFile']],
      [{ command: './bin/server' }, ['command']],
      [{ command: 'bin\\server.exe' }, ['command']],
      [{ command: 'tools/run', cwd: 'sub', envFile: '.env' }, ['command', 'cwd', 'envFile']],
      [{ url: 'https://example.com/${workspaceFolderBasename}' }, ['url']],
      [{ url: 'https://example.com/mcp', headers: { 'X-Project': '${workspaceFolder}' } }, ['headers.X-Project']],
      // Found by an outside attack: `auth` is substituted too (config/resolve.ts resolveAuth), but was not checked.
      [{ url: 'https://example.com/mcp', auth: { grant: 'client_credentials', clientId: 'client-${workspaceFolderBasename}', clientSecret: '${input:token}' } }, ['auth.clientId']],
    ];
    for (const [raw, fields] of cases) {
      const asked: string[] = [];
      const decl = declaration({ ...(raw as object), ...('url' in (raw as object) ? {} : { args: [...((raw as { args?: string[] }).args ?? []), '${input:token}'] }) });
      const err = await resolveDeclaration(decl, ctx({ resolveInput: async ({ id }) => { asked.push(id); return 'secret'; } })).then(() => undefined, (e: unknown) => e);
      assert.ok(err instanceof WorkspaceTrustRequiredError, `${JSON.stringify(raw)} waits for trust (got ${String(err)})`);
      assert.deepEqual(err.requirements.map(r => r.field), fields, JSON.stringify(raw));
      assert.match(err.message, /^waits for Workspace Trust: /);
      assert.deepEqual(asked, [], `${JSON.stringify(raw)}: no input is asked for a start that cannot happen`);
      await resolveDeclaration(decl, ctx({ trusted: true, resolveInput: async () => 'secret', workspaceFolders: [{ name: 'lib', path: '/ws/lib' }] })).catch((e: unknown) => {
        // Trusted: the same declaration resolves (only a missing envFile may fail, not trust).
        assert.ok(!(e instanceof WorkspaceTrustRequiredError), `${JSON.stringify(raw)} resolves once trusted: ${String(e)}`);
      });
    }
  });

  it('lets declarations that do not depend on the folders start while untrusted', async () => {
    const cases: unknown[] = [
      { command: 'npx', args: ['-y', 'pkg'] },
      { command: 'uvx', args: ['tool'], cwd: '/srv/tool' },
      { command: '${userHome}/bin/tool', cwd: '${userHome}/work' },
      { command: '${env:BIN}/tool' },
      { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:token}' } },
    ];
    for (const raw of cases) {
      const { launch } = await resolveDeclaration(declaration(raw), ctx({ resolveInput: async () => 'secret' }));
      if (launch.type === 'stdio') assert.ok(!launch.cwd?.startsWith('/ws/'), `${JSON.stringify(raw)} does not run in the workspace: ${launch.cwd}`);
    }
  });

  it('quotes the declared text in its reason, never a substituted value', async () => {
    const err = await resolveDeclaration(declaration({ command: '${env:SECRET_DIR}/run' }), ctx({ env: { SECRET_DIR: 'relative-s3cr3t' } })).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof WorkspaceTrustRequiredError);
    assert.doesNotMatch(err.message, /s3cr3t/);
    assert.match(err.message, /command "\$\{env:SECRET_DIR\}\/run" is a path relative to the workspace folder/);
  });
});

describe('workspace trust: the host against a planted repository', function () {
  this.timeout(30_000);

  it('never runs the repository\'s server.js or Python module for a user server while untrusted', async () => {
    const planted = plantedWorkspace();
    const { host } = createTestHost({ variables: { workspaceFolders: [{ name: 'repo', path: planted.workspace }], trusted: false, userHome: planted.home, env: process.env } });
    try {
      await host.apply({
        nodeServer: { command: process.execPath, args: ['server.js'] },
        pythonModule: { command: 'python3', args: ['-m', 'mcp_host_planted'] },
        here: { ...node(fixtureServer('noisy')), env: { FIXTURE_STDERR_LINES: '0' } },
      });
      await waitForState(host.require('nodeServer'), 'error');
      await waitForState(host.require('pythonModule'), 'error');
      assert.equal(existsSync(path.join(planted.workspace, 'PWNED-node')), false, 'the planted server.js ran');
      assert.equal(existsSync(path.join(planted.workspace, 'PWNED-python')), false, 'the planted Python module was imported');
      assert.equal(text(await host.require('here').callTool('cwd', {})), planted.home, 'a user server runs in the home folder');
    } finally {
      await host.shutdown();
      planted.cleanup();
    }
  });

  it('holds a workspace-dependent server until trust is granted, then starts it on the next apply', async () => {
    let trusted = false;
    const folders = [{ name: 'repo', path: path.join(fixtureServer('noisy'), '..') }];
    const { host } = createTestHost({ variables: { workspaceFolders: folders, get trusted() { return trusted; }, userHome: os.tmpdir(), env: process.env } });
    const servers = { fromFolder: { command: process.execPath, args: ['${workspaceFolder}/noisy.js'], env: { FIXTURE_STDERR_LINES: '0' } } };
    try {
      await host.apply(servers);
      const conn = host.require('fromFolder');
      assert.equal(conn.state, 'stopped');
      assert.equal(conn.needsTrust, true);
      assert.deepEqual(conn.trustRequirements.map(r => r.field), ['args[0]']);
      assert.match(conn.message ?? '', /waits for Workspace Trust: args\[0\] uses \$\{workspaceFolder\}/);
      assert.equal(conn.pid, undefined, 'no process was started');

      await host.apply(servers);
      assert.equal(conn.needsTrust, true, 'applying again while untrusted keeps it waiting');

      trusted = true;
      await host.apply(servers);
      await waitForState(conn, 'running');
      assert.equal(conn.needsTrust, false);
      assert.equal(text(await conn.callTool('cwd', {})), folders[0].path, 'trusted: the first workspace folder is the cwd');
    } finally {
      await host.shutdown();
    }
  });
});

/**
 * Consent belongs to a program, not to a name (issue 28, item 3), played against real processes of
 * the hostile fixture server (test/fixtures/servers/shapeshifting.ts): the user approves the server
 * declared as "evil", then another program takes the name; an approved tool gains an app, becomes
 * app-only or gets an output schema; the server's app calls a tool approved for models.
 * The targets are built as ToolConsent builds them: the declaration's `programIdentity` and scope.
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { programIdentity, ToolApprovals, type ApprovalTarget, type DeclaredProgram, type McpHost, type ServerScope } from '../../src/core';
import { createTestHost, fixtureServer, MemoryStorage, node, waitFor, waitForState } from './helpers';
import { isFixedFolder, runsInLaunchBase } from '../../src/core/tools/programIdentity';

const noSettings = { autoApprove: [], trustedServers: [] };

/** The approval target of `declaration` declared as "evil" in user settings (what ToolConsent computes). */
function userTarget(declaration: unknown, caller?: 'model' | 'app'): ApprovalTarget {
  const identity = programIdentity(declaration, { scope: 'user', workspace: 'file:///home/user/project' })!;
  return { server: 'evil', scope: 'user', program: identity.id, workspace: identity.workspace, ...(caller ? { caller } : {}) };
}

describe('consent belongs to a program, not to a name (hostile server)', function () {
  this.timeout(60_000);
  let host: McpHost;
  const first = node(fixtureServer('shapeshifting'));
  // Another program under the same name: same tools, same definitions; only what runs differs.
  const later = { ...node(fixtureServer('shapeshifting'), '--installed-later'), env: { FIXTURE_ORIGIN: 'an install link' } };

  async function run(declaration: unknown): Promise<(name: string) => Tool> {
    await host.apply({ evil: declaration });
    const conn = host.require('evil');
    await waitForState(conn, 'running');
    await waitFor(() => conn.tool('wipe'), 'the tools of evil');
    return name => { const t = conn.tool(name); assert.ok(t, `evil offers ${name}`); return t; };
  }

  beforeEach(() => { ({ host } = createTestHost()); });
  afterEach(() => host.shutdown());

  it('a different program declared later under an approved name is asked again; the old approvals are revoked', async () => {
    const approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    let tool = await run(first);
    const a = userTarget(first);
    const settings = { autoApprove: ['evil/*', 'evil/greet'], trustedServers: ['evil'] };
    assert.equal((await approvals.checkTool(a, tool('wipe'), settings)).approvedBy, 'server', 'the settings entry binds to the first program on first use');
    await approvals.grantTool(a, tool('wipe'), 'server');
    await approvals.grantTool(a, tool('greet'), 'tool');
    await approvals.grantResources(a);
    assert.equal((await approvals.checkTool(a, tool('wipe'), noSettings)).approvedBy, 'server');

    tool = await run(later);
    const b = userTarget(later);
    assert.notEqual(b.program, a.program);
    assert.deepEqual(await approvals.checkTool(b, tool('wipe'), noSettings), {}, '"every tool of evil" was given to another program');
    assert.deepEqual(await approvals.checkTool(b, tool('greet'), noSettings), {}, 'the same definition, another program');
    assert.equal(approvals.resourcesApproved(b), false);
    assert.deepEqual(await approvals.checkTool(b, tool('wipe'), settings), { programChanged: true }, 'the settings name "evil" meant the first program');
    assert.deepEqual(await approvals.checkTool(b, tool('greet'), settings), { programChanged: true });

    // The declaration now runs `later`: the approvals given to `first` are deleted, so going back asks too.
    const declared = (server: string, scope: ServerScope): DeclaredProgram | undefined => server === 'evil' && scope === 'user' ? { scope, program: b.program! } : undefined;
    await approvals.prune(declared, 'file:///home/user/project');
    assert.deepEqual(approvals.all(), []);
    tool = await run(first);
    assert.deepEqual(await approvals.checkTool(a, tool('wipe'), noSettings), {});
    assert.equal(approvals.resourcesApproved(a), false);

    // Approving the later program explicitly binds to it, the settings' name too.
    await approvals.grantTool(b, tool('wipe'), 'server');
    assert.equal((await approvals.checkTool(b, tool('wipe'), noSettings)).approvedBy, 'server');
    assert.deepEqual(await approvals.checkTool(a, tool('wipe'), noSettings), {});
    await approvals.revoke(approvals.all().find(r => r.kind === 'server')!);
    assert.equal((await approvals.checkTool(b, tool('greet'), settings)).approvedBy, 'server', 'the settings apply to the program the user approved');
    assert.deepEqual(await approvals.checkTool(a, tool('greet'), settings), { programChanged: true });
  });

  it('the names the settings allow are bound to the program declared when the settings are read, before any call', async () => {
    const approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    const settings = { autoApprove: ['other/ns/tool', 'evil/greet'], trustedServers: [] };
    const a = userTarget(first);
    await approvals.prune((server, scope) => server === 'evil' && scope === 'user' ? { scope, program: a.program! } : undefined, 'file:///home/user/project', settings);
    // No tool of the first program ever ran; then another program takes the name.
    const tool = await run(later);
    assert.deepEqual(await approvals.checkTool(userTarget(later), tool('greet'), settings), { programChanged: true });
  });

  it('a stray "url" next to "type": "stdio" does not stand for the program that runs (atk-consent)', async () => {
    // parse.ts runs the command of a `"type": "stdio"` declaration and only warns that its `url` is
    // ignored; the identity must hash what runs, not a field the host ignores.
    const approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    const decoy = { type: 'stdio', url: 'https://mcp.example.com/mcp' };
    const approved = { ...first, ...decoy };
    let tool = await run(approved);
    const a = userTarget(approved);
    await approvals.grantTool(a, tool('wipe'), 'server');
    const swapped = { ...later, ...decoy };
    tool = await run(swapped);
    const b = userTarget(swapped);
    assert.deepEqual(await approvals.checkTool(b, tool('wipe'), noSettings), {}, '"every tool of evil" carried over to another program that kept the approved one\'s url');
  });

  it('a removed declaration takes its approvals along; a folder-bound user approval of another window stays for it', async () => {
    const store = new MemoryStorage();
    const approvals = new ToolApprovals({ user: store, workspace: new MemoryStorage() });
    const tool = await run(first);
    const here = userTarget(first);
    // A user server whose program is the open folder's own file: another folder runs other code.
    const folderBound = { command: 'node', args: ['${workspaceFolder}/server.js'] };
    const inA = programIdentity(folderBound, { scope: 'user', workspace: 'file:///a' })!;
    const inB = programIdentity(folderBound, { scope: 'user', workspace: 'file:///b' })!;
    assert.notEqual(inA.id, inB.id);
    assert.equal(inA.workspace, 'file:///a');
    await approvals.grantTool(here, tool('wipe'), 'server');
    await approvals.grantTool({ server: 'local', scope: 'user', program: inA.id, workspace: inA.workspace }, tool('wipe'), 'server');
    assert.deepEqual(await approvals.checkTool({ server: 'local', scope: 'user', program: inB.id, workspace: inB.workspace }, tool('wipe'), noSettings), {}, 'opened in folder b: asks');

    // The window of folder b prunes: "local" still declared, its record belongs to folder a's window.
    const both = (server: string, scope: ServerScope): DeclaredProgram | undefined =>
      scope !== 'user' ? undefined : server === 'evil' ? { scope, program: here.program! } : server === 'local' ? { scope, program: inB.id } : undefined;
    await approvals.prune(both, 'file:///b');
    assert.deepEqual(approvals.all().map(r => r.server), ['evil', 'local']);
    // The user removes both declarations.
    await approvals.prune(() => undefined, 'file:///b');
    assert.deepEqual(approvals.all(), []);
  });

  it('an approved tool that gains an app, becomes app-only or gets an output schema is asked again', async () => {
    const approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    const tool = await run(first);
    const user = userTarget(first);
    for (const change of [{ ui: 'app' }, { output: true }, { ui: 'app-only' }]) {
      await approvals.grantTool(user, tool('greet'), 'tool');
      assert.equal((await approvals.checkTool(user, tool('greet'), noSettings)).approvedBy, 'tool');
      const before = JSON.stringify(tool('greet'));
      await host.require('evil').callTool('rewrite-greet', change);
      await waitFor(() => JSON.stringify(tool('greet')) !== before, `greet changed by ${JSON.stringify(change)}`);
      assert.deepEqual(await approvals.checkTool(user, tool('greet'), noSettings), { changed: true }, JSON.stringify(change));
    }
    assert.deepEqual((tool('greet')._meta as { ui?: unknown } | undefined)?.ui, { resourceUri: 'ui://evil/greet.html', visibility: ['app'] });
    assert.ok(tool('greet').outputSchema, 'greet has an output schema now');
  });

  it('an app\'s call is asked apart from a model\'s: neither approval counts for the other', async () => {
    const approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    const tool = await run(first);
    const model = userTarget(first), app = userTarget(first, 'app');
    await approvals.grantTool(model, tool('wipe'), 'server');
    await approvals.grantTool(model, tool('greet'), 'tool');
    assert.deepEqual(await approvals.checkTool(app, tool('wipe'), noSettings), {}, 'the app asks although models may run every tool');
    assert.deepEqual(await approvals.checkTool(app, tool('greet'), noSettings), {});
    await approvals.grantTool(app, tool('*'), 'tool');
    assert.equal((await approvals.checkTool(app, tool('*'), noSettings)).approvedBy, 'tool');
    await approvals.revoke(approvals.all().find(r => r.kind === 'server')!);
    assert.deepEqual(await approvals.checkTool(model, tool('*'), noSettings), {}, 'the app\'s approval does not count for models');
    // The user's own settings name the tool for both callers.
    assert.equal((await approvals.checkTool(app, tool('greet'), { autoApprove: ['evil/greet'], trustedServers: [] })).approvedBy, 'tool');
  });
});

describe('program identity of a declaration', () => {
  const id = (d: unknown, scope: ServerScope = 'user', workspace = 'file:///w') => programIdentity(d, { scope, workspace })!.id;
  const local = { command: '/usr/bin/node', args: ['/opt/server.js', '--token', 'ghp_secretvalue123'], env: { A: '1' }, cwd: '/opt' };
  const remote = { type: 'http', url: 'https://mcp.example.com/mcp?key=sk-secret', headers: { Authorization: 'Bearer one' } };

  it('changes with what runs (command, args, cwd, env, envFile, URL, headers, auth), scope and workspace; not with timeouts, roots or sandbox', () => {
    for (const other of [{ ...local, command: '/usr/bin/python3' }, { ...local, args: ['/opt/evil.js'] }, { ...local, cwd: '/tmp' },
      { ...local, env: { NODE_OPTIONS: '--require /tmp/x.js' } }, { ...local, envFile: '/tmp/.env' }]) assert.notEqual(id(other), id(local), JSON.stringify(other));
    assert.notEqual(id({ ...remote, url: 'https://mcp.example.com/other' }), id(remote));
    for (const same of [{ ...local, timeout: 5, roots: ['/x'], sandbox: true, disabled: true, dev: { watch: '**' } }, { ...local, env: { A: '1' }, args: [...local.args] }]) assert.equal(id(same), id(local));
    assert.equal(id({ ...remote, type: 'sse' }), id(remote), 'the transport flavour is not the program');
    assert.equal(id({ ...remote, timeout: 9, roots: ['/x'] }), id(remote));
    assert.notEqual(id(local, 'workspace'), id(local, 'user'));
    assert.notEqual(id(local, 'workspace', 'file:///a'), id(local, 'workspace', 'file:///b'));
    assert.equal(id(local, 'user', 'file:///a'), id(local, 'user', 'file:///b'), 'a user server with absolute paths is the same program in every workspace');
    assert.notEqual(id({ ...local, cwd: 'tools' }, 'user', 'file:///a'), id({ ...local, cwd: 'tools' }, 'user', 'file:///b'), 'a relative cwd runs the folder\'s files');
    assert.equal(programIdentity('not a declaration', { scope: 'user' }), undefined);
  });

  it('ATTACKER: a user server without an absolute cwd runs in the launch folder: its approval is bound to the workspace and to that folder (a cloned repository\'s node_modules/.bin, a trust grant)', () => {
    // `npx -y server-github` resolves the launch folder's node_modules/.bin first: a cloned repository ships its own.
    const npx = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] };
    const at = (workspace: string, launchBase: string, d: unknown = npx) => programIdentity(d, { scope: 'user', workspace }, { launchBase })!;
    assert.notEqual(at('file:///work/mine', '/work/mine').id, at('file:///tmp/cloned', '/tmp/cloned').id, 'an approval given in my project carries to the cloned one');
    assert.equal(at('file:///tmp/cloned', '/tmp/cloned').workspace, 'file:///tmp/cloned', 'bound to the workspace, so other windows\' approvals are kept, not pruned');
    // Restricted Mode runs it in the home folder; trusting the window moves it into the repository.
    assert.notEqual(at('file:///tmp/cloned', '/home/user').id, at('file:///tmp/cloned', '/tmp/cloned').id, 'an approval given in Restricted Mode carries to the trusted window');
    assert.notEqual(at('file:///w', '/w', { ...npx, cwd: 'tools' }).id, at('file:///w', '/elsewhere', { ...npx, cwd: 'tools' }).id, 'a relative cwd starts at the launch folder');
    assert.equal(at('file:///a', '/a', { ...npx, cwd: '/opt/srv' }).id, at('file:///b', '/b', { ...npx, cwd: '/opt/srv' }).id, 'an absolute cwd is the same program everywhere');
    assert.equal(at('file:///a', '/a', { ...npx, cwd: '/opt/srv' }).workspace, undefined);
    const remoteAt = (launchBase: string) => programIdentity(remote, { scope: 'user', workspace: 'file:///w' }, { launchBase })!;
    assert.equal(remoteAt('/a').id, remoteAt('/b').id, 'a remote server runs nowhere here');
  });

  it('ATTACKER: on Windows a cwd rooted on the current drive (\\tools, ${/}tools) is the launch folder\'s drive: bound to the launch folder; a drive letter or a share is fixed', () => {
    const win = (cwd: string) => isFixedFolder(cwd, 'win32');
    for (const cwd of ['\\tools', '/tools', '${/}tools', '${pathSeparator}tools', 'tools', '.', '', '${env:TOOLS}']) assert.equal(win(cwd), false, cwd);
    for (const cwd of ['C:\\tools', 'd:/tools', '\\\\server\\share', '//server/share', '${userHome}\\tools', '${workspaceFolder:api}\\x']) assert.equal(win(cwd), true, cwd);
    assert.equal(runsInLaunchBase({ command: 'npx', args: ['-y', 'pkg'], cwd: '\\tools' }, 'win32'), true);
    // The same text on Linux and macOS: `/tools` and `${/}tools` are absolute; `\tools` is a relative name.
    for (const [cwd, fixed] of [['/tools', true], ['${/}tools', true], ['\\tools', false], ['tools', false]] as const) assert.equal(isFixedFolder(cwd, 'linux'), fixed, cwd);
  });

  it('ATTACKER: a user server whose cwd is an ${env:…} or ${input:…} value (relative, or empty) runs in the launch folder too: its approval does not carry to another folder', () => {
    // resolve.ts resolves the value against the launch folder: MCP_TOOLS=tools runs <repository>/tools, an empty value the repository itself.
    const npx = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] };
    const at = (workspace: string, launchBase: string, cwd: string) => programIdentity({ ...npx, cwd }, { scope: 'user', workspace }, { launchBase })!;
    for (const cwd of ['${env:MCP_TOOLS}', '${env:MCP_TOOLS}/bin', '${input:folder}', '${workspaceFolderBasename}']) {
      assert.notEqual(at('file:///work/mine', '/work/mine', cwd).id, at('file:///tmp/cloned', '/tmp/cloned', cwd).id, `${cwd}: an approval given in my project carries to the cloned one`);
      assert.notEqual(at('file:///tmp/cloned', '/home/user', cwd).id, at('file:///tmp/cloned', '/tmp/cloned', cwd).id, `${cwd}: an approval given in Restricted Mode carries to the trusted window`);
    }
    for (const cwd of ['${userHome}/srv', '${workspaceFolder}', '${workspaceFolder:app}/srv', '${/}opt${/}srv', '${pathSeparator}opt']) {
      assert.equal(at('file:///w', '/home/user', cwd).id, at('file:///w', '/w', cwd).id, `${cwd} is an absolute path: the launch folder is not part of it`);
    }
  });

  it('ATTACKER: a ${workspaceFolder…} variable names a folder that can move (reordered, renamed, replaced in a .code-workspace): its approval follows the folder, not the text', () => {
    const at = (d: unknown, workspaceFolders: { name: string; path: string }[]) => programIdentity(d, { scope: 'workspace', workspace: 'file:///w.code-workspace' }, { workspaceFolders })!.id;
    const mine = { name: 'app', path: '/work/app' }, cloned = { name: 'tools', path: '/tmp/cloned' };
    const first = { command: 'node', args: ['${workspaceFolder}/server.js'], cwd: '/opt' };
    assert.notEqual(at(first, [mine, cloned]), at(first, [cloned, mine]), 'another first folder runs another server.js');
    const named = { command: 'node', args: ['${workspaceFolder:app}/server.js'], cwd: '/opt' };
    assert.equal(at(named, [mine, cloned]), at(named, [cloned, mine]), 'the folder named app did not move');
    assert.notEqual(at(named, [mine]), at(named, [{ name: 'app', path: '/tmp/cloned' }]), 'another folder under the name app');
    assert.notEqual(at(named, [mine]), at(named, []), 'the folder named app is gone');
    const basename = { type: 'http', url: 'https://mcp.example.com/${workspaceFolderBasename}' };
    assert.notEqual(at(basename, [mine]), at(basename, [cloned]), 'a remote server\'s URL names the folder too');
    assert.equal(at(local, [mine]), at(local, [cloned]), 'a declaration that names no folder is the same program');
    assert.equal(at(local, [mine]), programIdentity(local, { scope: 'workspace', workspace: 'file:///w.code-workspace' })!.id, 'nor does reading the folders change its identity');
  });

  it('changes with what the env file holds, when the caller read it; a declaration without one has no such input', () => {
    const withFile = { ...local, envFile: '.env' };
    const read = (text: string) => programIdentity(withFile, { scope: 'workspace', workspace: 'file:///w' }, { envFileText: text })!.id;
    assert.notEqual(read('text: A=1\n'), read('text: A=1\nNODE_OPTIONS=--require ./evil.js\n'));
    assert.notEqual(read('text: A=1\n'), read('unreadable: ENOENT'));
    assert.equal(read('text: A=1\n'), read('text: A=1\n'));
    assert.equal(programIdentity(local, { scope: 'user' }, { envFileText: 'text: x' })!.id, id(local), 'no envFile declared: nothing read counts');
    assert.equal(programIdentity({ ...local, envFile: '/abs/.env' }, { scope: 'user' }, { envFileText: 'text: ${workspaceFolder}' })!.workspace, undefined, 'the file\'s text binds no workspace');
  });

  it('ATTACKER: a header value or auth changed under a kept name and URL is another program (another account or tenant behind the same server)', () => {
    for (const other of [{ ...remote, headers: { Authorization: 'Bearer two' } }, { ...remote, headers: { ...remote.headers, 'X-Tenant': 'victim' } },
      { ...remote, headers: {} }, { ...remote, auth: { grant: 'client_credentials', clientId: 'other', clientSecret: '${input:s}' } }]) {
      assert.notEqual(id(other), id(remote), JSON.stringify(other));
    }
  });

  it('ATTACKER: approvals bound to a program whose env file or headers hold secrets store none of them (the stored bytes are grepped)', async () => {
    const user = new MemoryStorage(), workspace = new MemoryStorage();
    const approvals = new ToolApprovals({ user, workspace });
    const headerSecret = 'header-secret-value-8d1f3a', fileSecret = 'env-file-secret-value-77c2e9';
    const targets: ApprovalTarget[] = [
      { server: 'remote', scope: 'user', program: programIdentity({ ...remote, headers: { Authorization: `Bearer ${headerSecret}` } }, { scope: 'user' })!.id },
      { server: 'local', scope: 'workspace', workspace: 'file:///w', program: programIdentity({ ...local, envFile: '.env' }, { scope: 'workspace', workspace: 'file:///w' }, { envFileText: `text: TOKEN=${fileSecret}\n` })!.id },
    ];
    for (const t of targets) await approvals.grantTool(t, { name: 'wipe', inputSchema: { type: 'object' } }, 'server');
    // Every byte either store holds (MemoryStorage keeps what a Memento would serialise).
    const stored = [user, workspace].flatMap(m => [...(m as unknown as { values: Map<string, string> }).values]).join('\n');
    assert.match(stored, /"wipe"|"server"/, 'the records are in what is grepped');
    assert.equal(approvals.all().length, 2, 'both are stored');
    for (const secret of [headerSecret, fileSecret, 'Bearer', 'TOKEN=']) assert.ok(!stored.includes(secret), `stored: ${secret}`);
  });

  it('holds no secret in plain form', () => {
    for (const d of [local, remote]) {
      const shown = JSON.stringify(programIdentity(d, { scope: 'workspace', workspace: 'file:///w' }));
      assert.doesNotMatch(shown, /secret|ghp_|Bearer/);
      assert.match(programIdentity(d, { scope: 'user' })!.id, /^[0-9a-f]{64}$/);
    }
  });
});

describe('pruning approvals while identities are read (the env file is read asynchronously)', () => {
  const wipe: Tool = { name: 'wipe', inputSchema: { type: 'object' } };
  const target = (program: string): ApprovalTarget => ({ server: 'evil', scope: 'user', program });

  it('an approval granted while a prune looks names up is kept; one the lookup judged stale is deleted', async () => {
    const approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    await approvals.grantTool(target('old'), wipe, 'server');
    let release!: () => void;
    const slow = new Promise<void>(r => { release = r; });
    // The lookup reads the declaration (now `new`), then waits for its env file.
    const pruned = approvals.prune(async (server, scope) => { await slow; return server === 'evil' ? { scope, program: 'new' } : undefined; }, 'file:///w');
    await new Promise(r => setImmediate(r));
    // Meanwhile the user approves the program declared now (a lookup that did not see it must not delete it).
    await approvals.grantTool(target('newer'), wipe, 'server');
    release();
    await pruned;
    assert.deepEqual(approvals.all().map(a => a.program), ['newer'], 'the old program\'s record went, the one granted during the lookup stayed');
  });

  it('two prunes in flight run in the order they were asked for: a slow lookup cannot be overtaken by a later one', async () => {
    const approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    const settings = { autoApprove: ['evil/*'], trustedServers: [] };
    const order: string[] = [];
    // The settings were read while `a` was declared (slow env file), then the declaration became `b`.
    const first = approvals.prune(async (_s, scope) => { await new Promise(r => setTimeout(r, 50)); order.push('a'); return { scope, program: 'a' }; }, 'file:///w', settings);
    const second = approvals.prune(async (_s, scope) => { order.push('b'); return { scope, program: 'b' }; }, 'file:///w', settings);
    await Promise.all([first, second]);
    assert.deepEqual(order, ['a', 'b'], 'the second lookup waited for the first prune');
    assert.equal((await approvals.checkTool(target('a'), wipe, settings)).approvedBy, 'server', '"evil/*" stays bound to the program declared when it was first read');
    assert.deepEqual(await approvals.checkTool(target('b'), wipe, settings), { programChanged: true }, 'the program that came later under the name asks');
  });
});

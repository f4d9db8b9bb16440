/** Dev mode in the core: `dev` parsing, the inspector flag, the inspector port a server announces, watch globs. */
import * as assert from 'node:assert/strict';
import { inspectorPort, parseServers, watchTarget, withInspector, INSPECT_FLAG } from '../../src/core';
import { createTestHost, fixtureServer, node, text } from './helpers';

/** The embedder attaches debuggers (VS Code does): without the port dev.debug is ignored (see devDebugpy.test.ts). */
const ATTACHES = { debuggers: () => true as const };

/** What the Node inspector at `port` debugs (its /json/list endpoint). */
async function inspectedScript(port: number): Promise<string> {
  const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json() as { url: string }[];
  return list.map(t => t.url).join(' ');
}

describe('dev mode (core)', function () {
  this.timeout(20_000);

  it('parses "dev" of a stdio declaration and names bad fields', () => {
    const ok = parseServers({ s: { command: 'node', args: ['x.js'], dev: { watch: 'dist/**/*.js', debug: { type: 'node' } } } });
    assert.deepEqual(ok.problems, []);
    assert.deepEqual((ok.servers[0] as { dev?: unknown }).dev, { watch: 'dist/**/*.js', debug: { type: 'node' } });
    const bad = parseServers({ s: { command: 'node', dev: { watch: 3, debug: { type: 'ruby' }, reload: true } } });
    assert.deepEqual(bad.problems.map(p => p.field).sort(), ['dev.debug', 'dev.reload', 'dev.watch']);
    assert.equal(parseServers({ s: { command: 'node', dev: 'yes' } }).problems[0].field, 'dev');
  });

  it('puts --inspect before the script of `node x.js`, and into NODE_OPTIONS of this child only otherwise', () => {
    const base = { type: 'stdio' as const, args: ['x.js'], env: { PATH: '/bin' }, cwd: undefined };
    const direct = withInspector({ ...base, command: '/usr/bin/node' });
    assert.deepEqual(direct.launch.args, [INSPECT_FLAG, 'x.js']);
    assert.equal(direct.launch.env.NODE_OPTIONS, undefined);
    assert.equal(direct.pick, 'first');
    const npx = withInspector({ ...base, command: 'npx', args: ['-y', 'pkg'], env: { NODE_OPTIONS: '--max-old-space-size=100' } });
    assert.deepEqual(npx.launch.args, ['-y', 'pkg'], 'npx itself gets no flag it would misread');
    assert.equal(npx.launch.env.NODE_OPTIONS, `--max-old-space-size=100 ${INSPECT_FLAG}`);
    assert.equal(npx.pick, 'last');
  });

  it('takes an inspector port only from a loopback announcement (stderr is the server\'s to forge)', () => {
    assert.equal(inspectorPort('Debugger listening on ws://127.0.0.1:40123/5e0c4d6e-aaaa'), 40123);
    assert.equal(inspectorPort('Debugger listening on ws://localhost:40124/x'), 40124);
    assert.equal(inspectorPort('Debugger listening on ws://203.0.113.5:9229/x'), undefined);
    assert.equal(inspectorPort('Debugger listening on ws://127.0.0.1.evil.example:9229/x'), undefined);
    assert.equal(inspectorPort('log: Debugger listening on ws://127.0.0.1:9229/x'), undefined);
  });

  it('a hostile server cannot point the debugger elsewhere: forged announcements before and after start are ignored', async () => {
    const { host } = createTestHost(ATTACHES);
    try {
      await host.apply({ d: { ...node(fixtureServer('debuggee')), env: { FIXTURE_FORGE_REMOTE: '1', FIXTURE_FORGE_PORT: '9' }, dev: { debug: { type: 'node' } } } });
      const d = host.require('d');
      assert.equal(d.state, 'running', d.message);
      const port = d.inspectorPort;
      assert.ok(port && port !== 9229 && port !== 9, `the real port, not a forged one (${port})`);
      assert.match(await inspectedScript(port), /debuggee\.js/);
      assert.equal(text(await d.callTool('forge', { port: 9 })), 'forged');
      assert.equal(d.inspectorPort, port, 'a line written while running changes nothing');
    } finally { await host.shutdown(); }
  });

  it('finds the server\'s inspector behind a launcher (NODE_OPTIONS): the last announced before initialize', async () => {
    const { host } = createTestHost(ATTACHES);
    try {
      // Like npx: one Node process runs first (and announces), then the server itself.
      const script = `"${process.execPath}" -e "" && exec "${process.execPath}" "${fixtureServer('debuggee')}"`;
      await host.apply({ d: { command: '/bin/sh', args: ['-c', script], dev: { debug: { type: 'node' } } } });
      const d = host.require('d');
      assert.equal(d.state, 'running', d.message);
      assert.ok(d.inspectorPort);
      assert.match(await inspectedScript(d.inspectorPort), /debuggee\.js/);
      const pid = text(await d.callTool('pid'));
      await d.restart();
      assert.notEqual(text(await d.callTool('pid')), pid);
      assert.ok(d.inspectorPort, 'a restart announces a new inspector');
      await d.stop();
      assert.equal(d.inspectorPort, undefined);
    } finally { await host.shutdown(); }
  });

  it('without dev.debug no inspector is started or read', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ d: { ...node(fixtureServer('debuggee')), env: { FIXTURE_FORGE_PORT: '9' } } });
      assert.equal(host.require('d').inspectorPort, undefined);
    } finally { await host.shutdown(); }
  });

  it('watches workspace files only in a trusted workspace', () => {
    const ctx = { workspaceFolders: [{ path: '/w' }], trusted: true, userHome: '/home/u' };
    assert.deepEqual(watchTarget('dist/**/*.js', ctx), { kind: 'watch', base: '/w', pattern: 'dist/**/*.js' });
    assert.deepEqual(watchTarget('${workspaceFolder}/src/*.ts', ctx), { kind: 'watch', base: '/w', pattern: 'src/*.ts' });
    assert.deepEqual(watchTarget('~/srv/dist/**', ctx), { kind: 'watch', base: '/home/u/srv/dist', pattern: '**' });
    assert.deepEqual(watchTarget('/opt/srv/index.js', ctx), { kind: 'watch', base: '/opt/srv', pattern: 'index.js' });
    const untrusted = { ...ctx, trusted: false };
    assert.deepEqual(watchTarget('dist/**/*.js', untrusted), { kind: 'needsTrust' });
    assert.deepEqual(watchTarget('/w/dist/**', untrusted), { kind: 'needsTrust' });
    assert.deepEqual(watchTarget('/opt/srv/**', untrusted), { kind: 'watch', base: '/opt/srv', pattern: '**' });
    assert.equal(watchTarget('dist/*', { ...ctx, workspaceFolders: [] }).kind, 'invalid');
    assert.equal(watchTarget('${env:HOME}/x', ctx).kind, 'invalid');
  });
});

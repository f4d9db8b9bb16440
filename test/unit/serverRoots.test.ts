/**
 * Roots per server (`roots` in a declaration) against server-everything's get-roots-list: what a
 * server is offered, what another server is not, changes without a restart, and what an untrusted
 * workspace may not add.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseServers, type McpHost } from '../../src/core';
import { createTestHost, everythingBin, node, repoRoot, text, waitFor, waitForState, type TestHost } from './helpers';

const uri = (dir: string) => pathToFileURL(dir).href;
const rootsOf = async (host: McpHost, name: string) => text(await host.require(name).callTool('get-roots-list', {}));

describe('roots per server', function () {
  this.timeout(30_000);
  let t: TestHost | undefined;
  afterEach(async () => { await t?.host.dispose(); t = undefined; });

  it('offers a declaration\'s roots to that server only, after the shared roots', async () => {
    t = createTestHost();
    const own = mkdtempSync(path.join(os.tmpdir(), 'own-root-'));
    await t.host.apply({ mine: { ...node(everythingBin), roots: [own] }, other: node(everythingBin) });
    await waitForState(t.host.require('mine'), 'running');
    await waitForState(t.host.require('other'), 'running');
    const mine = await waitFor(async () => { const s = await rootsOf(t!.host, 'mine'); return s.includes(uri(own)) && s; }, 'mine lists its own root');
    assert.match(mine, /2 total/);
    assert.ok(mine.indexOf(uri(repoRoot)) < mine.indexOf(uri(own)), 'the shared root comes first');
    const other = await waitFor(async () => { const s = await rootsOf(t!.host, 'other'); return s.includes(uri(repoRoot)) && s; }, 'other lists the shared root');
    assert.ok(!other.includes(own), `another server's root leaked: ${other}`);
  });

  it('announces a changed list with roots/list_changed, without restarting the server', async () => {
    t = createTestHost();
    const a = mkdtempSync(path.join(os.tmpdir(), 'root-a-'));
    const b = mkdtempSync(path.join(os.tmpdir(), 'root-b-'));
    await t.host.apply({ mine: { ...node(everythingBin), roots: [a] } });
    const conn = t.host.require('mine');
    await waitForState(conn, 'running');
    await waitFor(async () => (await rootsOf(t!.host, 'mine')).includes(uri(a)), 'first root');
    const pid = conn.pid;
    const result = await t.host.apply({ mine: { ...node(everythingBin), roots: [b] } });
    assert.deepEqual(result.restarted, []);
    await waitFor(async () => { const s = await rootsOf(t!.host, 'mine'); return s.includes(uri(b)) && !s.includes(uri(a)); }, 'the server asked again and got the new root');
    assert.equal(conn.pid, pid, 'same process');
    await t.host.apply({ mine: node(everythingBin) });
    await waitFor(async () => !(await rootsOf(t!.host, 'mine')).includes(uri(b)), 'root removed');
  });

  it('untrusted: roots naming the workspace or relative to it are not sent until trust is granted', async () => {
    // The attacker is the workspace: its folder must not become a root of a user server before trust.
    const ws = mkdtempSync(path.join(os.tmpdir(), 'untrusted-ws-'));
    mkdirSync(path.join(ws, 'src'));
    mkdirSync(path.join(ws, 'docs'));
    const outside = mkdtempSync(path.join(os.tmpdir(), 'outside-root-'));
    let trusted = false;
    t = createTestHost({ variables: { workspaceFolders: [{ name: 'ws', path: ws }], get trusted() { return trusted; }, userHome: os.homedir(), env: process.env } });
    const decl = { ...node(everythingBin), roots: ['${workspaceFolder}/src', 'docs', outside] };
    await t.host.apply({ mine: decl });
    const conn = t.host.require('mine');
    await waitForState(conn, 'running');
    const before = await waitFor(async () => { const s = await rootsOf(t!.host, 'mine'); return s.includes(uri(outside)) && s; }, 'the absolute root');
    assert.ok(!before.includes(ws), `a workspace path was offered before trust: ${before}`);
    const log = t.loggers.get('mine')!.text();
    assert.match(log, /roots\[0\] "\$\{workspaceFolder\}\/src" names the workspace folder, which is not trusted/);
    assert.match(log, /roots\[1\] "docs" is a relative path, and the workspace is not trusted/);

    trusted = true;
    await t.host.apply({ mine: decl });
    await waitFor(async () => { const s = await rootsOf(t!.host, 'mine'); return s.includes(uri(path.join(ws, 'src'))) && s.includes(uri(path.join(ws, 'docs'))); }, 'workspace roots after trust');
  });

  it('leaves out a root that is not an existing folder, and names it in the server\'s log', async () => {
    t = createTestHost();
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'root-file-')), 'missing');
    await t.host.apply({ mine: { ...node(everythingBin), roots: [file, '${env:MCP_HOST_NO_SUCH_VARIABLE}'] } });
    await waitForState(t.host.require('mine'), 'running');
    await waitFor(async () => (await rootsOf(t!.host, 'mine')).includes(uri(repoRoot)), 'shared root');
    assert.ok(!(await rootsOf(t.host, 'mine')).includes(file));
    const log = await waitFor(() => { const l = t!.loggers.get('mine')!.text(); return l.includes('MCP_HOST_NO_SUCH_VARIABLE') && l; }, 'problems logged');
    assert.match(log, /roots\[0\] ".*missing" is not an existing folder/);
    assert.match(log, /roots\[1\]: \$\{env:MCP_HOST_NO_SUCH_VARIABLE\}: environment variable MCP_HOST_NO_SUCH_VARIABLE is not set/);
  });

  it('refuses ${input:…} in roots and anything but a list of paths', () => {
    // An input is asked for as a secret; a root is shown to the server as it is.
    const { servers, problems } = parseServers({
      a: { command: 'x', roots: ['${input:token}'] },
      b: { url: 'https://example.com/mcp', roots: 'docs' },
      c: { command: 'x', roots: [42, ''] },
      d: { url: 'https://example.com/mcp', roots: ['${userHome}/notes', 'docs'] },
    });
    assert.deepEqual(servers.map(s => s.name), ['d']);
    assert.deepEqual(servers[0].roots, ['${userHome}/notes', 'docs']);
    assert.deepEqual(problems.map(p => [p.server, p.field, p.severity]), [
      ['a', 'roots[0]', 'error'], ['b', 'roots', 'error'], ['c', 'roots[0]', 'error'], ['c', 'roots[1]', 'error'],
    ]);
    assert.match(problems[0].message, /\$\{input:…\} is not allowed in roots/);
  });
});

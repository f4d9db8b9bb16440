/**
 * HTTP servers on a local socket (`unix:///path.sock#/mcp`, VS Code's mcp.json form): real fixture
 * servers listening on a unix socket, the host's own transport, and the checks a hostile declaration
 * meets (relative, `..`, NUL, a host, a file that is not a socket, a link) and the policy's socket rules.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mergePolicies, parseServers } from '../../src/core';
import { socketEndpoint } from '../../src/core/config/socketUrl';
import { urlTarget } from '../../src/core/config/inputBindings';
import { declarationFacts } from '../../src/core/policy';
import { createTestHost, fixtureServer, text, waitFor } from './helpers';

interface Received { method: string; url: string; headers: Record<string, string> }

describe('http over a unix socket', function () {
  this.timeout(30_000);
  const children: ChildProcess[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-sock-'));
  after(() => { for (const c of children) c.kill(); fs.rmSync(dir, { recursive: true, force: true }); });

  /** A fixture on a fresh socket; `received` collects what the recording fixture reports. */
  async function onSocket(name: string): Promise<{ url: string; sock: string; received: Received[] }> {
    const sock = path.join(dir, `${name}-${children.length}.sock`);
    const child = spawn(process.execPath, [fixtureServer(name), '--socket', sock], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const received: Received[] = [];
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
      let nl: number;
      while ((nl = err.indexOf('\n')) >= 0) {
        const line = err.slice(0, nl); err = err.slice(nl + 1);
        if (line.startsWith('RECEIVED ')) received.push(JSON.parse(line.slice(9)) as Received);
      }
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => { out += d; if (out.includes('LISTENING')) resolve(); });
      child.once('exit', c => reject(new Error(`${name} exited with ${c} before listening`)));
    });
    return { url: `unix://${sock}#/mcp`, sock, received };
  }

  it('lists and calls tools over the socket, with the declared headers, the GET stream and DELETE on stop', async () => {
    const { url, received } = await onSocket('recording');
    const { host, loggers } = createTestHost();
    try {
      await host.apply({ s: { url, headers: { Authorization: 'Bearer socket-token' } } });
      const s = host.require('s');
      assert.equal(s.state, 'running', s.message);
      assert.equal(s.transportKind, 'http');
      assert.deepEqual(host.tools.filter(t => t.server === 's').map(t => t.item.name), ['echo']);
      assert.equal(text(await s.callTool('echo', { text: 'over the socket' })), 'over the socket');
      await waitFor(() => received.some(r => r.method === 'GET'), 'the GET stream');
      await s.stop();
      await waitFor(() => received.some(r => r.method === 'DELETE'), 'DELETE on stop');
      assert.ok(received.every(r => r.url === '/mcp'), JSON.stringify(received.map(r => r.url)));
      assert.ok(received.every(r => r.headers.authorization === 'Bearer socket-token'), 'every request carries the header');
      assert.ok(received.every(r => r.headers.host === 'localhost'));
      assert.match(loggers.get('s')!.text(), /Starting \(http: unix:\/\/\/.*recording-\d+\.sock \(socket\)\)/);
    } finally { await host.shutdown(); }
  });

  it('receives a server notification on the GET stream (tools/list_changed)', async () => {
    const { url } = await onSocket('changing');
    const { host } = createTestHost();
    try {
      await host.apply({ c: { url } });
      const c = host.require('c');
      assert.equal(c.state, 'running', c.message);
      await c.callTool('add-tool', { name: 'late' });
      await waitFor(() => host.tools.some(t => t.server === 'c' && t.item.name === 'late'), 'the added tool');
      assert.equal(text(await c.callTool('late', {})), 'dynamic tool late');
    } finally { await host.shutdown(); }
  });

  it('refuses a relative, "..", NUL, host or query socket URL with a sentence saying what to write', () => {
    const bad: Record<string, RegExp> = {
      rel: /must be absolute/,
      dots: /"\." or "\.\." segments/,
      dotsEncoded: /"\." or "\.\." segments/,
      nul: /NUL/,
      host: /has a host/,
      relHost: /has a host \("tmp"\).*absolute path after three slashes/,
      query: /has a query/,
      pipe: process.platform === 'win32' ? /./ : /only on Windows/,
    };
    const { problems } = parseServers({
      rel: { url: 'unix:./x.sock#/mcp' },
      relHost: { url: 'unix://tmp/x.sock#/mcp' },
      dots: { url: 'unix:///tmp/a/../../etc/x.sock#/mcp' },
      dotsEncoded: { url: 'unix:///tmp/%2e%2e/x.sock#/mcp' },
      nul: { url: 'unix:///tmp/x.sock%00.txt#/mcp' },
      host: { url: 'unix://evil.example/tmp/x.sock#/mcp' },
      query: { url: 'unix:///tmp/x.sock?a=1#/mcp' },
      pipe: { url: 'pipe:///mcp-server#/mcp' },
      ok: { url: 'unix:///tmp/x.sock#/mcp' },
      auth: { url: 'unix:///tmp/x.sock#/mcp', auth: { clientId: 'x' } },
    });
    for (const [name, re] of Object.entries(bad)) {
      if (name === 'pipe' && process.platform === 'win32') continue;
      const p = problems.find(q => q.server === name);
      assert.ok(p, `${name} is refused`);
      assert.match(p.message, re, name);
    }
    assert.equal(problems.find(p => p.server === 'ok'), undefined);
    assert.match(problems.find(p => p.server === 'auth')!.message, /not available for a server on a local socket/);
  });

  it('a ".." that only a variable brings is refused at start, not resolved away by URL parsing', async () => {
    const { sock } = await onSocket('recording');
    const { host } = createTestHost({ variables: { workspaceFolders: [], trusted: true, userHome: os.homedir(), env: { UP: '..' } } });
    try {
      // Reaches the real socket once "x/.." is resolved: the URL parser would do exactly that.
      await host.apply({ v: { url: `unix://${path.dirname(sock)}/x/\${env:UP}/${path.basename(sock)}#/mcp` } });
      const v = host.require('v');
      await waitFor(() => v.state === 'error', 'the start fails');
      assert.match(v.message ?? '', /"\." or "\.\." segments/);
    } finally { await host.shutdown(); }
  });

  it('starts only on a socket: a missing path, a plain file and a link to a socket each fail with a clear message', async () => {
    const { sock } = await onSocket('recording');
    const file = path.join(dir, 'plain.sock');
    fs.writeFileSync(file, '');
    const link = path.join(dir, 'link.sock');
    fs.symlinkSync(sock, link);
    const { host } = createTestHost();
    try {
      await host.apply({
        missing: { url: `unix://${dir}/nobody-here.sock#/mcp` },
        file: { url: `unix://${file}#/mcp` },
        link: { url: `unix://${link}#/mcp` },
      });
      for (const [name, re] of [['missing', /no socket at .*nobody-here\.sock: is the server running/], ['file', /plain\.sock is not a socket \(it is a file\)/], ['link', /link\.sock is not a socket \(it is a symbolic link/]] as const) {
        const c = host.require(name);
        await waitFor(() => c.state === 'error', `${name} fails`);
        assert.match(c.message ?? '', re, name);
      }
    } finally { await host.shutdown(); }
  });

  it('the policy sees the socket: a deny rule on its path refuses it, an https-only allow list does not admit it', async () => {
    const { url, sock, received } = await onSocket('recording');
    const facts = declarationFacts({ ...parseServers({ s: { url } }).servers[0] });
    assert.equal(facts.url, `unix://${sock}`);
    for (const values of [{ deny: [`url:unix://${path.dirname(sock)}/*`] }, { allow: ['url:https://*'] }, { allow: [`url:unix://${sock.toUpperCase()}`] }]) {
      const { host } = createTestHost({ policy: () => mergePolicies([{ label: 'policy file', values }]) });
      try {
        await host.apply({ s: { url } });
        const s = host.get('s');
        assert.ok(!s || s.state !== 'running', JSON.stringify(values));
      } finally { await host.shutdown(); }
    }
    assert.equal(received.length, 0, 'nothing reached the socket');
    const { host } = createTestHost({ policy: () => mergePolicies([{ label: 'policy file', values: { allow: [`url:unix://${path.dirname(sock)}/*.sock`] } }]) });
    try {
      await host.apply({ s: { url } });
      assert.equal(host.require('s').state, 'running', host.require('s').message);
    } finally { await host.shutdown(); }
  });

  it('attacker: a deny rule on a socket path is not dodged by another spelling of it (doubled slashes, a linked folder)', async () => {
    const { sock, received } = await onSocket('recording');
    const linkedDir = `${dir}-linked`;
    fs.symlinkSync(dir, linkedDir);
    try {
      const spellings = {
        doubled: { url: `unix://${path.dirname(sock)}//${path.basename(sock)}#/mcp` },
        leading: { url: `unix:////${sock.slice(1)}#/mcp` },
        linked: { url: `unix://${linkedDir}/${path.basename(sock)}#/mcp` },
      };
      const { host } = createTestHost({ policy: () => mergePolicies([{ label: 'policy file', values: { deny: [`url:unix://${sock}`] } }]) });
      try {
        await host.apply(spellings);
        for (const name of Object.keys(spellings)) {
          const s = host.get(name);
          assert.ok(!s || s.state !== 'running', `${name} must not run past the deny rule`);
        }
        assert.equal(received.length, 0, 'nothing reached the denied socket');
      } finally { await host.shutdown(); }
    } finally { fs.rmSync(linkedDir, { force: true }); }
  });

  it('untrusted workspace: a socket named through ${workspaceFolder} waits for trust, and nothing reaches it', async () => {
    const { sock, received } = await onSocket('recording');
    const { host } = createTestHost({ variables: { workspaceFolders: [{ name: 'w', path: path.dirname(sock) }], trusted: false, userHome: os.homedir(), env: {} } });
    try {
      await host.apply({ w: { url: `unix://\${workspaceFolder}/${path.basename(sock)}#/mcp` } });
      const w = host.require('w');
      await waitFor(() => w.needsTrust, 'waits for trust');
      assert.equal(received.length, 0);
    } finally { await host.shutdown(); }
  });

  it('an input given for one socket is bound to that socket, not to every socket (their URL origin is "null")', () => {
    assert.deepEqual(urlTarget('unix:///run/a.sock#/mcp'), { kind: 'origin', value: 'unix:///run/a.sock' });
    assert.notDeepEqual(urlTarget('unix:///run/a.sock#/mcp'), urlTarget('unix:///run/b.sock#/mcp'));
    assert.equal(socketEndpoint('pipe:///My-Server#/mcp', 'win32').socketPath, '\\\\.\\pipe\\My-Server');
    assert.equal(socketEndpoint('unix:///run/a.sock').requestPath, '/');
  });
});

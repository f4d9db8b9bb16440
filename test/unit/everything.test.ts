/**
 * The core against the reference servers: server-everything over stdio and over Streamable HTTP
 * on a loopback port, and server-filesystem (roots).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { McpHost, ServerConnection } from '../../src/core';
import { createTestHost, everythingBin, filesystemBin, node, repoRoot, text, waitFor, type TestHost } from './helpers';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const port = (s.address() as net.AddressInfo).port; s.close(() => resolve(port)); });
  });
}

/** Starts server-everything's Streamable HTTP transport on a free loopback port. */
export async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everythingBin, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d: Buffer) => { err += d; if (err.includes('listening on port')) resolve(); });
    child.once('exit', c => reject(new Error(`server-everything http exited ${c}: ${err}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

for (const transport of ['stdio', 'http'] as const) {
  describe(`server-everything over ${transport}`, function () {
    this.timeout(30_000);
    let t: TestHost;
    let host: McpHost;
    let ev: ServerConnection;
    let httpChild: ChildProcess | undefined;

    before(async () => {
      t = createTestHost();
      host = t.host;
      let decl: object;
      if (transport === 'http') {
        const s = await startEverythingHttp();
        httpChild = s.child;
        decl = { type: 'http', url: s.url };
      } else {
        decl = node(everythingBin);
      }
      const r = await host.apply({ everything: decl });
      assert.deepEqual(r.problems, []);
      ev = host.require('everything');
      assert.equal(ev.state, 'running', ev.message);
      // Resources past the first page are listed after the server counts as running.
      await Promise.all([ev.catalog.whenListed('resources'), ev.catalog.whenListed('resourceTemplates')]);
    });

    after(async () => {
      await host?.shutdown();
      httpChild?.kill();
    });

    it('negotiates 2025-11-25 and keeps serverInfo, capabilities and instructions', () => {
      assert.equal(ev.protocolVersion, '2025-11-25');
      assert.equal(ev.transportKind, transport);
      assert.ok(ev.serverInfo?.name, 'serverInfo');
      assert.ok(ev.capabilities?.tools && ev.capabilities.resources && ev.capabilities.prompts);
      assert.ok(typeof ev.instructions === 'string' && ev.instructions.length > 0, 'instructions');
    });

    it('lists every tool, resource, template and prompt', () => {
      const names = ev.catalog.get('tools').map(x => x.name);
      for (const n of ['echo', 'get-sum', 'get-structured-content', 'get-resource-links', 'trigger-long-running-operation', 'get-roots-list']) assert.ok(names.includes(n), n);
      assert.ok(ev.catalog.get('resources').some(r => r.uri.startsWith('demo://resource/static/document/')));
      assert.deepEqual(ev.catalog.get('resourceTemplates').map(r => r.uriTemplate).sort(), ['demo://resource/dynamic/blob/{resourceId}', 'demo://resource/dynamic/text/{resourceId}']);
      assert.ok(['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt'].every(p => ev.catalog.get('prompts').some(x => x.name === p)));
      assert.equal(host.tools.filter(o => o.server === 'everything').length, names.length);
    });

    it('calls echo, get-sum, get-structured-content (validated) and get-resource-links', async () => {
      assert.equal(text(await ev.callTool('echo', { message: 'hello' })), 'Echo: hello');
      assert.match(text(await ev.callTool('get-sum', { a: 2, b: 40 })), /42/);
      const structured = await ev.callTool('get-structured-content', { location: 'Chicago' });
      assert.equal(typeof (structured.structuredContent as { temperature: number }).temperature, 'number');
      const links = await ev.callTool('get-resource-links', { count: 3 });
      assert.equal(links.content.filter(c => c.type === 'resource_link').length, 3);
    });

    it('reads a static resource and a template resource', async () => {
      const stat = ev.catalog.get('resources').find(r => r.uri.startsWith('demo://resource/static/document/'))!;
      const r1 = await ev.readResource(stat.uri);
      assert.equal(r1.contents[0].uri, stat.uri);
      assert.ok('text' in r1.contents[0] && r1.contents[0].text.length > 0);
      const r2 = await ev.readResource('demo://resource/dynamic/text/7');
      assert.ok('text' in r2.contents[0] && /7/.test(r2.contents[0].text));
      const r3 = await ev.readResource('demo://resource/dynamic/blob/3');
      assert.ok('blob' in r3.contents[0]);
      await assert.rejects(ev.readResource('demo://resource/dynamic/text/notanumber'), /everything: resources\/read failed/);
    });

    it('gets args-prompt and completes completable-prompt using the earlier answer', async () => {
      const p = await ev.getPrompt('args-prompt', { city: 'Lisbon' });
      assert.match(JSON.stringify(p.messages), /Lisbon/);
      const dep = await ev.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'department', value: 'S' } });
      assert.deepEqual(dep.completion.values, ['Sales', 'Support']);
      const names = await ev.complete({ ref: { type: 'ref/prompt', name: 'completable-prompt' }, argument: { name: 'name', value: '' }, context: { arguments: { department: 'Engineering' } } });
      assert.deepEqual(names.completion.values, ['Alice', 'Bob', 'Charlie']);
    });

    it('reports progress of trigger-long-running-operation and cancels it midway', async () => {
      const seen: number[] = [];
      const done = await ev.callTool('trigger-long-running-operation', { duration: 0.6, steps: 3 }, { onprogress: p => seen.push(p.progress) });
      // The SDK dispatches notifications a tick after responses, so the final step may land after the result.
      assert.deepEqual(seen.slice(0, 2), [1, 2]);
      assert.match(text(done), /completed/);

      const ac = new AbortController();
      const progress: number[] = [];
      const started = Date.now();
      const call = ev.callTool('trigger-long-running-operation', { duration: 10, steps: 20 }, { signal: ac.signal, onprogress: p => { progress.push(p.progress); if (p.progress === 2) ac.abort(); } });
      await assert.rejects(call);
      assert.ok(Date.now() - started < 5000, 'cancelled well before the 10 s operation ends');
      assert.deepEqual(progress, [1, 2]);
      await ev.ping();
    });

    it('gives its roots to get-roots-list and sends roots/list_changed when they change', async () => {
      assert.match(text(await ev.callTool('get-roots-list', {})), new RegExp(`URI: file://${repoRoot}`));
      const other = mkdtempSync(path.join(os.tmpdir(), 'roots-'));
      t.roots.set(repoRoot, other);
      await waitFor(async () => text(await ev.callTool('get-roots-list', {})).includes(other), 'updated roots');
      assert.match(text(await ev.callTool('get-roots-list', {})), /2 total/);
    });
  });
}

describe('server-filesystem: roots', function () {
  this.timeout(30_000);
  it('sees our roots through list_allowed_directories and follows a change', async () => {
    const { host, roots } = createTestHost();
    try {
      const a = mkdtempSync(path.join(os.tmpdir(), 'fs-a-'));
      const b = mkdtempSync(path.join(os.tmpdir(), 'fs-b-'));
      roots.set(a);
      await host.apply({ fs: node(filesystemBin) });
      const fs = host.require('fs');
      const list = async () => text(await fs.callTool('list_allowed_directories', {}));
      await waitFor(async () => (await list()).includes(a), 'first root');
      roots.set(a, b);
      await waitFor(async () => (await list()).includes(b), 'second root after roots/list_changed');
    } finally {
      await host.shutdown();
    }
  });
});

describe('server-everything: tasks', function () {
  this.timeout(30_000);
  it('runs simulate-research-query as a task with status updates, and cancels a task with tasks/cancel', async () => {
    const { host } = createTestHost();
    try {
      await host.apply({ everything: node(everythingBin) });
      const ev = host.require('everything');
      // server-everything registers this tool after `initialized` and then sends list_changed.
      const tool = await waitFor(() => ev.tool('simulate-research-query'), 'conditional tool');
      assert.equal(tool.execution?.taskSupport, 'required');
      const statuses: string[] = [];
      const r = await ev.callTool('simulate-research-query', { topic: 'MCP' }, { onTaskStatus: t => statuses.push(`${t.status}:${t.statusMessage ?? ''}`) });
      assert.match(text(r), /Research Report: MCP/);
      assert.ok(statuses.some(s => s.startsWith('working:')), statuses.join());

      const ac = new AbortController();
      const seen: string[] = [];
      const p = ev.callTool('simulate-research-query', { topic: 'cancel me' }, { signal: ac.signal, onTaskStatus: t => { seen.push(t.status); if (seen.length === 1) ac.abort(); } });
      await assert.rejects(p, /cancelled/);
    } finally { await host.shutdown(); }
  });
});

/**
 * Issue 33: an HTTP server on a unix socket (`unix:///path.sock#/mcp`, as VS Code's mcp.json writes
 * it), declared in the user's settings, in a real VS Code: listed in the Servers view, its tools listed
 * and called through VS Code's language-model tool API, every request over the socket.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setSetting } from './helpers';
import { declareServers, fixture, serverItems, waitState } from './mcpHost';

describe('an HTTP server on a unix socket', function () {
  this.timeout(60_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-it-sock-'));
  let child: ChildProcess | undefined;
  after(async () => {
    await declareServers(undefined);
    await setSetting('mcpHost.tools.autoApprove', undefined);
    child?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lists its tools and calls one over the socket (vscode.lm.invokeTool), the requests arriving on the socket', async () => {
    const sock = path.join(dir, 'recording.sock');
    child = spawn(process.execPath, [fixture('recording'), '--socket', sock], { stdio: ['ignore', 'pipe', 'pipe'] });
    const received: string[] = [];
    child.stderr!.on('data', (d: Buffer) => { for (const m of String(d).matchAll(/^RECEIVED (.*)$/gm)) received.push(m[1]); });
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d: Buffer) => { if (String(d).includes('LISTENING')) resolve(); });
      child!.once('exit', c => reject(new Error(`the socket fixture exited with ${c}`)));
    });
    await setSetting('mcpHost.tools.autoApprove', ['sock/*']);
    const a = await declareServers({ sock: { url: `unix://${sock}#/mcp`, headers: { 'X-Client': 'vscode' } } });
    const s = a.host.require('sock');
    await waitState(s, 'running');
    const item = (await serverItems(a)).find(i => i.label === 'sock')!;
    assert.match(item.contextValue, /^server:running/);
    assert.deepEqual(a.host.tools.filter(t => t.server === 'sock').map(t => t.item.name), ['echo']);
    const r = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'sock', tool: 'echo', arguments: { text: 'through the socket' } }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
    assert.equal(r.content.map(p => p instanceof vscode.LanguageModelTextPart ? p.value : '').join(''), 'through the socket');
    const posts = received.map(l => JSON.parse(l) as { method: string; headers: Record<string, string> }).filter(q => q.method === 'POST');
    assert.ok(posts.length >= 3, `initialize, initialized, tools/list and the call came over the socket (${posts.length})`);
    assert.ok(posts.every(q => q.headers['x-client'] === 'vscode'));
  });
});

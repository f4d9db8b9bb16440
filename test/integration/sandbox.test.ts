/**
 * Sandboxed local servers (issue 20) in a real VS Code. The attacker is a local server (fixture
 * `escapee`) asked through @mcp to read the planted ~/.ssh/id_rsa (the run's HOME is a fresh temp
 * folder), write outside its roots, write inside the workspace (a root) and reach a local HTTP
 * service not on its allow list. Sandboxed, only the write inside the root succeeds and each refusal
 * reaches the model and the chat as a tool error with the reason; the same server unsandboxed does it all.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { scriptedLm, setSetting, waitFor, workspaceRoot, type RecordedRequest } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast } from './chatDriver';
import { declareServers, fixture, nodeServer, serverItems, waitState, type TestApi } from './mcpHost';

/** The text of the tool result with `callId` in the model's second request. */
function result(req: RecordedRequest, callId: string): string {
  for (const m of req.messages) for (const p of m.content) {
    if (p.type === 'toolResult' && p.callId === callId) return p.content.map(c => c.type === 'text' ? c.value : '').join('\n');
  }
  throw new Error(`no result for ${callId}`);
}

describe('sandboxed local servers', function () {
  this.timeout(90_000);
  let api: TestApi;
  let service: http.Server;
  let url: string;
  let outside: string;
  const secret = path.join(os.homedir(), '.ssh', 'id_rsa');

  before(async () => {
    assert.ok(os.homedir().includes('mcp-host') || os.homedir().startsWith(os.tmpdir()), `HOME is the run's temporary folder, not a real one: ${os.homedir()}`);
    mkdirSync(path.dirname(secret), { recursive: true });
    writeFileSync(secret, '-----BEGIN FAKE PRIVATE KEY-----\n');
    outside = mkdtempSync(path.join(os.tmpdir(), 'mcp-sandbox-outside-'));
    service = http.createServer((_req, res) => res.end('local-service-answer'));
    await new Promise<void>(r => service.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(service.address() as AddressInfo).port}/`;
    await setSetting('mcpHost.tools.autoApprove', ['open/*']);
    await setSetting('mcpHost.sandbox.autoApproveTools', true);
    api = await declareServers({ open: nodeServer(fixture('escapee')), boxed: { ...nodeServer(fixture('escapee')), sandbox: true } });
    await waitState(api.host.require('open'), 'running');
    await waitState(api.host.require('boxed'), 'running', 30_000);
    await pickScriptedModel();
  });
  beforeEach(() => scriptedLm.reset());
  after(async () => {
    await declareServers(undefined);
    for (const key of ['tools.autoApprove', 'sandbox.autoApproveTools', 'sandbox.runtimePath', 'sandbox.allowUnsandboxed']) await setSetting(`mcpHost.${key}`, undefined);
    await new Promise(r => service.close(r));
    rmSync(outside, { recursive: true, force: true });
    rmSync(path.dirname(secret), { recursive: true, force: true });
  });

  async function attack(server: string): Promise<{ read: string; outside: string; inside: string; net: string }> {
    const inside = path.join(workspaceRoot().fsPath, `${server}-inside.txt`);
    await scriptedLm.script([
      { toolCall: { name: `${server}_read-file`, input: { path: secret }, callId: 'read' } },
      { toolCall: { name: `${server}_write-file`, input: { path: path.join(outside, `${server}.txt`), text: 'loot' }, callId: 'outside' } },
      { toolCall: { name: `${server}_write-file`, input: { path: inside, text: 'fine' }, callId: 'inside' } },
      { toolCall: { name: `${server}_fetch`, input: { url }, callId: 'net' } },
    ], 'done');
    await ask(`@mcp try everything with ${server}`);
    const reqs = await requestsAtLeast(2, 30_000);
    return { read: result(reqs[1], 'read'), outside: result(reqs[1], 'outside'), inside: result(reqs[1], 'inside'), net: result(reqs[1], 'net') };
  }

  it('unsandboxed, the fixture reads the key, writes anywhere and reaches the local service (it really tries)', async () => {
    const r = await attack('open');
    assert.equal(r.read, '-----BEGIN FAKE PRIVATE KEY-----\n');
    assert.match(r.outside, /^wrote /);
    assert.ok(existsSync(path.join(outside, 'open.txt')));
    assert.match(r.inside, /^wrote /);
    assert.equal(r.net, '200 local-service-answer');
  });

  it('sandboxed, only the write inside the workspace succeeds; each refusal is a tool error with the reason; the view shows the shield', async () => {
    const r = await attack('boxed');
    // bubblewrap hides a read-denied folder behind an empty one: the OS says "no such file" or "permission denied".
    const note = /\n\(Server "boxed" runs in the sandbox: it may write only inside its roots .*\)$/;
    assert.match(r.read, /^The tool reported an error:\nReading .*id_rsa failed: .*(EACCES|permission denied|ENOENT)/i);
    for (const refused of [r.read, r.outside, r.net]) assert.match(refused, note);
    assert.doesNotMatch(r.inside, note);
    assert.doesNotMatch(r.read, /FAKE PRIVATE KEY/);
    // The outside folder lies in /tmp, which the sandbox hides (ENOENT); elsewhere it would be read-only.
    assert.match(r.outside, /^The tool reported an error:\nWriting .*boxed\.txt failed: .*(EROFS|read-only file system|ENOENT|no such file)/i);
    assert.ok(!existsSync(path.join(outside, 'boxed.txt')), 'nothing written outside the roots');
    assert.match(r.inside, /^wrote /);
    assert.equal(readFileSync(path.join(workspaceRoot().fsPath, 'boxed-inside.txt'), 'utf8'), 'fine');
    assert.match(r.net, /^The tool reported an error:\nConnecting to http:\/\/127\.0\.0\.1:\d+\/ failed: /);
    assert.doesNotMatch(r.net, /local-service-answer/);
    const items = await serverItems(api);
    const boxed = items.find(i => i.label === 'boxed')!;
    assert.match(boxed.description, /sandboxed/);
    assert.match(boxed.tooltip, /\$\(shield\) Sandboxed/);
    assert.doesNotMatch(items.find(i => i.label === 'open')!.description, /sandboxed/);
  });

  it('without a sandbox runtime the server does not start and says what to install, until the user allows it unsandboxed', async () => {
    await setSetting('mcpHost.sandbox.runtimePath', path.join(outside, 'no-srt', 'cli.js'));
    const boxed = api.host.require('boxed');
    await waitState(boxed, 'error', 30_000);
    const item = await waitFor(async () => (await serverItems(api)).find(i => i.label === 'boxed' && /must run sandboxed/.test(i.description)), 10_000, 'the reason in the Servers view');
    assert.match(item.description, /sandbox runtime is missing .*npm install -g @anthropic-ai\/sandbox-runtime.*mcpHost\.sandbox\.allowUnsandboxed/);
    await setSetting('mcpHost.sandbox.allowUnsandboxed', ['boxed']);
    await waitState(boxed, 'running', 30_000);
    assert.equal(boxed.sandboxed, false);
    assert.doesNotMatch((await serverItems(api)).find(i => i.label === 'boxed')!.description, /sandboxed/);
  });
});

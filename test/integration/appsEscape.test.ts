/**
 * Attacker tests for "Apps stay in their frame" (issue 28 item 6, issue 30 item 1), beyond the ones
 * the change shipped with: a remote server's app (the pushy app's `script` action runs the test's code,
 * eval being allowed in apps) tries every other way its frame could reach a service of the user's on
 * this computer — workers from data: and blob: URLs, websockets, beacons, prefetch, nested frames,
 * navigating its own frame — and writes lines into its server's log through the JSON-RPC traffic
 * itself (a method name with line breaks), which must not read as the host's own.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { setSetting, waitFor } from './helpers';
import { declareServers, fixture, nodeServer, readExtensionLogs, waitState, type TestApi } from './mcpHost';

const FORGED_URI_LINE = '\n2026-12-01 20:00:02.000 [info] Tool "wipe" of server "forger": approved by the user';
const REPORT = path.join(os.tmpdir(), `mcp-host-escaping-app-${process.pid}.jsonl`);

/** A local service of the user's that records every path anyone reached (HTTP and websocket upgrades). */
async function localService(): Promise<{ origin: string; port: number; paths: string[]; close: () => void }> {
  const paths: string[] = [];
  const server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/html' }).end('<p>local service</p>');
  });
  server.on('upgrade', (req, socket) => { paths.push(`upgrade ${req.url}`); socket.destroy(); });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { origin: `http://127.0.0.1:${port}`, port, paths, close: () => server.close() };
}

describe('MCP Apps stay in their frame: other doors (attacker)', function () {
  this.timeout(240_000);
  let api: TestApi;
  let service: Awaited<ReturnType<typeof localService>>;
  let child: ChildProcess;
  let n = 0;

  async function script(code: string): Promise<unknown> {
    const id = `escape-${++n}`;
    await api.callTool('escaper', 'act', { action: 'script', id, text: code });
    const line = await waitFor(async () => {
      const text = await fs.readFile(REPORT, 'utf8').catch(() => '');
      return text.split('\n').filter(Boolean).map(l => JSON.parse(l) as { id: string; answer: unknown }).find(l => l.id === id);
    }, 60_000, `the app's report of ${id}`);
    return line.answer;
  }

  async function freshApp(): Promise<void> {
    const panel = api.apps.panel('escaper');
    if (panel) { panel.panel.dispose(); await waitFor(() => !api.apps.panel('escaper'), 10_000, 'the app to close'); }
  }

  before(async () => {
    await fs.rm(REPORT, { force: true });
    service = await localService();
    child = spawn(process.execPath, [fixture('pushyApp'), '--http', '0'], { env: { ...process.env, FIXTURE_REPORT: REPORT }, stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => { out += d; const m = /LISTENING (\d+)/.exec(out); if (m) resolve(Number(m[1])); });
      child.once('exit', code => reject(new Error(`pushyApp --http exited with ${code}`)));
    });
    await setSetting('mcpHost.tools.autoApprove', ['escaper/report', 'forger/act']);
    // Even with the user's setting on: it never applies to a remote server's app.
    await setSetting('mcpHost.apps.allowLocalNetwork', true);
    api = await declareServers({
      escaper: { type: 'http', url: `http://127.0.0.1:${port}/mcp` },
      // A server whose tool names an app URI with a line break and a forged host line in it.
      forger: { ...nodeServer(fixture('pushyApp')), env: { FIXTURE_TOOL_URI: `ui://pushy/missing${FORGED_URI_LINE}` } },
    });
    await waitState(api.host.require('forger'), 'running', 20_000);
    await waitState(api.host.require('escaper'), 'running', 20_000);
    await waitFor(() => api.host.require('escaper').tool('act'), 15_000, 'the tools of escaper');
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await setSetting('mcpHost.apps.allowLocalNetwork', undefined);
    await declareServers(undefined);
    child?.kill();
    service?.close();
    await fs.rm(REPORT, { force: true });
  });

  it('no load of the app\'s frame, its workers (blob:, data:) or nested frames reaches a local service', async () => {
    const o = service.origin;
    const answer = await script(`
      const O = ${JSON.stringify(o)};
      const out = {};
      const worker = (url) => new Promise(resolve => {
        let w;
        try { w = new Worker(url); } catch (e) { resolve('refused: ' + e); return; }
        w.onmessage = e => resolve(e.data);
        w.onerror = () => resolve('error');
        setTimeout(() => resolve('no answer'), 4000);
      });
      const body = (p) => "fetch('" + O + p + "').then(() => postMessage('loaded'), e => postMessage(String(e)))";
      out.dataWorker = await worker('data:text/javascript,' + encodeURIComponent(body('/data-worker')));
      out.blobWorker = await worker(URL.createObjectURL(new Blob([body('/blob-worker')], { type: 'text/javascript' })));
      out.importScripts = await worker(URL.createObjectURL(new Blob(["try { importScripts('" + O + "/import-scripts'); postMessage('loaded'); } catch (e) { postMessage(String(e)); }"], { type: 'text/javascript' })));
      out.nestedWorker = await worker('data:text/javascript,' + encodeURIComponent("const w = new Worker(URL.createObjectURL(new Blob([" + JSON.stringify(body('/nested-worker')) + "]))); w.onmessage = e => postMessage(e.data); w.onerror = () => postMessage('error');"));
      try { const ws = new WebSocket('ws://127.0.0.1:${service.port}/ws'); out.ws = 'opened'; ws.onerror = () => {}; } catch (e) { out.ws = String(e); }
      try { out.beacon = navigator.sendBeacon(O + '/beacon', 'x'); } catch (e) { out.beacon = String(e); }
      try { new EventSource(O + '/sse'); } catch { /* refused */ }
      const add = (html) => document.body.insertAdjacentHTML('beforeend', html);
      add('<link rel="prefetch" href="' + O + '/prefetch"><link rel="preload" as="fetch" href="' + O + '/preload" crossorigin>');
      add('<img src="' + O + '/img"><video src="' + O + '/media"></video><object data="' + O + '/object"></object>');
      add('<style>@import url("' + O + '/css-import"); body { background: url("' + O + '/css-bg"); }</style>');
      add('<iframe src="' + O + '/iframe"></iframe>');
      add('<iframe src="data:text/html,' + encodeURIComponent("<script>fetch('" + O + "/data-iframe')</scr" + "ipt>") + '"></iframe>');
      add('<iframe srcdoc="' + ("<script>fetch('" + O + "/srcdoc-iframe')</scr" + "ipt>").replace(/"/g, '&quot;') + '"></iframe>');
      await new Promise(r => setTimeout(r, 3000));
      return out;
    `);
    // The attack ran: each worker started and its fetch was refused (not a worker that never ran).
    const a = answer as Record<string, unknown>;
    for (const k of ['dataWorker', 'blobWorker', 'nestedWorker']) assert.match(String(a[k]), /TypeError|Failed to fetch/, `${k}: ${JSON.stringify(answer)}`);
    assert.match(String(a.importScripts), /NetworkError|importScripts|Failed/, JSON.stringify(answer));
    assert.deepEqual(service.paths, [], `the app reached the local service: ${JSON.stringify(service.paths)} (the app saw ${JSON.stringify(answer)})`);
  });

  for (const [how, code] of [
    ['location', (u: string) => `location.href = ${JSON.stringify(u)};`],
    ['meta refresh', (u: string) => `document.head.insertAdjacentHTML('beforeend', '<meta http-equiv="refresh" content="0;url=' + ${JSON.stringify(u)} + '">');`],
    ['link click', (u: string) => `const a = document.createElement('a'); a.href = ${JSON.stringify(u)}; document.body.appendChild(a); a.click();`],
    ['form', (u: string) => `const f = document.createElement('form'); f.method = 'GET'; f.action = ${JSON.stringify(u)}; document.body.appendChild(f); f.submit();`],
  ] as const) {
    it(`the app cannot navigate its own frame to a local service (${how})`, async () => {
      await freshApp();
      const p = `/nav-${how.replace(/\s/g, '-')}`;
      // Reported first, then gone: the navigation would take the report with it.
      assert.equal(await script(`setTimeout(() => { ${code(service.origin + p)} }, 300); return 'scheduled';`), 'scheduled');
      await new Promise(r => setTimeout(r, 3_000));
      assert.deepEqual(service.paths.filter(x => x.startsWith(p)), [], `the app's frame loaded ${service.origin}${p}`);
    });
  }

  it('JSON-RPC traffic with line breaks in a method name or an id writes no line that reads as the host\'s own', async () => {
    await freshApp();
    const forged = '\n2026-12-01 20:00:00.000 [info] Tool "wipe" of server "escaper": approved by the user';
    await script(`
      window.parent.postMessage({ jsonrpc: '2.0', method: ${JSON.stringify(`x${forged}`.slice(0, 99))}, params: {} }, '*');
      window.parent.postMessage({ jsonrpc: '2.0', id: '\\n2026-12-01 20:00:01', method: 'ping' }, '*');
      await new Promise(r => setTimeout(r, 500));
      return 'sent';
    `);
    const text = await waitFor(async () => {
      const t = [...await readExtensionLogs(api)].filter(([f]) => path.basename(f).includes('escaper')).map(([, x]) => x).join('\n');
      return /approved by the user/.test(t) && /20:00:01/.test(t) ? t : undefined;
    }, 30_000, 'the traffic in the log');
    const forgedLines = text.split('\n').filter(l => l.startsWith('2026-12-01 20:00:0'));
    assert.deepEqual(forgedLines, [], 'lines of their own, written by the app');
  });

  it('a tool\'s app URI with a line break writes no line of its own into the server\'s log when the app cannot be shown', async () => {
    await waitFor(() => api.host.require('forger').tool('act'), 15_000, 'the tools of forger');
    await api.callTool('forger', 'act', { action: 'inline', id: 'forger-1' });
    const text = await waitFor(async () => {
      const t = [...await readExtensionLogs(api)].filter(([f]) => path.basename(f).includes('forger')).map(([, x]) => x).join('\n');
      return /could not be shown/.test(t) ? t : undefined;
    }, 30_000, 'the failure in the log');
    assert.deepEqual(text.split('\n').filter(l => l.startsWith('2026-12-01 20:00:02')), [], 'a line of its own, written by the server');
  });
});

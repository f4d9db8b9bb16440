/**
 * MCP Apps (issue 18) against a hostile app (test/fixtures/servers/hostileApp.ts): the webview's
 * policy is exactly what the resource's `_meta.ui.csp` allows (refused entries dropped), and what the
 * app tries on its own — another server's tool, an undeclared origin, a chat message, a `file:` link,
 * an unknown method, its own tool without consent — is refused; its app-only tool never reaches models.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { scriptedLm, setSetting, waitFor, invokeToolText } from './helpers';
import { choose, nextPrompt } from './consentDriver';
import { pickScriptedModel } from './chatDriver';
import { declareServers, everythingBin, fixture, nodeServer, textOf, waitState, type TestApi } from './mcpHost';

const REPORT = path.join(os.tmpdir(), `mcp-host-hostile-app-${process.pid}.json`);
/** What `_meta.ui.csp` of the fixture allows, and nothing else. */
const EXPECTED_POLICY = "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' blob: data: https://cdn.allowed.example; "
  + "style-src 'unsafe-inline' blob: data: https://cdn.allowed.example; img-src blob: data: https://cdn.allowed.example; font-src blob: data: https://cdn.allowed.example; "
  + "media-src blob: data: https://cdn.allowed.example; worker-src blob: data: https://cdn.allowed.example; connect-src blob: data: https://allowed.example; "
  + "frame-src 'none'; base-uri 'none'; form-action 'none'; object-src 'none'";

interface RpcAnswer { result?: { isError?: boolean; content?: { text?: string }[] } & Record<string, unknown>; error?: { code: number; message: string } }
interface Report {
  initialize: RpcAnswer; otherServerTool: RpcAnswer; otherServerModelName: RpcAnswer; fetch: string; image: string;
  message: RpcAnswer; fileLink: RpcAnswer; unknownMethod: RpcAnswer; wipe: RpcAnswer; violations: { uri: string; directive: string }[];
}

describe('MCP Apps: a hostile app is contained', function () {
  this.timeout(120_000);
  let api: TestApi;

  before(async () => {
    await fs.rm(REPORT, { force: true });
    await setSetting('mcpHost.tools.autoApprove', ['hostile/report']);
    api = await declareServers({
      hostile: { ...nodeServer(fixture('hostileApp')), env: { FIXTURE_REPORT: REPORT } },
      victim: nodeServer(everythingBin),
    });
    await waitState(api.host.require('hostile'), 'running');
    await waitState(api.host.require('victim'), 'running');
    await waitFor(() => api.host.require('hostile').tool('show'), 15_000, 'the tools of hostile');
    // A chat that can answer, so a message the app managed to send would reach the scripted model.
    await pickScriptedModel();
    await scriptedLm.reset();
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
    await fs.rm(REPORT, { force: true });
  });

  it('declares the MCP Apps extension to servers', async () => {
    const caps = JSON.parse(textOf(await api.callTool('hostile', 'client-capabilities'))) as { extensions?: Record<string, { mimeTypes?: string[] }> };
    assert.deepEqual(caps.extensions?.['io.modelcontextprotocol/ui'], { mimeTypes: ['text/html;profile=mcp-app'] });
  });

  it('opens the app with the policy from _meta.ui.csp only; what the app tries by itself is refused', async () => {
    await api.callTool('hostile', 'show');
    const panel = await waitFor(() => { const p = api.apps.panel('hostile'); return p?.html ? p : undefined; }, 15_000, 'the app panel of hostile');
    assert.equal(panel.document?.csp.policy, EXPECTED_POLICY);
    assert.ok(panel.html.includes(`<meta http-equiv="Content-Security-Policy" content="${EXPECTED_POLICY}">`), panel.html.slice(0, 600));
    assert.deepEqual(panel.document?.csp.refused, ['*', 'https:', "'unsafe-eval'", 'https://x.example; script-src *', 'javascript:alert(1)']);

    // Its own tool asks like any tool call of a model; the user denies.
    await choose(await nextPrompt(api, /^MCP server "hostile" wants to run tool "wipe"$/, 60_000), /Deny/);
    const report = JSON.parse(await waitFor(() => fs.readFile(REPORT, 'utf8').catch(() => ''), 30_000, 'the app\'s report')) as Report;

    assert.ok(report.initialize.result, JSON.stringify(report.initialize));
    for (const attempt of [report.otherServerTool, report.otherServerModelName]) {
      assert.equal(attempt.result?.isError, true, JSON.stringify(attempt));
      assert.match(attempt.result?.content?.[0]?.text ?? '', /Server "hostile" has no tool named "(victim_)?echo"/);
    }
    assert.ok(!api.toolActivity.some(a => a.server === 'victim'), 'nothing ran on the other server');

    assert.notEqual(report.fetch, 'loaded');
    assert.equal(report.image, 'blocked');
    assert.ok(report.violations.some(v => v.directive === 'connect-src' && v.uri.startsWith('https://undeclared.example')), JSON.stringify(report.violations));
    assert.ok(report.violations.some(v => v.directive === 'img-src' && v.uri.startsWith('https://undeclared.example')), JSON.stringify(report.violations));

    // ui/message fills the chat input (with an @mcp request, which would reach the scripted model if sent); nothing is sent.
    assert.deepEqual(report.message.result, {});
    assert.deepEqual(await scriptedLm.requests(), []);

    assert.equal(report.fileLink.result?.isError, true, JSON.stringify(report.fileLink));
    assert.ok(report.unknownMethod.error, JSON.stringify(report.unknownMethod));
    assert.equal(report.wipe.result?.isError, true, JSON.stringify(report.wipe));
    assert.match(report.wipe.result?.content?.[0]?.text ?? '', /denied/);
    assert.ok(api.toolActivity.some(a => a.server === 'hostile' && a.tool === 'wipe' && a.outcome === 'denied'));
  });

  it('never offers the app-only tool to models, nor runs it for them', async () => {
    assert.doesNotMatch(await invokeToolText('mcpHost_findTools', { query: '' }), /"tool":"report"/);
    assert.match(await invokeToolText('mcpHost_findTools', { query: '' }), /"tool":"show"/);
    assert.match(await invokeToolText('mcpHost_callTool', { server: 'hostile', tool: 'report', arguments: { data: 'from a model' } }), /has no tool named "report"/);
  });
});

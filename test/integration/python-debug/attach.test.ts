/**
 * dev.debug "python" end to end in a real VS Code (issue 33): MCP Host starts a Python server under the real
 * debugpy, VS Code attaches with a `debugpy` configuration, and a breakpoint in the server's source stops it
 * when a tool reaches it. The Python Debugger extension cannot be installed on the offline test machines; the
 * run installs a stand-in under its id (test/fixtures/python-debugger-standin) that does what that extension
 * does for an attach with `connect`: hand VS Code a DebugAdapterServer on that port, so VS Code speaks DAP to
 * debugpy itself. Needs /usr/bin/python3 with debugpy (Debian's python3-debugpy; .ci/run installs it).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitFor } from '../helpers';
import { declareServers, textOf, waitState } from '../mcpHost';

const SCRIPT = path.resolve(__dirname, '../../../../test/fixtures/python/echo_server.py');
const lineOf = (marker: string) => fs.readFileSync(SCRIPT, 'utf8').split('\n').findIndex(l => l.includes(marker)) + 1;

describe('dev.debug "python": VS Code attaches to debugpy and stops at a breakpoint', function () {
  this.timeout(120_000);
  after(() => declareServers(undefined));

  it('a breakpoint in the Python server stops it when a tool reaches it; the session ends with the server', async () => {
    assert.ok(vscode.extensions.getExtension('ms-python.debugpy'), 'the run installs the stand-in under the Python Debugger\'s id');
    const line = lineOf('return {"content": [{"type": "text", "text": str(args.get("text", ""))}]}');
    assert.ok(line > 0);
    const messages: { type?: string; event?: string; body?: { reason?: string } }[] = [];
    const tracker = vscode.debug.registerDebugAdapterTrackerFactory('debugpy', { createDebugAdapterTracker: () => ({ onDidSendMessage: m => messages.push(m) }) });
    const started: vscode.DebugSession[] = [];
    const ended: vscode.DebugSession[] = [];
    const subs = [vscode.debug.onDidStartDebugSession(s => started.push(s)), vscode.debug.onDidTerminateDebugSession(s => ended.push(s))];
    const bp = new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(SCRIPT), new vscode.Position(line - 1, 0)));
    vscode.debug.addBreakpoints([bp]);
    let call: Promise<unknown> | undefined;
    try {
      const a = await declareServers({ py: { command: '/usr/bin/python3', args: ['-X', 'frozen_modules=off', SCRIPT], dev: { debug: { type: 'python' } } } });
      const py = a.host.require('py');
      await waitState(py, 'running', 30_000);
      assert.ok(py.inspectorPort, 'debugpy listens on the port MCP Host chose');
      assert.equal((JSON.parse(textOf(await a.callTool('py', 'whoami', {}))) as { debugpy: boolean }).debugpy, true);
      const session = await waitFor(() => started.find(s => s.type === 'debugpy' && s.name === 'MCP server: py'), 30_000, 'the debugpy attach session');
      assert.equal(session.configuration.request, 'attach');
      assert.deepEqual(session.configuration.connect, { host: '127.0.0.1', port: py.inspectorPort });
      // debugpy has the breakpoint once it answered the configuration; give it the chance before the call.
      await waitFor(() => messages.some(m => m.type === 'response' && (m as { command?: string }).command === 'configurationDone') || messages.some(m => m.event === 'initialized'), 20_000, 'the debug session to be configured');
      call = a.callTool('py', 'echo', { text: 'through the breakpoint' });
      const stopped = await waitFor(() => messages.find(m => m.type === 'event' && m.event === 'stopped'), 30_000, 'debugpy to stop at the breakpoint');
      assert.equal(stopped.body?.reason, 'breakpoint');
      const frame = await waitFor(() => vscode.debug.activeStackItem instanceof vscode.DebugStackFrame ? vscode.debug.activeStackItem : undefined, 10_000, 'the paused frame');
      const trace = await frame.session.customRequest('stackTrace', { threadId: frame.threadId, levels: 1 }) as { stackFrames: { line: number; source?: { path?: string } }[] };
      assert.equal(trace.stackFrames[0].line, line);
      // The path as VS Code hands it back (a remote URI under code-server): the server's own file.
      assert.match(trace.stackFrames[0].source?.path ?? '', /echo_server\.py$/);
      await frame.session.customRequest('continue', { threadId: frame.threadId });
      assert.equal(textOf(await call as { content?: unknown[] }), 'through the breakpoint');
      await py.stop();
      await waitFor(() => ended.includes(session), 20_000, 'the session to end with the server');
    } finally {
      vscode.debug.removeBreakpoints([bp]);
      tracker.dispose();
      subs.forEach(s => s.dispose());
      await call?.catch(() => undefined);
    }
  });
});

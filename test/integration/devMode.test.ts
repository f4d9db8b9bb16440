import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WATCH_QUIET_AFTER_START_MS } from '../../src/vscode/dev/devMode';
import { setSetting, waitFor, workspaceRoot } from './helpers';
import { declareServers, fixture, nodeServer, readExtensionLogs, textOf, waitState } from './mcpHost';

/** The 1-based line of the fixture's compiled JS that carries `marker`. */
function lineOf(file: string, marker: string): number {
  const index = fs.readFileSync(file, 'utf8').split('\n').findIndex(l => l.includes(marker));
  assert.ok(index >= 0, `${marker} in ${file}`);
  return index + 1;
}

describe('dev mode: watch and debug a server under development', function () {
  this.timeout(60_000);
  after(() => setSetting('mcpHost.servers', undefined));

  it('editing a watched file restarts that server (new pid) and no other', async () => {
    const dir = vscode.Uri.joinPath(workspaceRoot(), 'devwatch');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'server.js'), new TextEncoder().encode('// v1\n'));
    const a = await declareServers({
      watched: { ...nodeServer(fixture('debuggee')), dev: { watch: 'devwatch/**/*.js' } },
      bystander: { ...nodeServer(fixture('debuggee')) },
    });
    const watched = a.host.require('watched');
    const bystander = a.host.require('bystander');
    await waitState(watched, 'running');
    await waitState(bystander, 'running');
    const [watchedPid, bystanderPid] = [watched.pid, bystander.pid];
    assert.ok(watchedPid && bystanderPid);
    const states: string[] = [];
    const sub = a.host.onDidChangeState(e => states.push(`${e.server}:${e.state}`));
    // Changes right after a start are taken as the server's own (WATCH_QUIET_AFTER_START_MS): edit after that.
    const pastStart = () => new Promise(r => setTimeout(r, WATCH_QUIET_AFTER_START_MS + 500));
    try {
      await pastStart();
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'server.js'), new TextEncoder().encode('// v2\n'));
      await waitFor(() => watched.state === 'running' && watched.pid !== watchedPid, 20_000, 'the watched server to restart');
      assert.equal(textOf(await watched.callTool('pid')), String(watched.pid));
      assert.equal(bystander.pid, bystanderPid, 'the other server kept its process');
      assert.deepEqual(states.filter(s => s.startsWith('bystander:')), [], 'the other server never changed state');
      // A file outside the glob restarts nothing.
      const pid = watched.pid;
      states.length = 0;
      await pastStart();
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'notes.txt'), new TextEncoder().encode('x'));
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(dir, 'server.js'), new TextEncoder().encode('// v3\n'));
      await waitFor(() => watched.state === 'running' && watched.pid !== pid, 20_000, 'the second restart');
      assert.deepEqual(states.filter(s => s.startsWith('bystander:')), []);
    } finally { sub.dispose(); }
  });

  it('a server writing into its own watched folder is not restarted by its own start; one that keeps writing is restarted at most autoRestart.maxRestarts times, then told', async () => {
    await setSetting('mcpHost.autoRestart.maxRestarts', 2);
    const own = vscode.Uri.joinPath(workspaceRoot(), 'devloop-own');
    const busy = vscode.Uri.joinPath(workspaceRoot(), 'devloop-busy');
    await vscode.workspace.fs.createDirectory(own);
    await vscode.workspace.fs.createDirectory(busy);
    const a = await declareServers({
      // Writes devloop-own/cache.js when it starts (a build cache, a lock file): it used to restart forever.
      selfWriter: { ...nodeServer(fixture('debuggee')), env: { FIXTURE_TOUCH: vscode.Uri.joinPath(own, 'cache.js').fsPath }, dev: { watch: 'devloop-own/**/*.js' } },
      // Keeps writing into its watched folder while it runs.
      busyWriter: { ...nodeServer(fixture('debuggee')), env: { FIXTURE_TOUCH: vscode.Uri.joinPath(busy, 'state.js').fsPath, FIXTURE_TOUCH_EVERY: '800' }, dev: { watch: 'devloop-busy/**/*.js' } },
    });
    const starts = new Map<string, number>();
    const sub = a.host.onDidChangeState(e => { if (e.state === 'starting') starts.set(e.server, (starts.get(e.server) ?? 0) + 1); });
    try {
      const selfWriter = a.host.require('selfWriter');
      await waitState(selfWriter, 'running');
      const pid = selfWriter.pid;
      const log = async () => [...(await readExtensionLogs(a)).values()].join('\n');
      await waitFor(async () => /Watch restarts are paused/.test(await log()), 60_000, 'busyWriter\'s watch restarts to stop with a message');
      const busyStarts = starts.get('busyWriter') ?? 0;
      assert.ok(busyStarts <= 2, `busyWriter was restarted ${busyStarts} times (budget 2)`);
      await new Promise(r => setTimeout(r, 3000)); // several more of its writes
      assert.equal(starts.get('busyWriter') ?? 0, busyStarts, 'no watch restart after the budget');
      assert.equal(a.host.require('busyWriter').state, 'running', 'it keeps running, only the restarts stop');
      assert.equal(selfWriter.pid, pid, 'its own start\'s write restarted it');
      assert.equal(starts.get('selfWriter') ?? 0, 0);
    } finally {
      sub.dispose();
      await setSetting('mcpHost.autoRestart.maxRestarts', undefined);
    }
  });

  it('dev.debug attaches VS Code\'s Node debugger, which stops at a breakpoint in the server when a tool reaches it, and ends with the server', async () => {
    const script = fixture('debuggee');
    // The breakpoint goes where a server author puts it: in the TypeScript source (the build has source maps).
    const source = script.replace(/[/\\]out([/\\]test[/\\])/, '$1').replace(/\.js$/, '.ts');
    const line = lineOf(source, '// BREAKPOINT');
    const messages: { session: vscode.DebugSession; msg: { type?: string; event?: string; command?: string; body?: { reason?: string; breakpoints?: { verified?: boolean }[] } } }[] = [];
    const tracker = vscode.debug.registerDebugAdapterTrackerFactory('*', {
      createDebugAdapterTracker: session => ({ onDidSendMessage: msg => messages.push({ session, msg }) }),
    });
    const started: vscode.DebugSession[] = [];
    const terminated: vscode.DebugSession[] = [];
    const subs = [
      vscode.debug.onDidStartDebugSession(s => started.push(s)),
      vscode.debug.onDidTerminateDebugSession(s => terminated.push(s)),
    ];
    const bp = new vscode.SourceBreakpoint(new vscode.Location(vscode.Uri.file(source), new vscode.Position(line - 1, 0)));
    vscode.debug.addBreakpoints([bp]);
    let call: Promise<unknown> | undefined;
    try {
      const a = await declareServers({ dbg: { ...nodeServer(script), dev: { debug: { type: 'node' } } } });
      const dbg = a.host.require('dbg');
      await waitState(dbg, 'running');
      assert.ok(dbg.inspectorPort, 'the server runs under the inspector');
      // The configuration is marked by a token (never the name): the session is found by its name.
      const root = await waitFor(() => started.find(s => !s.parentSession && s.name === 'MCP server: dbg'), 20_000, 'the attach session');
      assert.equal(root.configuration.request, 'attach');
      assert.equal(root.configuration.port, dbg.inspectorPort);
      // The breakpoint is bound in the server's process before the tool runs.
      await waitFor(() => messages.some(m => m.msg.type === 'event' && m.msg.event === 'breakpoint' && m.msg.body?.breakpoints === undefined && (m.msg.body as { breakpoint?: { verified?: boolean } }).breakpoint?.verified)
        || messages.some(m => m.msg.type === 'response' && m.msg.command === 'setBreakpoints' && m.msg.body?.breakpoints?.some(b => b.verified)), 20_000, 'the breakpoint to be verified');
      call = dbg.callTool('compute', { n: 21 }).catch(e => e);
      const stopped = await waitFor(() => messages.find(m => m.msg.type === 'event' && m.msg.event === 'stopped'), 20_000, 'the debugger to stop');
      assert.equal(stopped.msg.body?.reason, 'breakpoint');
      const frame = await waitFor(() => vscode.debug.activeStackItem instanceof vscode.DebugStackFrame ? vscode.debug.activeStackItem : undefined, 10_000, 'the paused frame');
      const trace = await frame.session.customRequest('stackTrace', { threadId: frame.threadId, levels: 1 }) as { stackFrames: { line: number; source?: { path?: string } }[] };
      assert.equal(trace.stackFrames[0].line, line);
      // Stopping the server ends the debug session we started for it.
      await dbg.stop();
      await waitFor(() => terminated.includes(root), 20_000, 'the debug session to end with the server');
    } catch (e) {
      // What the debug adapters said, to tell a binding problem from a missing session.
      const said = messages.map(m => `${m.session.type}:${m.msg.type}:${m.msg.event ?? m.msg.command ?? ''}${m.msg.command === 'setBreakpoints' || m.msg.event === 'breakpoint' ? JSON.stringify(m.msg.body) : ''}`);
      throw new Error(`${e instanceof Error ? e.message : String(e)}\n${said.slice(-60).join('\n')}`);
    } finally {
      vscode.debug.removeBreakpoints([bp]);
      tracker.dispose();
      for (const s of subs) s.dispose();
      await call;
    }
  });

  // Found by an outside attack: the server ran under debugpy with no debugger to attach, so its port was open for
  // its whole life, and any local process could connect and have debugpy evaluate code in it.
  it('ATTACKER: dev.debug "python" without the Python Debugger extension runs the server without debugpy (no open debug port) and says what to install', async () => {
    const python = '/usr/bin/python3'; // Debian's, with python3-debugpy (.ci/run installs it)
    const script = path.join(workspaceRoot().fsPath, '..', 'py-echo.py');
    fs.copyFileSync(path.resolve(__dirname, '../../../test/fixtures/python/echo_server.py'), script);
    const started: vscode.DebugSession[] = [];
    const sub = vscode.debug.onDidStartDebugSession(s => started.push(s));
    try {
      assert.equal(vscode.extensions.getExtension('ms-python.debugpy'), undefined, 'the test VS Code has no Python Debugger extension');
      const a = await declareServers({ py: { command: python, args: ['-X', 'frozen_modules=off', script], dev: { debug: { type: 'python' } } } });
      const py = a.host.require('py');
      await waitState(py, 'running', 30_000);
      assert.equal(py.inspectorPort, undefined, 'no debug port');
      const who = JSON.parse(textOf(await a.callTool('py', 'whoami', {}))) as { debugpy: boolean };
      assert.equal(who.debugpy, false, 'the server process runs without debugpy');
      await waitFor(async () => /dev\.debug "python" is ignored: VS Code has no Python debugger to attach with \(install the Python Debugger extension, ms-python\.debugpy/.test([...(await readExtensionLogs(a)).values()].join('\n')), 20_000, 'the log line about the missing Python debugger');
      assert.equal(started.length, 0, 'no debug session without a debugger for it');
      assert.equal(py.state, 'running');
    } finally {
      sub.dispose();
      await declareServers(undefined);
      fs.rmSync(script, { force: true });
    }
  });

  // Found by an outside attack: VS Code substitutes `${command:…}` and `${input:…}` (the workspace's launch inputs,
  // commands with the repository's arguments) in every string of a debug configuration, and the session's name
  // held the server's name, which a workspace chooses.
  it('ATTACKER: a server named with ${command:…} and ${input:…} runs no command when the debugger attaches, and its session still ends with it', async () => {
    const calls: string[] = [];
    const subs = [
      vscode.commands.registerCommand('mcpHostTest.devName.probe', () => { calls.push('probe'); return 'X'; }),
      vscode.commands.registerCommand('mcpHostTest.devName.withArgs', () => { calls.push('withArgs'); return 'Y'; }),
    ];
    const started: vscode.DebugSession[] = [];
    const ended: vscode.DebugSession[] = [];
    subs.push(vscode.debug.onDidStartDebugSession(s => started.push(s)), vscode.debug.onDidTerminateDebugSession(s => ended.push(s)));
    const folder = vscode.workspace.workspaceFolders![0];
    try {
      await vscode.workspace.getConfiguration('launch', folder.uri).update('inputs', [{ id: 'pwn', type: 'command', command: 'mcpHostTest.devName.withArgs', args: { text: 'echo pwned\n' } }], vscode.ConfigurationTarget.WorkspaceFolder);
      const name = 'dbg-${command:mcpHostTest.devName.probe}-${input:pwn}';
      const a = await declareServers({ [name]: { ...nodeServer(fixture('debuggee')), dev: { debug: { type: 'node' } } } });
      await waitState(a.host.require(name), 'running');
      const session = await waitFor(() => started.find(s => !s.parentSession), 20_000, 'the attach');
      assert.deepEqual(calls, [], 'VS Code ran a command named in the server\'s name');
      assert.equal(session.name, 'MCP server: dbg-$ {command:mcpHostTest.devName.probe}-$ {input:pwn}');
      assert.notEqual(session.configuration.__mcpHostServer, name, 'the configuration is marked by a token, not the name');
      await declareServers(undefined);
      await waitFor(() => ended.includes(session), 20_000, 'the session to end with its server');
    } finally {
      for (const s of subs) s.dispose();
      await declareServers(undefined);
      await vscode.workspace.getConfiguration('launch', folder.uri).update('inputs', undefined, vscode.ConfigurationTarget.WorkspaceFolder);
    }
  });

  // Found by the second outside attack: ending the session (the debug toolbar's Stop) left the server running
  // with its inspector open and nothing attached, for any local process to connect to.
  it('ATTACKER: the user ends the debug session: the server does not run on with an open debug port', async () => {
    const started: vscode.DebugSession[] = [];
    const subs = [vscode.debug.onDidStartDebugSession(s => started.push(s))];
    try {
      const a = await declareServers({ dbg: { ...nodeServer(fixture('debuggee')), dev: { debug: { type: 'node' } } } });
      const dbg = a.host.require('dbg');
      await waitState(dbg, 'running');
      const port = dbg.inspectorPort!;
      const root = await waitFor(() => started.find(s => !s.parentSession && s.name === 'MCP server: dbg'), 20_000, 'the attach session');
      await vscode.debug.stopDebugging(root);
      await waitState(dbg, 'stopped', 20_000);
      const open = await new Promise<boolean>(resolve => { const c = net.connect(port, '127.0.0.1', () => { c.destroy(); resolve(true); }); c.once('error', () => resolve(false)); });
      assert.equal(open, false, `the inspector still listens on 127.0.0.1:${port}`);
      await waitFor(async () => /was stopped: its debug session ended, and its debug port \(127\.0\.0\.1:\d+\) would stay open/.test([...(await readExtensionLogs(a)).values()].join('\n')), 10_000, 'the log line saying why');
    } finally {
      subs.forEach(s => s.dispose());
      await declareServers(undefined);
    }
  });
});


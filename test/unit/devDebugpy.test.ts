/**
 * dev.debug "python" in the core: the launch under debugpy, the refusals, and a real Python server started
 * under debugpy whose port MCP Host chose (a DAP `initialize` answered there), which a forged announcement
 * on the server's stderr cannot move. Needs debugpy for /usr/bin/python3 (Debian's python3-debugpy, which
 * .ci/run installs): without it the start test fails saying so.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { DebugpyLaunchError, parseServers, withDebugpy, type SandboxPort } from '../../src/core';
import { createTestHost, repoRoot, text, waitForState } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

const PYTHON = '/usr/bin/python3';
const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/python/echo_server.py');
const stdio = (command: string, args: string[]) => ({ type: 'stdio' as const, command, args, env: {}, cwd: undefined });

/** Sends a DAP `initialize` to 127.0.0.1:port and returns the answer's JSON. */
function dapInitialize(port: number): Promise<{ type: string; command: string; success: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = Buffer.alloc(0);
    const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no DAP answer on port ${port}`)); }, 10_000);
    socket.on('error', e => { clearTimeout(timer); reject(e); });
    socket.on('connect', () => {
      const body = JSON.stringify({ seq: 1, type: 'request', command: 'initialize', arguments: { adapterID: 'debugpy', clientID: 'mcp-host-test' } });
      socket.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    socket.on('data', (d: Buffer) => {
      buffer = Buffer.concat([buffer, d]);
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())?.[1]);
        if (buffer.length < end + 4 + length) return;
        const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString()) as { type: string; command: string; success: boolean };
        buffer = buffer.subarray(end + 4 + length);
        if (message.type === 'response' && message.command === 'initialize') { clearTimeout(timer); socket.destroy(); resolve(message); return; }
      }
    });
  });
}

describe('dev mode: debugpy for Python servers (core)', function () {
  this.timeout(30_000);

  it('parses dev.debug "python" and names an unknown type or field', () => {
    const ok = parseServers({ s: { command: 'python3', args: ['-m', 'srv'], dev: { debug: { type: 'python' } } } });
    assert.deepEqual(ok.problems, []);
    assert.deepEqual((ok.servers[0] as { dev?: unknown }).dev, { debug: { type: 'python' } });
    const bad = parseServers({ s: { command: 'python3', dev: { debug: { type: 'python', port: 5678 } } } });
    assert.deepEqual(bad.problems.map(p => p.field), ['dev.debug.port']);
  });

  it('puts debugpy after the interpreter\'s own options and before the script or module, on 127.0.0.1 only', () => {
    const at = (command: string, args: string[]) => withDebugpy(stdio(command, args), 4321).args;
    assert.deepEqual(at('python3', ['server.py', '--flag']), ['-m', 'debugpy', '--listen', '127.0.0.1:4321', 'server.py', '--flag']);
    assert.deepEqual(at('/opt/venv/bin/python', ['-u', '-X', 'utf8', '-m', 'my_server', '-m', 'x']), ['-u', '-X', 'utf8', '-m', 'debugpy', '--listen', '127.0.0.1:4321', '-m', 'my_server', '-m', 'x']);
    assert.deepEqual(at('C:\\Python312\\python.exe', ['-c', 'print(1)']), ['-m', 'debugpy', '--listen', '127.0.0.1:4321', '-c', 'print(1)']);
    assert.deepEqual(at('python3.12', ['s.py']).slice(0, 4), ['-m', 'debugpy', '--listen', '127.0.0.1:4321']);
  });

  it('refuses, saying how to declare it, a launcher that is not a Python interpreter, and arguments that run nothing', () => {
    for (const command of ['uvx', 'uv', '/bin/sh', 'node', 'my-python-server', 'pythonista']) {
      assert.throws(() => withDebugpy(stdio(command, ['x']), 1), (e: Error) => e instanceof DebugpyLaunchError && /"command": "python3", "args": \["-m"/.test(e.message), command);
    }
    for (const args of [[], ['-u'], ['-'], ['-X', 'utf8']]) {
      assert.throws(() => withDebugpy(stdio('python3', args), 1), /name no script or module/, JSON.stringify(args));
    }
  });

  it('starts a real Python server under debugpy on the port MCP Host chose; the server\'s stderr cannot move it', async () => {
    try { execFileSync(PYTHON, ['-c', 'import debugpy']); } catch {
      assert.fail(`debugpy is not installed for ${PYTHON}: install Debian's python3-debugpy (.ci/run does)`);
    }
    const { host } = createTestHost({ debuggers: () => true });
    try {
      // Attacker: the server announces another debugger address before it answers initialize.
      const forge = 'import sys; sys.stderr.write("Debugger listening on ws://10.0.0.5:9229/x\\nDebugger listening on ws://127.0.0.1:9/x\\n"); sys.stderr.flush()';
      await host.apply({ py: { command: PYTHON, args: ['-X', 'frozen_modules=off', '-c', `${forge}; import runpy; runpy.run_path(${JSON.stringify(FIXTURE)}, run_name="__main__")`], dev: { debug: { type: 'python' } } } });
      const conn = host.require('py');
      assert.equal(conn.state, 'running', conn.message);
      const port = conn.inspectorPort;
      assert.ok(port !== undefined && port !== 9 && port !== 9229, `the port is MCP Host's (${port})`);
      const who = JSON.parse(text(await conn.callTool('whoami', {}))) as { pid: number; debugpy: boolean };
      assert.equal(who.debugpy, true, 'the server runs under debugpy');
      assert.equal(who.pid, conn.pid, 'in the server process itself');
      const answer = await dapInitialize(port);
      assert.equal(answer.success, true, 'debugpy answers a debugger on that port');
      await host.apply({ bad: { command: 'uvx', args: ['some-server'], dev: { debug: { type: 'python' } } } });
      const bad = host.require('bad');
      assert.equal(bad.state, 'error');
      assert.match(bad.message ?? '', /"command" must be one \(python, python3…\), not "uvx"/);
    } finally { await host.shutdown(); }
  });

  // Found by an outside attack: `-mserver` passed as an interpreter option, so the server ran without debugpy
  // while MCP Host named a port nobody held (anyone could take it and receive the attach).
  it('ATTACKER: an option that hides what it runs (-mserver, -cCODE, -Im, --) is refused, never run undebugged', () => {
    const at = (args: string[]) => withDebugpy(stdio('python3', args), 4321).args;
    for (const args of [['-mecho_server', 'x'], ['-cprint(1)'], ['-Im', 'srv'], ['-Ic', 'code'], ['--', 's.py'], ['--help'], ['-I', '-mx'], ['-Ixm', 's.py']]) {
      assert.throws(() => at(args), (e: Error) => e instanceof DebugpyLaunchError && /Write each interpreter option as its own argument/.test(e.message), JSON.stringify(args));
    }
    assert.deepEqual(at(['-Xfrozen_modules=off', 's.py']), ['-Xfrozen_modules=off', '-m', 'debugpy', '--listen', '127.0.0.1:4321', 's.py'], 'an option with its value attached');
    assert.deepEqual(at(['-IB', '-W', 'ignore', '-m', 'srv']), ['-IB', '-W', 'ignore', '-m', 'debugpy', '--listen', '127.0.0.1:4321', '-m', 'srv'], 'combined flags without values');
    assert.deepEqual(at(['--check-hash-based-pycs', 'never', 's.py']).slice(2, 4), ['-m', 'debugpy']);
    // Found by the second outside attack: valid command lines the first strict reading refused.
    assert.deepEqual(at(['-IW', 'error', 's.py']), ['-IW', 'error', '-m', 'debugpy', '--listen', '127.0.0.1:4321', 's.py'], 'a group ending in -W takes the next argument');
    assert.deepEqual(at(['-sXdev', '-BWignore', 's.py']).slice(2, 4), ['-m', 'debugpy'], 'a group ending in -X/-W takes the rest');
    const py = (args: string[]) => withDebugpy(stdio('py', args), 4321).args;
    assert.deepEqual(py(['-3', '-m', 'srv']), ['-3', '-m', 'debugpy', '--listen', '127.0.0.1:4321', '-m', 'srv'], 'the Windows launcher\'s version option');
    assert.deepEqual(py(['-3.12-64', 'server.py']).slice(0, 2), ['-3.12-64', '-m']);
    assert.deepEqual(py(['-V:3.12', '-u', 's.py']).slice(0, 3), ['-V:3.12', '-u', '-m']);
    assert.throws(() => at(['-3', 's.py']), DebugpyLaunchError, 'a version option is the launcher\'s, not python3\'s');
  });

  // Found by an outside attack: `mcp-host serve` (no debugger) started debugpy, whose port stayed open for the
  // server's life: any local process could connect and have it evaluate code in the server.
  it('ATTACKER: an embedder that attaches no debugger (the CLI), or has none for Python, runs the server without a debug port, and the log says why', async () => {
    for (const debuggers of [undefined, () => 'VS Code has no Python debugger to attach with'] as const) {
      const { host, loggers } = createTestHost(debuggers ? { debuggers } : {});
      try {
        await host.apply({ py: { command: PYTHON, args: ['-X', 'frozen_modules=off', FIXTURE], dev: { debug: { type: 'python' } } }, node: { command: process.execPath, args: [path.resolve(__dirname, '../fixtures/servers/debuggee.js')], dev: { debug: { type: 'node' } } } });
        for (const name of ['py', 'node']) {
          const conn = host.require(name);
          await waitForState(conn, 'running', 30_000);
          assert.equal(conn.inspectorPort, undefined, `${name}: no debug port`);
        }
        assert.equal((JSON.parse(text(await host.require('py').callTool('whoami', {}))) as { debugpy: boolean }).debugpy, false, 'no debugpy in the server');
        assert.match(loggers.get('py')!.text(), debuggers ? /dev\.debug "python" is ignored: VS Code has no Python debugger to attach with\. The server runs without a debug port/ : /dev\.debug "python" is ignored: this application attaches no debugger/);
      } finally { await host.shutdown(); }
    }
  });

  // Found by an outside attack: a sandbox has a loopback of its own (Linux: its own network namespace), so the
  // debugger on this computer's loopback would attach to whichever local process took the port.
  it('ATTACKER: dev.debug on a sandboxed server is refused, saying how to debug it', async function () {
    if (process.platform !== 'linux') this.skip();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-host-debug-sandbox-'));
    const storage = path.join(dir, 'storage');
    mkdirSync(storage);
    const sandbox: SandboxPort = {
      runtime: process.execPath, cli: srtCli, storageDir: storage, protectedPaths: [storage], ripgrep: findRipgrep(),
      sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => true, allowUnsandboxed: () => false,
    };
    const { host } = createTestHost({ sandbox, debuggers: () => true, variables: { workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: os.homedir(), env: process.env } });
    try {
      await host.apply({
        py: { command: PYTHON, args: ['-X', 'frozen_modules=off', FIXTURE], sandbox: true, dev: { debug: { type: 'python' } } },
        node: { command: process.execPath, args: [path.resolve(__dirname, '../fixtures/servers/debuggee.js')], sandbox: true, dev: { debug: { type: 'node' } } },
      });
      for (const name of ['py', 'node']) {
        const conn = host.require(name);
        await waitForState(conn, 'error', 30_000);
        assert.match(conn.message ?? '', /dev\.debug cannot debug a sandboxed server: the sandbox gives it a loopback of its own/, name);
        assert.equal(conn.pid, undefined, `${name}: nothing ran`);
      }
    } finally {
      await host.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

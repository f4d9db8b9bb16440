/**
 * dev.debug "python" in the core: the launch under debugpy, the refusals, and a real Python server started
 * under debugpy whose port MCP Host chose (a DAP `initialize` answered there), which a forged announcement
 * on the server's stderr cannot move. Needs debugpy for /usr/bin/python3 (Debian's python3-debugpy, which
 * .ci/run installs): without it the start test fails saying so.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { DebugpyLaunchError, parseServers, withDebugpy } from '../../src/core';
import { createTestHost, text } from './helpers';

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
    const { host } = createTestHost();
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
});

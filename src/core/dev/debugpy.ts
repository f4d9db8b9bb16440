/**
 * `dev.debug: { "type": "python" }`: start a Python server under debugpy, listening on loopback, so the
 * embedder can attach a debugger (VS Code's Python Debugger, debug type `debugpy`).
 *
 * The port is chosen by the host before the start and never read from the server: stderr is the
 * server's to write, so a forged announcement cannot point the debugger elsewhere. debugpy runs inside
 * the server's interpreter (`python -m debugpy --listen 127.0.0.1:PORT <script | -m module> …`), so only
 * a declaration whose command is a Python interpreter can be debugged; anything else (`uvx`, a shell, a
 * shebang script) gets an error saying how to declare it, rather than a server that silently runs undebugged.
 */
import { createServer } from 'node:net';
import type { ResolvedLaunch } from '../config/types';

type StdioLaunch = Extract<ResolvedLaunch, { type: 'stdio' }>;

export class DebugpyLaunchError extends Error {}

/** `python`, `python3`, `python3.12`, `pythonw`, `py` (Windows launcher), with or without `.exe`. */
const INTERPRETER = /^(python(\d+(\.\d+)*)?w?|py)$/;
/** Interpreter options that take the next argument as their value. */
const WITH_VALUE = new Set(['-X', '-W', '-Q', '--check-hash-based-pycs']);

export function isPythonInterpreter(command: string): boolean {
  return INTERPRETER.test(programName(command).toLowerCase().replace(/\.exe$/, ''));
}

/** The file name of a command, with either separator (a Windows path declared on any machine). */
function programName(command: string): string {
  return command.split(/[\\/]/).pop() ?? command;
}

/** The launch under debugpy on `127.0.0.1:port`; throws {@link DebugpyLaunchError} when it cannot be. */
export function withDebugpy(launch: StdioLaunch, port: number): StdioLaunch {
  if (!isPythonInterpreter(launch.command)) {
    throw new DebugpyLaunchError(`dev.debug "python" runs the server under debugpy inside its Python interpreter, so "command" must be one (python, python3…), not "${programName(launch.command)}". Declare it as e.g. "command": "python3", "args": ["-m", "your_server"] (or the script's path).`);
  }
  // The interpreter's own options stay before `-m debugpy`; debugpy takes what runs after its own options.
  let i = 0;
  while (i < launch.args.length && launch.args[i].startsWith('-') && launch.args[i] !== '-m' && launch.args[i] !== '-c' && launch.args[i] !== '-') {
    i += WITH_VALUE.has(launch.args[i]) ? 2 : 1;
  }
  if (i >= launch.args.length || launch.args[i] === '-') {
    throw new DebugpyLaunchError('dev.debug "python": the arguments name no script or module (-m) to run under debugpy.');
  }
  return { ...launch, args: [...launch.args.slice(0, i), '-m', 'debugpy', '--listen', `127.0.0.1:${port}`, ...launch.args.slice(i)] };
}

/** A loopback port free right now (the OS picks it); debugpy binds it a moment later. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no loopback port'))));
    });
  });
}

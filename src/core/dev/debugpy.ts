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
  const i = targetIndex(launch.args, programName(launch.command).toLowerCase().replace(/\.exe$/, '') === 'py');
  return { ...launch, args: [...launch.args.slice(0, i), '-m', 'debugpy', '--listen', `127.0.0.1:${port}`, ...launch.args.slice(i)] };
}

/**
 * Where the script, `-m module` or `-c code` starts in a Python command line: the interpreter's own options
 * stay before `-m debugpy`, debugpy takes what runs after its own options. Read as CPython reads them; a
 * form that would leave the target inside another argument (`-mserver`, `-Im server`, `-cCODE`, `--`) is
 * refused, so the server never runs undebugged while a debugger is told to attach to an empty port.
 */
function targetIndex(args: readonly string[], launcher: boolean): number {
  const refuse = (why: string) => new DebugpyLaunchError(`dev.debug "python": ${why} Write each interpreter option as its own argument, and "-m" or "-c" apart from its value: "args": ["-m", "your_server"].`);
  let i = 0;
  // The Windows launcher's own version options come first (`py -3.12 …`, `py -V:3.12 …`).
  if (launcher) while (i < args.length && /^-(?:\d+(?:\.\d+)*(?:-(?:32|64))?|V:.+)$/.test(args[i])) i++;
  while (i < args.length) {
    const a = args[i];
    if (a === '-m' || a === '-c') return i;
    if (!a.startsWith('-')) return i;
    if (a === '-') throw new DebugpyLaunchError('dev.debug "python": the arguments name no script or module (-m) to run under debugpy.');
    if (a === '--check-hash-based-pycs') { i += 2; continue; }
    if (a.startsWith('--')) throw refuse(`"${a}" is not an interpreter option MCP Host can keep before debugpy.`);
    // A group as CPython reads it: flags, then at most one of -W/-X/-Q, whose value is the rest of the
    // group or, when nothing is left, the next argument (`-IW error`, `-sXdev`).
    const group = /^-([bBdEhiIOPqRsSuvVx?]*)(?:([WXQ])(.*))?$/.exec(a);
    if (!group || (!group[1] && !group[2])) throw refuse(`"${a}" holds an option MCP Host cannot separate from what it runs.`);
    i += group[2] && group[3] === '' ? 2 : 1;
  }
  throw new DebugpyLaunchError('dev.debug "python": the arguments name no script or module (-m) to run under debugpy.');
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

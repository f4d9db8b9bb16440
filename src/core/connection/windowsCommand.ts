/**
 * How a stdio server starts on Windows, as a pure function of the command, its arguments and the
 * environment (unit-tested on every platform). Two rules:
 *
 * - A bare command name is looked up in the absolute folders of PATH, with PATHEXT — never in the
 *   working directory. Windows itself (cmd.exe, and libuv's search behind `spawn`) tries the current
 *   folder first, so `npx` in a cloned repository would run its `npx.cmd`. cross-spawn resolves through
 *   `which`, which does the same (after a chdir to the server's cwd), so it is not used here.
 * - No shell interprets arguments. Programs (.exe, .com) are started directly; Node quotes their
 *   arguments. Batch files (.cmd/.bat, e.g. the `npx` shim) can only run in cmd.exe, which expands
 *   `%VAR%` and splits at `&`, `|`, `<`, `>` — and a shim's `%*` hands the arguments to a second parse.
 *   So every argument is quoted, `"` is written `""` (which keeps cmd's quote state and which the C
 *   runtime reads back as `"`), and `%` is written `%%cd:~,%` (an empty substring of %cd%, so no
 *   `%NAME%` can form). This is the escaping Rust's standard library adopted for CVE-2024-24576
 *   ("BatBadBut"); cross-spawn's caret escaping is only applied twice for shims under node_modules\.bin,
 *   which leaves `npx.cmd` open to an argument with a `"`.
 */
import * as path from 'node:path';

const win = path.win32;

export interface WindowsSpawnContext {
  /** The child's environment: PATH and PATHEXT come from here (names are case-insensitive on Windows). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The host's own environment: ComSpec / SystemRoot, and PATH / PATHEXT when the child's lacks them. */
  readonly hostEnv: Readonly<Record<string, string | undefined>>;
  /** The server's working directory: only for a command given as a relative path (`bin\server.exe`). */
  readonly cwd?: string;
  readonly isFile: (file: string) => boolean;
}

/** What to hand to `child_process.spawn` (never with `shell`). */
export interface WindowsSpawnPlan {
  readonly file: string;
  readonly args: string[];
  /** true: `args` are already one command line for cmd.exe (Node must not quote them again). */
  readonly windowsVerbatimArguments: boolean;
  /** argv[0] as the child sees it (a verbatim command line would otherwise start with an unquoted path). */
  readonly argv0?: string;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
const PROGRAM = /\.(exe|com)$/i;
const BATCH = /\.(cmd|bat)$/i;

export function planWindowsSpawn(command: string, args: readonly string[], ctx: WindowsSpawnContext): WindowsSpawnPlan {
  const file = resolveWindowsCommand(command, ctx);
  if (PROGRAM.test(file)) return { file, args: [...args], windowsVerbatimArguments: false };
  if (BATCH.test(file)) {
    return { file: windowsSystemProgram('cmd.exe', ctx.hostEnv), args: ['/e:ON', '/v:OFF', '/d', '/s', '/c', `"${batchCommandLine(file, args)}"`], windowsVerbatimArguments: true, argv0: 'cmd.exe' };
  }
  throw new Error(`Could not start "${command}": ${file} is not a program Windows can start (.exe, .com, .cmd or .bat). Declare the program that runs it as the command, e.g. "command": "node", "args": ["${file}"].`);
}

/** The file `command` names: a path as given (relative to `cwd`), a bare name from PATH only. */
export function resolveWindowsCommand(command: string, ctx: WindowsSpawnContext): string {
  const pathExt = (envValue(ctx.env, 'PATHEXT') ?? envValue(ctx.hostEnv, 'PATHEXT') ?? DEFAULT_PATHEXT)
    .split(';').map(e => e.trim().toLowerCase()).filter(e => /^\.[^.\\/]+$/.test(e));
  const candidates = (base: string) => [...(win.extname(base) ? [base] : []), ...pathExt.map(e => base + e)];
  if (/[\\/]/.test(command) || win.isAbsolute(command) || /^[A-Za-z]:/.test(command)) {
    const base = win.isAbsolute(command) || !ctx.cwd ? command : win.resolve(ctx.cwd, command);
    const found = candidates(base).find(ctx.isFile);
    if (found) return found;
    throw new Error(`Could not start "${command}": no such file (also tried ${pathExt.join(', ')}).`);
  }
  const dirs = (envValue(ctx.env, 'PATH') ?? envValue(ctx.hostEnv, 'PATH') ?? '').split(';')
    .map(d => d.trim().replace(/^"(.*)"$/, '$1'))
    // Relative entries ("." or "node_modules\.bin") would be resolved against the working directory.
    .filter(d => d && win.isAbsolute(d) && !/^[\\/](?![\\/])/.test(d));
  for (const dir of dirs) {
    const found = candidates(win.join(dir, command)).find(ctx.isFile);
    if (found) return found;
  }
  throw new Error(`Could not start "${command}": command not found on PATH. Check that it is installed and on PATH, or give its full path (on Windows MCP Host never runs a program from the working directory).`);
}

/** The text after `cmd.exe /s /c` (without the outer quotes) that runs `script` with `args` and nothing else. */
export function batchCommandLine(script: string, args: readonly string[]): string {
  if (script.includes('"') || /[\r\n\0]/.test(script)) throw new Error(`Cannot run the batch file ${script}: its path contains a quote or a line break.`);
  const parts = [`"${escapePercent(script)}"`];
  for (const arg of args) {
    // A line break ends the command in cmd.exe: what follows it would run as a command of its own.
    if (/[\r\n\0]/.test(arg)) throw new Error(`Cannot pass an argument with a line break to the batch file ${script} (cmd.exe would run the rest as a command): ${JSON.stringify(arg)}`);
    parts.push(quoteBatchArgument(arg));
  }
  return parts.join(' ');
}

function quoteBatchArgument(arg: string): string {
  // Plain words stay as they are (a batch file comparing `%1` to `--help` still matches); `,;=` split
  // arguments in cmd.exe, so they are quoted like everything else.
  if (/^[A-Za-z0-9_\-./:@\\]+$/.test(arg)) return arg;
  let out = '"';
  let backslashes = 0;
  for (const c of arg) {
    if (c === '\\') { backslashes++; out += c; continue; }
    // The C runtime reads 2n backslashes before a quote as n; a lone backslash run stays literal.
    if (c === '"') out += '\\'.repeat(backslashes) + '""';
    else if (c === '%') out += escapePercent(c);
    else out += c;
    backslashes = 0;
  }
  return `${out}${'\\'.repeat(backslashes)}"`;
}

function escapePercent(s: string): string {
  return s.replace(/%/g, '%%cd:~,%');
}

/** A program in Windows' System32 by its absolute path (so neither the cwd nor PATH can substitute it). */
export function windowsSystemProgram(name: 'cmd.exe' | 'taskkill.exe', hostEnv: Readonly<Record<string, string | undefined>>): string {
  const comSpec = envValue(hostEnv, 'ComSpec');
  if (name === 'cmd.exe' && comSpec && win.isAbsolute(comSpec) && win.basename(comSpec).toLowerCase() === 'cmd.exe') return comSpec;
  const root = envValue(hostEnv, 'SystemRoot') ?? envValue(hostEnv, 'windir');
  return win.join(root && win.isAbsolute(root) ? root : 'C:\\Windows', 'System32', name);
}

function envValue(env: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const key = Object.keys(env).find(k => k.toUpperCase() === name.toUpperCase());
  const value = key === undefined ? undefined : env[key];
  return value === undefined || value === '' ? undefined : value;
}

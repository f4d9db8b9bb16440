#!/usr/bin/env node
/**
 * `mcp-host`: the headless CLI on the embeddable core. It runs only the servers that the files the
 * user names (or the workspace's `.vscode/settings.json` / `.vscode/mcp.json`) declare, with the same
 * parser, variable resolution, budgets and redaction as the extension. Results on stdout (text or
 * `--json`), progress and logs on stderr. Exit codes: 0 ok, 1 failure, 2 usage.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
// The core's SDK-free entry here, not its index: a warm `call` through `serve` never needs the SDK (serveCall.ts);
// the commands that run a host load the index with runHost.ts.
import { referencedInputs } from '../core/light';
import { cliVariables } from './cliVariables';
import { envValues, loadDeclarations } from './declarations';
import { readFiles, UsageError } from './files';
import { createInputResolver, terminalPrompt } from './inputs';
import { Output, type Writable } from './output';
import { askTrust, consentToRun, describeLaunch, TrustStore, trustKeys } from './trust';
import { serveFile } from './serveRecord';
import { callThroughServe } from './serveCall';
import { printCallResult } from './commands';

const USAGE = `Usage: mcp-host [options] <command>

Commands:
  list                            servers with their tools, resources and prompts
  call <server> <tool> [json]     call a tool (arguments: a JSON object)
  read <server> <uri>             read a resource
  prompt <server> <name> [args]   get a prompt (arguments: a JSON object or key=value ...)
  check                           start every server, report state and counts; exit 1 on any failure
  trust                           show the workspace's servers and trust them as they are declared now
  serve                           serve every server to terminal agents (Streamable HTTP on 127.0.0.1) until
                                  Ctrl-C; prints the address and a token; a "call" of the same declarations
                                  reuses it instead of starting the server

Options:
  -c, --config <file>     a file declaring servers (repeatable): VS Code settings.json ("mcpHost.servers"),
                          .vscode/mcp.json, claude_desktop_config.json, Cursor's mcp.json, or the names
                          claude-desktop / cursor for those apps' own files.
                          Default: .vscode/settings.json and .vscode/mcp.json of the workspace.
  -w, --workspace <dir>   the workspace folder (\${workspaceFolder}, roots); default: the current directory
  -y, --yes               run the workspace's servers this once without asking (CI)
      --json              machine-readable output on stdout
      --timeout <seconds> start and request timeout (default 60)
      --port <n>          serve: the port (default: any free one)
      --allow <pattern>   serve: server/tool or server/* an agent may run without being asked (repeatable)
  -q, --quiet             no progress on stderr
  -v, --verbose           the servers' logs on stderr
  -h, --help
      --version

A workspace's own files are the repository's: before running what they declare, mcp-host shows each
command line and URL and asks (in a terminal), or needs --yes, or the folder trusted with "mcp-host trust"
(kept per declaration in the user's configuration folder; a changed declaration is asked about again).

\${input:id} values come from the environment variable MCP_HOST_INPUT_<SERVER>__<ID>: the server's name
and the input id, upper case, other characters than letters and digits as _ (a value is for one server);
or, in a terminal, from a prompt that does not echo.
`;

/** Set by packages/core/build.mjs; absent when run from the TypeScript output (tests). */
declare const MCP_HOST_CORE_VERSION: string | undefined;
const VERSION = typeof MCP_HOST_CORE_VERSION === 'string' ? MCP_HOST_CORE_VERSION : '0.0.0-development';

function objectArg(text: string | undefined, what: string): Record<string, unknown> {
  if (text === undefined) return {};
  let v: unknown;
  try { v = JSON.parse(text); } catch (e) { throw new UsageError(`${what} must be a JSON object: ${(e as Error).message}`); }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`${what} must be a JSON object, e.g. '{"message": "hi"}'`);
  return v as Record<string, unknown>;
}

function promptArgs(rest: readonly string[]): Record<string, string> {
  if (rest.length === 1 && rest[0].trim().startsWith('{')) {
    return Object.fromEntries(Object.entries(objectArg(rest[0], 'prompt arguments')).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  }
  return Object.fromEntries(rest.map(a => {
    const at = a.indexOf('=');
    if (at <= 0) throw new UsageError(`prompt arguments are key=value (got "${a}")`);
    return [a.slice(0, at), a.slice(at + 1)];
  }));
}

async function run(argv: readonly string[], out: Output, setOut: (o: Output) => void): Promise<number> {
  const { values: opts, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      config: { type: 'string', short: 'c', multiple: true },
      workspace: { type: 'string', short: 'w' },
      json: { type: 'boolean' },
      timeout: { type: 'string' },
      port: { type: 'string' },
      allow: { type: 'string', multiple: true },
      yes: { type: 'boolean', short: 'y' },
      quiet: { type: 'boolean', short: 'q' },
      verbose: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
  });
  const [command, ...rest] = positionals;
  if (opts.version) { out.line(VERSION); return 0; }
  if (opts.help || !command) { out.line(USAGE); return opts.help ? 0 : 2; }
  const arity: Record<string, [number, number]> = { list: [0, 0], check: [0, 0], trust: [0, 0], serve: [0, 0], call: [2, 3], read: [2, 2], prompt: [2, Infinity] };
  const [min, max] = arity[command] ?? [-1, -1];
  if (min < 0) throw new UsageError(`unknown command "${command}"`);
  if (rest.length < min || rest.length > max) throw new UsageError(`wrong number of arguments for ${command}`);
  const timeoutMs = opts.timeout === undefined ? 60_000 : Number(opts.timeout) * 1000;
  if (!(timeoutMs > 0)) throw new UsageError('--timeout takes a positive number of seconds');
  // Arguments are checked before anything is read or started: a typo costs no server start.
  const toolArgs = command === 'call' ? objectArg(rest[2], 'tool arguments') : {};
  const promptArguments = command === 'prompt' ? promptArgs(rest.slice(2)) : {};

  const workspace = path.resolve(opts.workspace ?? process.cwd());
  const loaded = loadDeclarations(readFiles(opts.config ?? [], workspace));
  if (!loaded.files.length && !loaded.problems.length) throw new UsageError(`no servers declared: ${workspace} has no .vscode/settings.json or .vscode/mcp.json with servers; name a file with --config`);

  const resolver = createInputResolver(loaded.inputs, loaded.secrets, process.env, terminalPrompt(process.stdin, process.stderr),
    new Map(Object.entries(loaded.servers).map(([name, decl]) => [name, referencedInputs(decl)])));
  const fromEnv = envValues(loaded.servers, process.env);
  const secrets = () => [...resolver.values, ...fromEnv];
  out = new Output(secrets, stdout, stderr, opts.quiet);
  setOut(out);
  for (const f of loaded.files) out.progress(`${f.path}: ${f.servers} server(s)`);

  if (command === 'trust') return await trustWorkspace(loaded.servers, loaded.secrets, workspace, opts.config?.length ? opts.config : undefined, out);
  const served = serveFile(workspace, loaded.servers);
  // What a fresh call runs without asking: the servers of named files; the workspace's own only while trusted as declared now.
  const runUnasked = async (names: readonly string[]): Promise<readonly string[]> => {
    const known = names.filter(n => Object.hasOwn(loaded.servers, n));
    if (opts.config?.length) return known;
    const folder = fs.realpathSync(workspace);
    const keys = await trustKeys(folder, Object.fromEntries(known.map(n => [n, loaded.servers[n]])), cliVariables(workspace), loaded.secrets);
    const pending = new Set(TrustStore.load().untrusted(folder, keys));
    return known.filter(n => !pending.has(n));
  };
  if (command === 'call' && (await runUnasked([rest[0]])).length) {
    // A running `serve` of these very declarations holds the servers warm; its token runs only what this call would run unasked.
    // Ctrl-C cancels the call in serve too: the session is ended (serveCall.ts), which cancels what runs in it.
    const abort = new AbortController();
    const onSigint = () => abort.abort();
    process.once('SIGINT', onSigint);
    let result;
    try {
      result = await callThroughServe(served, rest[0], rest[1], toolArgs, abort.signal, timeoutMs);
    } catch (e) {
      if (abort.signal.aborted) return 130;
      throw e;
    } finally {
      process.off('SIGINT', onSigint);
    }
    if (abort.signal.aborted) return 130;
    if (result) return printCallResult({ out, json: !!opts.json }, rest[0], rest[1], result);
  }
  const port = opts.port === undefined ? undefined : Number(opts.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) throw new UsageError('--port takes a port number');

  // call/read/prompt start only the server they talk to.
  const target = command === 'list' || command === 'check' || command === 'serve' ? undefined : rest[0];
  let raw = loaded.servers;
  if (target !== undefined) {
    if (!Object.hasOwn(raw, target)) throw new UsageError(`no server "${target}" is declared${Object.keys(raw).length ? ` (declared: ${Object.keys(raw).join(', ')})` : ''}`);
    raw = { [target]: raw[target] };
  }
  // Named files (-c) are the user's choice; the workspace's own are the repository's.
  if (!opts.config?.length) {
    const interactive = process.stdin.isTTY && process.stderr.isTTY;
    const run = await consentToRun({
      folder: fs.realpathSync(workspace), servers: raw, store: TrustStore.load(), yes: !!opts.yes, variables: cliVariables(workspace), moved: loaded.secrets,
      ask: interactive ? q => askTrust(process.stdin, process.stderr, q) : undefined,
      say: line => out.error(line),
    }, message => new UsageError(message));
    if (!run) return 1;
  }

  const { runHost } = await import('./runHost.js');
  return runHost({ command, rest, opts, out, raw, loaded, resolver, target, timeoutMs, toolArgs, promptArguments, workspace, served, runUnasked, port, version: VERSION, secrets });
}

/** `trust`: records the workspace's current declarations (and env files) as trusted, after showing them. */
async function trustWorkspace(servers: Readonly<Record<string, unknown>>, moved: ReadonlyMap<string, string>, workspace: string, configs: readonly string[] | undefined, out: Output): Promise<number> {
  if (configs) throw new UsageError('trust is for a workspace\'s own .vscode files; files named with --config run without asking');
  const store = TrustStore.load();
  const folder = fs.realpathSync(workspace);
  for (const [name, decl] of Object.entries(servers)) out.line(describeLaunch(name, decl));
  store.trust(folder, await trustKeys(folder, servers, cliVariables(workspace), moved));
  out.line(`trusted ${Object.keys(servers).length} server(s) of ${folder} as declared now (kept in ${store.file})`);
  return 0;
}

/**
 * stdout and stderr that stop taking text once their reader is gone: `mcp-host list | head -1` closes
 * the pipe after one line, and the rest of the output has nowhere to go, which is no error (EPIPE
 * would otherwise end the process with a stack trace before the servers are stopped).
 */
function guarded(stream: NodeJS.WriteStream): Writable & { readonly closed: boolean } {
  let closed = false;
  stream.on('error', () => { closed = true; });
  return { write: (text: string) => closed || stream.write(text), get closed() { return closed; } };
}
const stdout = guarded(process.stdout);
const stderr = guarded(process.stderr);

async function main(): Promise<void> {
  let out = new Output(() => [], stdout, stderr);
  let code: number;
  try {
    code = await run(process.argv.slice(2), out, o => { out = o; });
  } catch (e) {
    // `code` is Node's string for parseArgs, but a number on an MCP error: only a string is a usage code.
    const errorCode = (e as { code?: unknown }).code;
    if (e instanceof UsageError || (typeof errorCode === 'string' && errorCode.startsWith('ERR_PARSE_ARGS'))) {
      out.error(`${(e as Error).message} (mcp-host --help for usage)`);
      code = 2;
    } else {
      out.error(`error: ${e instanceof Error ? e.message : String(e)}`);
      code = 1;
    }
  }
  // Child processes and timers are gone after shutdown; leave once stdout has taken everything.
  if (stdout.closed) process.exit(code);
  process.stdout.write('', () => process.exit(code));
}

void main();

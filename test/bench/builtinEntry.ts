// extensionTestsPath of the built-in comparison (test/bench/builtin.mjs): runs in the extension host of a
// VS Code where MCP Host is installed from its production .vsix and the same stdio server is declared
// twice, as `echo` in `mcpHost.servers` and as `builtinEcho` in VS Code's own `mcp` setting. Starts the built-in
// one, then times `vscode.lm.invokeTool` of our `mcpHost_callTool` against the built-in host's tool for
// the same server tool, and the same tool through MCP Host's native route (VS Code's MCP client talking to
// MCP Host's gateway), interleaved (the order changes every round), after a warm-up. Also times our
// exported API (no language-model tool layer) and `mcpHostBench_noop`, a tool of the bench's entry
// extension that returns at once: the floor of any extension tool (VS Code's prepareInvocation and
// invoke round trips to the extension host, nothing else), one plain extension host → workbench round
// trip, and the same server's `echo` spoken to over a pipe by hand (JSON lines, no SDK) from this
// extension host: what the server and the pipe cost. Writes the samples to MCP_HOST_BENCH_OUT and a
// results file in the shape test/rig/runIntegration.mjs expects.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../src/vscode/api';
import { finishEntry } from './entryResult';

const SERVER = 'echo';
/** The same server in VS Code's own `mcp` setting (test/bench/builtin.mjs). */
const BUILTIN_SERVER = 'builtinEcho';
const TOOL = 'echo';
const WARMUP = Number(process.env.MCP_HOST_BENCH_WARMUP ?? 20);
const CALLS = Number(process.env.MCP_HOST_BENCH_CALLS ?? 100);
const NOOP = 'mcpHostBench_noop';

export interface BuiltinSample {
  builtinTool: string;
  /** The same server through MCP Host's native route (its definition, VS Code's MCP client, MCP Host's gateway). */
  nativeTool: string;
  /** From `workbench.mcp.startServer` of the native definition (MCP Host's server already running) until its tool is in vscode.lm.tools. */
  nativeToolsMs: number;
  /** ms per call, same index = same pair. */
  ours: number[];
  builtin: number[];
  native: number[];
  api: number[];
  noop: number[];
  /** tools/call echo written to the server's stdin by hand, until its answer line arrived. */
  raw: number[];
  /** One extension host → workbench → extension host round trip (a `setContext` command). */
  roundTrip: number[];
  /** Where a no-op call's time goes: until VS Code asked prepareInvocation, from there until invoke, from invoke's return until the caller had the result. */
  noopSegments: { toPrepare: number[]; toInvoke: number[]; back: number[] };
  failures: { ours: number; builtin: number; native: number; api: number; noop: number; roundTrip: number; raw: number };
  firstFailure?: string;
}

/** Polls a condition that an event of another process makes true (no event reaches this extension for it). */
async function until<T>(what: string, get: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const t = Date.now();
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    // The tools VS Code lists say why a tool was not found (its naming, or nothing started).
    if (Date.now() - t > ms) throw new Error(`timed out waiting for ${what} (tools: ${vscode.lm.tools.map(x => x.name).filter(n => !n.startsWith('copilot')).join(', ').slice(0, 1500)})`);
    await new Promise(r => setTimeout(r, 20));
  }
}

/** The fixture server (the one both hosts run) on a pipe of our own: JSON lines, no SDK, no host. */
async function rawServer(): Promise<{ call(text: string): Promise<string>; dispose(): void }> {
  const child = spawn(process.env.MCP_HOST_BENCH_NODE ?? 'node', [path.join(__dirname, '..', 'fixtures', 'servers', 'crashing.js')], { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map<number, (line: string) => void>();
  let buffered = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffered += d;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const id = (JSON.parse(line) as { id?: number }).id;
      if (id !== undefined) waiting.get(id)?.(line);
    }
  });
  let next = 0;
  const request = (method: string, params: unknown) => new Promise<string>(resolve => {
    const id = ++next;
    waiting.set(id, line => { waiting.delete(id); resolve(line); });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-raw', version: '1' } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  return { call: text => request('tools/call', { name: 'echo', arguments: { text } }), dispose: () => child.kill() };
}

const textOf = (r: vscode.LanguageModelToolResult) => r.content.map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

async function measure(): Promise<BuiltinSample> {
  const ext = vscode.extensions.getExtension<McpHostApi>('mcp-host.mcp-host');
  if (!ext) throw new Error('mcp-host.mcp-host is not installed');
  const api = await ext.activate();
  await until('MCP Host\'s server "echo" to run', () => api.listServers().find(s => s.name === SERVER && s.state === 'running'));

  // The noop tool is declared by this run's development extension (test/fixtures/bench-entry-extension).
  let prepared = 0, invoked = 0;
  const noop = vscode.lm.registerTool<unknown>(NOOP, {
    prepareInvocation: () => { prepared = performance.now(); return undefined; },
    invoke: () => { invoked = performance.now(); return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart('ok')]); },
  });
  const raw = await rawServer();
  try {
    // VS Code's global auto-approve: the built-in host's tool runs without a dialog (its own consent
    // step is skipped; ours keeps asking unless mcpHost.tools.autoApprove allows echo/echo, as this run's settings do).
    await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
    // The `mcp` user setting of a remote window (code-server) is VS Code's "remote user" collection,
    // started by the remote extension host. VS Code reads it some time after startup and says nothing
    // when it has; until then starting the server is a no-op (and '*' may fail with "No delegate found"),
    // so: start it until its tools are there.
    // The built-in copy calls itself builtin-echo in serverInfo (test/bench/builtin.mjs): VS Code names an MCP
    // tool after its server's serverInfo name, so two copies of the fixture made one name for both routes.
    const builtinToolName = () => vscode.lm.tools.find(t => t.name.startsWith('mcp_') && /builtin/i.test(t.name) && /_echo$/.test(t.name))?.name;
    const builtinTool = await until('the built-in host to start `builtinEcho` and list its tools', async () => {
      await vscode.commands.executeCommand('workbench.mcp.startServer', `mcp.config.usrremote.${BUILTIN_SERVER}`, { autoTrustChanges: true, waitForLiveTools: true });
      return builtinToolName();
    });

    // MCP Host's native definition of the same server (mcpHost.chat.nativeServers is on by default): VS Code's
    // client reaches it through MCP Host's gateway. echo/echo is approved in MCP Host, so it is listed readOnlyHint.
    const t0 = performance.now();
    await vscode.commands.executeCommand('workbench.mcp.startServer', 'mcp-host.mcp-host/echo', { waitForLiveTools: false });
    const nativeTool = await until('the native route to list `echo`', () => vscode.lm.tools.find(t => t.name !== builtinTool && t.name.startsWith('mcp_') && !/builtin/i.test(t.name) && /_echo$/.test(t.name))?.name, 60_000);
    const nativeToolsMs = performance.now() - t0;

    const token = new vscode.CancellationTokenSource().token;
    const failures = { ours: 0, builtin: 0, native: 0, api: 0, noop: 0, roundTrip: 0, raw: 0 };
    const segments: BuiltinSample['noopSegments'] = { toPrepare: [], toInvoke: [], back: [] };
    let firstFailure: string | undefined;
    const fail = (kind: keyof typeof failures, why: string) => { failures[kind]++; firstFailure ??= `${kind}: ${why}`; };
    const timed = async (kind: keyof typeof failures, text: string, call: () => Thenable<string>): Promise<number | undefined> => {
      const t0 = performance.now();
      try {
        const out = await call();
        const ms = performance.now() - t0;
        if (!out.includes(text)) { fail(kind, `answer without "${text}": ${out.slice(0, 200)}`); return undefined; }
        return ms;
      } catch (e) {
        fail(kind, e instanceof Error ? e.message : String(e));
        return undefined;
      }
    };
    const runs = {
      ours: (text: string) => timed('ours', text, async () => textOf(await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: SERVER, tool: TOOL, arguments: { text } }, toolInvocationToken: undefined }, token))),
      builtin: (text: string) => timed('builtin', text, async () => textOf(await vscode.lm.invokeTool(builtinTool, { input: { text }, toolInvocationToken: undefined }, token))),
      native: (text: string) => timed('native', text, async () => textOf(await vscode.lm.invokeTool(nativeTool, { input: { text }, toolInvocationToken: undefined }, token))),
      api: (text: string) => timed('api', text, async () => (await api.callTool(SERVER, TOOL, { text })).content.map(c => (c.type === 'text' ? c.text : '')).join('')),
      noop: async () => {
        const t0 = performance.now();
        const ms = await timed('noop', 'ok', async () => textOf(await vscode.lm.invokeTool(NOOP, { input: {}, toolInvocationToken: undefined }, token)));
        if (ms !== undefined) {
          segments.toPrepare.push(prepared - t0);
          segments.toInvoke.push(invoked - prepared);
          segments.back.push(t0 + ms - invoked);
        }
        return ms;
      },
      raw: (text: string) => timed('raw', text, () => raw.call(text)),
      roundTrip: (text: string) => timed('roundTrip', '', async () => { await vscode.commands.executeCommand('setContext', 'mcpHostBench.tick', text); return ''; }),
    };
    const order = (i: number) => (i % 2 ? ['builtin', 'native', 'ours', 'noop', 'raw', 'api', 'roundTrip'] as const : ['native', 'ours', 'builtin', 'roundTrip', 'api', 'raw', 'noop'] as const);

    for (let i = 0; i < WARMUP; i++) for (const k of order(i)) await runs[k](`warm-${i}`);
    for (const k of Object.keys(failures) as (keyof typeof failures)[]) failures[k] = 0;
    firstFailure = undefined;

    for (const list of Object.values(segments)) list.length = 0;
    const sample: BuiltinSample = { builtinTool, nativeTool, nativeToolsMs, ours: [], builtin: [], native: [], api: [], noop: [], raw: [], roundTrip: [], noopSegments: segments, failures };
    for (let i = 0; i < CALLS; i++) {
      for (const k of order(i)) {
        const ms = await runs[k](`call-${i}`);
        if (ms !== undefined) sample[k].push(ms);
      }
    }
    if (firstFailure) sample.firstFailure = firstFailure;
    return sample;
  } finally {
    noop.dispose();
    raw.dispose();
  }
}

export async function run(): Promise<void> {
  const started = Date.now();
  let sample: BuiltinSample | undefined;
  let error: string | undefined;
  try {
    sample = await measure();
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  finishEntry('built-in comparison', started, sample, error);
}

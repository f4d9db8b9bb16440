// extensionTestsPath of the on-demand benchmark (test/bench/onDemand.mjs). MCP Host is installed from its
// .vsix; the same 10 server-everything servers are declared as s0…s9 in `mcpHost.servers` and as b0…b9 in
// VS Code's own `mcp` setting. The window is reloaded between phases (workbench.action.reloadWindow: the
// new extension host runs this entry again, the phase is in MCP_HOST_BENCH_STATE):
//   fill      MCP Host (autostart onDemand) starts each server once to cache its catalogue; VS Code's host
//             is made to start its own ten once (its tool cache); reload.
//   onDemand  the window is left idle for 20 s: server processes and their RSS; then each server's first
//             tool call, start included, ours (`mcpHost_callTool`) and the built-in's, through
//             vscode.lm.invokeTool, alternating who goes first; `mcpHost.autostart` → always; reload.
//   always    idle 20 s again: processes and RSS; then 20 crashing-fixture servers c0…c19 replace the ten
//             (autostart onDemand) and fill their cache; reload.
//   chat      one @mcp turn of the scripted model, offered the cached tools of all 20, calling two:
//             how many processes it started.
// Writes the figures of every phase to MCP_HOST_BENCH_OUT and a results file for the rig (entryResult.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../src/vscode/api';
import { finishEntry } from './entryResult';
import { serverProcesses, type ServerProcess } from './serverProcesses';

const N = Number(process.env.MCP_HOST_BENCH_SERVERS ?? 10);
const CHAT_SERVERS = 20;
const CHAT_USED = ['c3', 'c17'];
const IDLE_MS = Number(process.env.MCP_HOST_BENCH_IDLE_MS ?? 20_000);
const STATE = process.env.MCP_HOST_BENCH_STATE!;

export interface IdleFigure { ours: ServerProcess[]; builtin: ServerProcess[]; leftOver: ServerProcess[]; afterMs: number }
export interface ColdCalls { ours: number[]; builtin: number[]; failures: number; firstFailure?: string }
export interface ChatFigure { started: string[]; offeredServers: number; resultsOk: boolean; results: string }
export interface OnDemandSample {
  phase: 'onDemand' | 'always' | 'chat';
  /** What VS Code named each of its servers' `echo` (b0…), found when they first started. */
  builtinTools?: string[];
  onDemand?: IdleFigure;
  cold?: ColdCalls;
  always?: IdleFigure;
  chat?: ChatFigure;
  error?: string;
}

async function until<T>(what: string, get: () => T | undefined | false | Promise<T | undefined | false>, ms = 120_000): Promise<T> {
  const t = Date.now();
  for (;;) {
    const v = await get();
    if (v !== undefined && v !== false) return v;
    if (Date.now() - t > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 100));
  }
}

async function mcpHost(): Promise<McpHostApi> {
  const ext = vscode.extensions.getExtension<McpHostApi>('mcp-host.mcp-host');
  if (!ext) throw new Error('mcp-host.mcp-host is not installed');
  return ext.activate();
}

/** MCP Host's global storage: a sibling of every extension's, under the user data folder code-server was started with. */
function catalogFiles(): number {
  for (let pid = process.ppid; pid > 1;) {
    const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const i = args.indexOf('--user-data-dir');
    if (i >= 0) {
      const dir = path.join(args[i + 1], 'User', 'globalStorage', 'mcp-host.mcp-host', 'catalogs');
      return fs.existsSync(dir) ? fs.readdirSync(dir).filter(f => f.endsWith('.json')).length : 0;
    }
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  throw new Error('no ancestor process names --user-data-dir');
}

/** Writes the next phase and reloads the window; this extension host ends with it. */
async function reload(next: OnDemandSample): Promise<never> {
  fs.writeFileSync(STATE, JSON.stringify(next));
  await vscode.commands.executeCommand('workbench.action.reloadWindow');
  return new Promise<never>(() => {});
}

const echoTools = () => new Set(vscode.lm.tools.map(t => t.name).filter(n => !n.startsWith('mcpHost') && /_echo$/.test(n)));

/** Starts each of VS Code's servers once (its tool cache) and returns the name VS Code gave each one's `echo`. */
async function fill(): Promise<string[]> {
  await mcpHost();
  await until(`${N} catalogues in MCP Host's cache`, () => catalogFiles() >= N);
  await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  const names: string[] = [];
  // VS Code names a server's tools after the name the server gives itself (the same for all ten) plus a
  // suffix of its own: each server's `echo` is the one that appears when it starts. VS Code reads the
  // remote `mcp` setting some time after startup; starting before that does nothing, hence the retries.
  for (let i = 0; i < N; i++) {
    const before = echoTools();
    names.push(await until(`the built-in host to start b${i} and list its tools`, async () => {
      await vscode.commands.executeCommand('workbench.mcp.startServer', `mcp.config.usrremote.b${i}`, { autoTrustChanges: true, waitForLiveTools: true });
      return [...echoTools()].find(n => !before.has(n));
    }).catch((e: Error) => { throw new Error(`${e.message} (echo tools: ${[...echoTools()].join(', ')})`); }));
  }
  return names;
}

async function idle(): Promise<IdleFigure> {
  const t0 = performance.now();
  await mcpHost();
  await new Promise(r => setTimeout(r, Math.max(0, IDLE_MS - (performance.now() - t0))));
  const all = serverProcesses(process.pid);
  return { ours: all.under.filter(p => p.tag.startsWith('s')), builtin: all.under.filter(p => p.tag.startsWith('b')), leftOver: all.elsewhere, afterMs: performance.now() - t0 };
}

const textOf = (r: vscode.LanguageModelToolResult) => r.content.map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

async function coldCalls(builtinTools: readonly string[]): Promise<ColdCalls> {
  await vscode.commands.executeCommand('setContext', 'vscode.chat.tools.global.autoApprove.testMode', true);
  // VS Code's tool cache: the built-in servers' tools are listed without their processes.
  for (const name of builtinTools) await until(`the built-in host's cached tool ${name}`, () => echoTools().has(name), 60_000);
  const out: ColdCalls = { ours: [], builtin: [], failures: 0 };
  const token = new vscode.CancellationTokenSource().token;
  const call = async (side: 'ours' | 'builtin', i: number) => {
    const tag = `${side === 'ours' ? 's' : 'b'}${i}`;
    const text = `cold ${tag}`;
    if (serverProcesses(process.pid, tag).under.some(p => p.tag === tag)) { out.failures++; out.firstFailure ??= `${tag} was running before its first call`; return; }
    const t0 = performance.now();
    try {
      const r = side === 'ours'
        ? await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: tag, tool: 'echo', arguments: { message: text } }, toolInvocationToken: undefined }, token)
        : await vscode.lm.invokeTool(builtinTools[i], { input: { message: text }, toolInvocationToken: undefined }, token);
      const ms = performance.now() - t0;
      if (!textOf(r).includes(text)) throw new Error(`answer without "${text}": ${textOf(r).slice(0, 200)}`);
      out[side].push(ms);
    } catch (e) {
      out.failures++;
      out.firstFailure ??= `${tag}: ${e instanceof Error ? e.message : String(e)}`;
    }
  };
  for (let i = 0; i < N; i++) {
    for (const side of i % 2 ? ['builtin', 'ours'] as const : ['ours', 'builtin'] as const) await call(side, i);
  }
  return out;
}

async function prepareChat(): Promise<void> {
  const fixture = path.join(__dirname, '..', 'fixtures', 'servers', 'crashing.js');
  const servers = Object.fromEntries(Array.from({ length: CHAT_SERVERS }, (_, i) => [`c${i}`, { command: process.env.MCP_HOST_BENCH_NODE ?? 'node', args: [fixture, `--mcp-host-bench=c${i}`] }]));
  const before = catalogFiles();
  const config = vscode.workspace.getConfiguration('mcpHost');
  await config.update('autostart', 'onDemand', vscode.ConfigurationTarget.Global);
  await config.update('tools.autoApprove', CHAT_USED.map(s => `${s}/echo`), vscode.ConfigurationTarget.Global);
  await config.update('servers', servers, vscode.ConfigurationTarget.Global);
  await until(`${CHAT_SERVERS} more catalogues in the cache`, () => catalogFiles() >= before + CHAT_SERVERS);
}

interface Recorded { options: { tools: { name: string }[] }; messages: { content: { type: string; content?: { type: string; value?: string }[] }[] }[] }

async function chatTurn(): Promise<ChatFigure> {
  const api = await mcpHost();
  await until('the 20 cached servers', () => Array.from({ length: CHAT_SERVERS }, (_, i) => `c${i}`).every(s => api.listTools(s).length > 0));
  const before = serverProcesses(process.pid, 'c').under;
  if (before.length) throw new Error(`servers running before the chat turn: ${before.map(p => p.tag).join(', ')}`);
  const model = { vendor: 'scripted', id: 'scripted-fast' };
  await vscode.extensions.getExtension('mcp-host-test.scripted-lm')?.activate();
  await vscode.commands.executeCommand('workbench.action.chat.open', { modelSelector: model });
  await vscode.commands.executeCommand('mcpHostTest.lm.reset');
  // One list of responses (the command takes one argument): the first answers with both tool calls, the second is the final text.
  await vscode.commands.executeCommand('mcpHostTest.lm.script', [CHAT_USED.map((s, i) => ({ toolCall: { name: `${s}_echo`, input: { text: `from ${s}` }, callId: `c${i}` } })), 'done']);
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@mcp echo through two of the servers', modelSelector: model });
  const reqs = await until('the model\'s second request (after the tool calls)', async () => {
    const r = await vscode.commands.executeCommand<Recorded[]>('mcpHostTest.lm.requests');
    return r.length >= 2 && r;
  });
  const offered = new Set(reqs[0].options.tools.map(t => t.name).filter(n => /^c\d+_echo$/.test(n)));
  const results = reqs[1].messages.flatMap(m => m.content).flatMap(p => (p.type === 'toolResult' ? p.content ?? [] : [])).map(c => c.value ?? '').join('\n');
  return {
    started: serverProcesses(process.pid, 'c').under.map(p => p.tag).sort(),
    offeredServers: offered.size,
    resultsOk: CHAT_USED.every(s => results.includes(`from ${s}`)),
    results: results.slice(0, 400),
  };
}

export async function run(): Promise<void> {
  const started = Date.now();
  const state = fs.existsSync(STATE) ? JSON.parse(fs.readFileSync(STATE, 'utf8')) as OnDemandSample : undefined;
  let sample: OnDemandSample | undefined = state;
  let error: string | undefined;
  try {
    switch (state?.phase) {
      case undefined:
        return reload({ phase: 'onDemand', builtinTools: await fill() });
      case 'onDemand': {
        const onDemand = await idle();
        const cold = await coldCalls(state.builtinTools ?? []);
        await vscode.workspace.getConfiguration('mcpHost').update('autostart', 'always', vscode.ConfigurationTarget.Global);
        return reload({ ...state, phase: 'always', onDemand, cold });
      }
      case 'always': {
        const always = await idle();
        await prepareChat();
        return reload({ ...state, phase: 'chat', always });
      }
      case 'chat':
        sample = { ...state, chat: await chatTurn() };
    }
  } catch (e) {
    error = `${state?.phase ?? 'fill'} phase: ${e instanceof Error ? e.message : String(e)}`;
    sample = { ...(state ?? { phase: 'onDemand' }), error };
  }
  finishEntry('on-demand benchmark', started, sample, error);
}

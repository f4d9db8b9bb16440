/** Shared helpers for core unit tests: a recording logger, a host wired to real servers, process checks. */
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Root } from '@modelcontextprotocol/client';
import { Emitter, LogLevel, McpHost, type ApprovalStorage, type HostOptions, type HostPorts, type Logger, type ServerConnection, type ServerState } from '../../src/core';

export const repoRoot = path.resolve(__dirname, '../../..');
export const everythingBin = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const filesystemBin = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const fixtureServer = (name: string) => path.join(repoRoot, 'out/test/fixtures/servers', `${name}.js`);

/** Storage like VS Code's Memento (values go through JSON, as they do on disk). */
export class MemoryStorage implements ApprovalStorage {
  private readonly values = new Map<string, string>();
  get<T>(key: string): T | undefined { const v = this.values.get(key); return v === undefined ? undefined : JSON.parse(v) as T; }
  async update(key: string, value: unknown): Promise<void> { if (value === undefined) this.values.delete(key); else this.values.set(key, JSON.stringify(value)); }
}

export class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string }[] = [];
  private readonly _onDidChangeLogLevel = new Emitter<LogLevel>();
  readonly onDidChangeLogLevel = this._onDidChangeLogLevel.event;
  constructor(public logLevel: LogLevel = LogLevel.Info) {}
  setLevel(level: LogLevel): void { this.logLevel = level; this._onDidChangeLogLevel.fire(level); }
  trace(m: string) { this.lines.push({ level: 'trace', message: m }); }
  debug(m: string) { this.lines.push({ level: 'debug', message: m }); }
  info(m: string) { this.lines.push({ level: 'info', message: m }); }
  warn(m: string) { this.lines.push({ level: 'warn', message: m }); }
  error(m: string | Error) { this.lines.push({ level: 'error', message: String(m) }); }
  text(): string { return this.lines.map(l => `${l.level} ${l.message}`).join('\n'); }
}

export class TestRoots {
  roots: Root[];
  private readonly emitter = new Emitter<void>();
  readonly onDidChangeRoots = this.emitter.event;
  constructor(...dirs: string[]) { this.roots = dirs.map(d => ({ uri: `file://${d}`, name: path.basename(d) })); }
  getRoots() { return this.roots; }
  set(...dirs: string[]) { this.roots = dirs.map(d => ({ uri: `file://${d}`, name: path.basename(d) })); this.emitter.fire(); }
}

export interface TestHost {
  host: McpHost;
  loggers: Map<string, RecordingLogger>;
  roots: TestRoots;
}

export function createTestHost(overrides: Partial<HostPorts> = {}, options: Partial<HostOptions> = {}, logLevel = LogLevel.Debug): TestHost {
  const loggers = new Map<string, RecordingLogger>();
  const roots = new TestRoots(repoRoot);
  const ports: HostPorts = {
    variables: { workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: os.homedir(), env: process.env },
    roots,
    createLogger: name => { const l = new RecordingLogger(logLevel); loggers.set(name, l); return l; },
    ...overrides,
  };
  const host = new McpHost({ restart: { maxRestarts: 3, windowMs: 60_000, baseDelayMs: 50, maxDelayMs: 400 }, listChangedDebounceMs: 20, ...options, ports });
  return { host, loggers, roots };
}

export function node(script: string, ...args: string[]) {
  return { command: process.execPath, args: [script, ...args] };
}

/** Waits until `conn` reaches `state` (or fails after `ms`). */
export function waitForState(conn: ServerConnection, state: ServerState, ms = 15_000): Promise<void> {
  if (conn.state === state) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => { d.dispose(); reject(new Error(`${conn.name} did not reach ${state} (is ${conn.state}: ${conn.message ?? ''})`)); }, ms);
    const d = conn.onDidChangeState(e => { if (e.state === state) { clearTimeout(t); d.dispose(); resolve(); } });
  });
}

export async function waitFor<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 25));
  }
}

/** Live pids whose command line contains `marker` (reads the OS process table). */
export function processesWith(marker: string): number[] {
  const out = execFileSync('ps', ['-ww', '-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter(l => l.includes(marker) && !l.includes('ps -eo')).map(l => parseInt(l.trim(), 10)).filter(n => !Number.isNaN(n));
}

export function isAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}

export function text(result: { content?: unknown[] }): string {
  return (result.content ?? []).map(c => (c as { text?: string }).text ?? '').join('');
}

/** Starts a fixture server over Streamable HTTP on a free loopback port (it prints `LISTENING <port>`). */
export async function startHttpFixture(name: string, args: string[] = [], env: Record<string, string> = {}): Promise<{ url: string; child: import('node:child_process').ChildProcess }> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [fixtureServer(name), '--http', '0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d; const m = /LISTENING (\d+)/.exec(out); if (m) resolve(Number(m[1])); });
    child.once('exit', c => reject(new Error(`${name} exited with ${c} before listening`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

/** A unique command-line marker so a test can find the processes it started in the OS process table. */
export function marker(): string { return `--test-marker=${process.pid}-${Math.random().toString(36).slice(2)}`; }

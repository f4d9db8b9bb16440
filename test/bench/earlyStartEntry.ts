// extensionTestsPath of the early-start benchmark (test/bench/earlyStart.mjs): runs in the extension host
// of a VS Code where MCP Host is installed from a .vsix, activates MCP Host itself (so the start point is
// known to the millisecond), and reports when the declared server's process began (the server wrapper
// writes its own `performance.timeOrigin`), when MCP Host reported it running, and when the activation
// promise resolved, all after that point.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../src/vscode/api';
import { finishEntry } from './entryResult';

export async function run(): Promise<void> {
  const started = Date.now();
  const ext = vscode.extensions.getExtension<McpHostApi>('mcp-host.mcp-host');
  let error: string | undefined;
  let sample: { spawnMs: number; runningMs: number; activateMs: number } | undefined;
  try {
    if (!ext) throw new Error('mcp-host.mcp-host is not installed');
    if (ext.isActive) throw new Error('MCP Host was already active: no known start point');
    const spawnFile = process.env.MCP_HOST_BENCH_SPAWN_OUT!;
    const t0 = performance.timeOrigin + performance.now();
    const api = await ext.activate();
    const activated = performance.timeOrigin + performance.now();
    const running = new Promise<number>(resolve => {
      const check = () => { if (api.listServers().some(s => s.state === 'running')) resolve(performance.timeOrigin + performance.now()); };
      api.onDidChangeServerState(check);
      check();
    });
    const runningAt = await Promise.race([running, new Promise<number>((_, reject) => setTimeout(() => reject(new Error('no server running within 30 s')), 30_000))]);
    const spawnedAt = Number(fs.readFileSync(spawnFile, 'utf8').split('\n')[0]);
    if (!Number.isFinite(spawnedAt)) throw new Error(`the server wrote no start time to ${spawnFile}`);
    sample = { spawnMs: spawnedAt - t0, runningMs: runningAt - t0, activateMs: activated - t0 };
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  finishEntry('early start sample', started, sample, error);
}

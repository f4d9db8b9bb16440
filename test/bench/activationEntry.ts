// extensionTestsPath of the activation benchmark (test/bench/extension.mjs): runs in the extension host of
// a VS Code where MCP Host is installed from its production .vsix, waits for MCP Host to activate by
// itself (onStartupFinished) and writes what its API reports to MCP_HOST_BENCH_OUT. Also writes a
// results file in the shape test/rig/runIntegration.mjs expects, so the rig treats it like a test run.
import * as vscode from 'vscode';
import type { McpHostApi } from '../../src/vscode/api';
import { finishEntry } from './entryResult';

export async function run(): Promise<void> {
  const started = Date.now();
  const ext = vscode.extensions.getExtension<McpHostApi>('mcp-host.mcp-host');
  let error: string | undefined;
  let sample: { activationMs: number; firstServerRunningMs?: number } | undefined;
  try {
    if (!ext) throw new Error('mcp-host.mcp-host is not installed');
    while (!ext.isActive && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 20));
    if (!ext.isActive) throw new Error('MCP Host did not activate within 30 s');
    const api = ext.exports;
    sample = { activationMs: api.activationMs };
    // Servers start after activate() returned; how long until the first is running (from this point on).
    const t = Date.now();
    while (!api.listServers().some((s) => s.state === 'running') && Date.now() - t < 30_000) await new Promise((r) => setTimeout(r, 20));
    if (api.listServers().some((s) => s.state === 'running')) sample.firstServerRunningMs = Date.now() - t;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  finishEntry('activation sample', started, sample, error);
}

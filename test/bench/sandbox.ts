/**
 * Start-up overhead of a sandboxed local server (issue 20): the same fixture server started by the
 * host unsandboxed and under srt (bubblewrap + socat proxy on Linux), interleaved, median of 9.
 * Prints the ratio and the added milliseconds; never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { McpHost, type HostPorts } from '../../src/core';
import { findRipgrep, srtCli } from '../unit/sandboxSupport';

const server = path.resolve(__dirname, '../fixtures/servers/escapee.js');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const storage = mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-sandbox-'));
  const ports: HostPorts = {
    variables: { workspaceFolders: [], trusted: true, userHome: os.homedir(), env: process.env },
    roots: { getRoots: () => [{ uri: `file://${storage}` }], onDidChangeRoots: () => ({ dispose() {} }) },
    sandbox: {
      runtime: process.execPath, cli: srtCli, storageDir: storage, protectedPaths: [storage], ripgrep: findRipgrep(),
      sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => true, allowUnsandboxed: () => false,
    },
  };
  const start = async (sandbox: boolean) => {
    const host = new McpHost({ ports });
    const t = performance.now();
    await host.apply({ s: { command: process.execPath, args: [server], ...(sandbox ? { sandbox: true } : {}) } });
    const ms = performance.now() - t;
    const conn = host.require('s');
    if (conn.state !== 'running' || conn.sandboxed !== sandbox) throw new Error(`did not start as expected: ${conn.state} ${conn.message ?? ''}`);
    await host.shutdown();
    return ms;
  };
  try {
    await start(false); await start(true);
    const plain: number[] = [], boxed: number[] = [];
    for (let i = 0; i < 9; i++) {
      if (i % 2) { boxed.push(await start(true)); plain.push(await start(false)); }
      else { plain.push(await start(false)); boxed.push(await start(true)); }
    }
    const p = median(plain), b = median(boxed);
    console.log(`\nsandboxed start (median of 9, start to tools listed): unsandboxed ${p.toFixed(1)} ms; sandboxed ${b.toFixed(1)} ms`);
    console.log(`  sandboxed/unsandboxed: ${(b / p).toFixed(2)}× (+${(b - p).toFixed(1)} ms: srt, its proxies, bubblewrap and the scan for dangerous files)`);
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}

main().catch(e => { console.error(e); process.exit(1); });

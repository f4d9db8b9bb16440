/**
 * Start-up overhead of a sandboxed local server (issues 20, 27): the same fixture server started by
 * the host unsandboxed and under srt (bubblewrap + socat proxy on Linux), interleaved, median of 9,
 * in one process. The server has two roots, each a Git repository with a nested one, so the rules
 * include what issue 27 adds (the guards of every root, the scan for nested repositories, home
 * read-denied with its toolchain folders re-allowed). Prints and records the ratio; never asserted.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { McpHost, type HostPorts } from '../../src/core';
import { findRipgrep, srtCli } from '../unit/sandboxSupport';
import { record } from './figures';

const server = path.resolve(__dirname, '../fixtures/servers/escapee.js');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-bench-sandbox-'));
  const storage = path.join(dir, 'storage');
  const roots = ['a', 'b'].map(r => path.join(dir, r));
  for (const r of roots) {
    mkdirSync(path.join(r, 'packages', 'nested'), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: r });
    execFileSync('git', ['init', '-q'], { cwd: path.join(r, 'packages', 'nested') });
  }
  const ports: HostPorts = {
    variables: { workspaceFolders: [], trusted: true, userHome: os.homedir(), env: process.env },
    roots: { getRoots: () => roots.map(r => ({ uri: `file://${r}` })), onDidChangeRoots: () => ({ dispose() {} }) },
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
    if (conn.state !== 'running' || conn.sandboxed !== sandbox || !host.tools.length) throw new Error(`did not start as expected: ${conn.state} ${conn.message ?? ''}`);
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
    record({ name: 'sandbox: start to tools listed, sandboxed vs not', value: b, unit: 'ms', baseline: p, samples: 9, failures: 0, note: `+${(b - p).toFixed(0)} ms; 2 roots, each a repository with a nested one` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch(e => { console.error(e); process.exit(1); });

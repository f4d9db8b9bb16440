/** Where the tests find srt and ripgrep: the package's CLI script, and rg on PATH or the one code-server ships. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxPort } from '../../src/core';
import { createTestHost, repoRoot } from './helpers';

export const srtCli = path.join(repoRoot, 'node_modules/@anthropic-ai/sandbox-runtime/dist/cli.js');

export function findRipgrep(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir && existsSync(path.join(dir, 'rg'))) return path.join(dir, 'rg');
  const cache = process.env.MCP_HOST_TEST_CACHE ?? path.join(os.homedir(), '.cache/mcp-host-test');
  const arch = `${process.platform}-${process.arch}`;
  for (const cs of existsSync(cache) ? readdirSync(cache).filter(d => d.startsWith('code-server-')) : []) {
    const modules = path.join(cache, cs, 'node_modules/code-server/lib/vscode/node_modules/@vscode');
    for (const candidate of [path.join(modules, 'ripgrep/bin/rg'), path.join(modules, 'ripgrep-universal/bin', arch, 'rg')]) if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** A home folder with a workspace folder (`project`) and another project holding a secret (`other/.env`), and the extension's storage. */
export interface HomeFixture { dir: string; home: string; project: string; storage: string; other: string }

export function makeHomeFixture(prefix: string): HomeFixture {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const home = path.join(dir, 'home');
  const project = path.join(home, 'project');
  const storage = path.join(dir, 'storage');
  const other = path.join(home, 'other-project');
  for (const d of [home, project, storage, other]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(other, '.env'), 'API_KEY=SECRET');
  return { dir, home, project, storage, other };
}

/** A host whose workspace folder is the fixture's project, with the real srt as its sandbox. */
export function homeTestHost(f: HomeFixture, mayWiden: boolean, storageScope?: string) {
  const port: SandboxPort = {
    runtime: process.execPath, cli: srtCli, storageDir: f.storage, protectedPaths: [f.storage], ripgrep: findRipgrep(),
    sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => mayWiden, allowUnsandboxed: () => false,
    ...(storageScope ? { storageScope: () => storageScope } : {}),
  };
  const t = createTestHost({ variables: { workspaceFolders: [{ name: 'project', path: f.project }], trusted: true, userHome: f.home, env: process.env }, sandbox: port });
  t.roots.set(f.project);
  return t;
}

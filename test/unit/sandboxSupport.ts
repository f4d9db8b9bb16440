/** Where the tests find srt and ripgrep: the package's CLI script, and rg on PATH or the one code-server ships. */
import { existsSync, readdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './helpers';

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

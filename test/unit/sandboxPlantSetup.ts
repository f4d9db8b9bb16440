/**
 * What the sandbox attacker tests share: a scratch folder with a home, a root that is a Git
 * repository, MCP Host's storage and the file a planted command would write (`pwned`); the port
 * that runs servers under the real srt; and a host running the escapee fixture with that root,
 * sandboxed or not.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxPort, ServerConnection } from '../../src/core';
import { createTestHost, fixtureServer, node, repoRoot, text, waitForState, type TestHost } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

export interface Setup { dir: string; home: string; root: string; storage: string; pwned: string }

export const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
/** `git status` (or `args`), whose failure may still have run the plant. */
export const gitQuiet = (cwd: string, ...args: string[]) => { try { git(cwd, ...args.length ? args : ['status']); } catch { /* a failing command may still have run the plant */ } };

/** A scratch setup under `prefix`, with `folders` (relative to the root) made and `repos` among them `git init`ed. */
export function plantSetup(prefix: string, folders: readonly string[] = [], repos: readonly string[] = []): Setup {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const s = { dir, home: path.join(dir, 'home'), root: path.join(dir, 'root'), storage: path.join(dir, 'storage'), pwned: path.join(dir, 'pwned') };
  for (const d of [s.home, s.root, ...folders.map(f => path.join(s.root, f)), s.storage]) mkdirSync(d, { recursive: true });
  git(s.root, 'init', '-q');
  for (const r of repos) git(path.join(s.root, r), 'init', '-q');
  return s;
}

export function sandboxPort(s: Setup): SandboxPort {
  return {
    runtime: process.execPath, cli: srtCli, storageDir: s.storage, protectedPaths: [s.storage], ripgrep: findRipgrep(),
    sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => true, allowUnsandboxed: () => false,
  };
}

/** Starts the escapee fixture with the setup's root as its only root; `stop` shuts the host down. */
export async function startEscapee(s: Setup, sandbox: boolean): Promise<{ conn: ServerConnection; t: TestHost; stop: () => Promise<void> }> {
  const t = createTestHost({ variables: { workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: s.home, env: process.env }, sandbox: sandboxPort(s) });
  t.roots.set(s.root);
  try {
    await t.host.apply({ e: { ...node(fixtureServer('escapee')), ...sandbox ? { sandbox: true } : {} } });
    const conn = t.host.require('e');
    await waitForState(conn, 'running', 30_000);
    return { conn, t, stop: () => t.host.shutdown() };
  } catch (e) { await t.host.shutdown(); throw e; }
}

/** Runs the escapee fixture with the setup's root as its only root, hands it to `fn`, shuts the host down. */
export async function withEscapee(s: Setup, sandbox: boolean, fn: (conn: ServerConnection, t: TestHost) => Promise<void>): Promise<void> {
  const { conn, t, stop } = await startEscapee(s, sandbox);
  try { await fn(conn, t); } finally { await stop(); }
}

/** A tool call's outcome as text; a server the sandbox stopped answers with why it stopped. */
export async function callText(conn: ServerConnection, tool: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const r = await conn.callTool(tool, args);
  return { isError: r.isError === true, text: text(r) };
}

/**
 * Issue 27.1 again, with plants the first tests do not try: Git finds a repository by more than a
 * `.git` folder at a root. A sandboxed server writes, in folders that exist when it starts, a `.git`
 * FILE naming a git dir it wrote elsewhere in the root, the files of a bare repository (Git takes a
 * folder holding HEAD, objects and refs as a repository before it looks further up), or the config of
 * a repository nested deeper than the scan. The user's next `git status` there runs its fsmonitor.
 * Each test first shows the same server unsandboxed succeeds, so the plant really works.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxPort } from '../../src/core';
import { createTestHost, fixtureServer, node, repoRoot, text, waitForState } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const gitQuiet = (cwd: string) => { try { git(cwd, 'status'); } catch { /* a failing status may still have run the monitor */ } };

interface Setup { dir: string; home: string; root: string; storage: string; pwned: string }

function setup(): Setup {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-plant-'));
  const s = { dir, home: path.join(dir, 'home'), root: path.join(dir, 'root'), storage: path.join(dir, 'storage'), pwned: path.join(dir, 'pwned') };
  for (const d of [s.home, path.join(s.root, 'src'), path.join(s.root, 'a', 'b', 'c', 'deep'), s.storage]) mkdirSync(d, { recursive: true });
  git(s.root, 'init', '-q');
  git(path.join(s.root, 'a', 'b', 'c', 'deep'), 'init', '-q');
  return s;
}

function port(s: Setup): SandboxPort {
  return {
    runtime: process.execPath, cli: srtCli, storageDir: s.storage, protectedPaths: [s.storage], ripgrep: findRipgrep(),
    sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => true, allowUnsandboxed: () => false,
  };
}

type Call = (tool: string, args: Record<string, unknown>) => Promise<{ isError: boolean; text: string }>;

async function withServer(s: Setup, sandbox: boolean, fn: (call: Call) => Promise<void>): Promise<void> {
  const t = createTestHost({ variables: { workspaceFolders: [{ name: 'main', path: repoRoot }], trusted: true, userHome: s.home, env: process.env }, sandbox: port(s) });
  t.roots.set(s.root);
  try {
    await t.host.apply({ e: { ...node(fixtureServer('escapee')), ...sandbox ? { sandbox: true } : {} } });
    const c = t.host.require('e');
    await waitForState(c, 'running', 30_000);
    await fn(async (tool, args) => { const r = await c.callTool(tool, args); return { isError: r.isError === true, text: text(r) }; });
  } finally { await t.host.shutdown(); }
}

const config = (pwned: string, extra = '') => `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${extra}\tfsmonitor = echo planted >> ${pwned}; false\n`;

/** Writes `files` (a name ending in `/` is a folder) and returns what each write answered. */
async function plant(call: Call, files: Array<[string, string]>): Promise<string[]> {
  const out: string[] = [];
  for (const [file, body] of files) {
    const r = file.endsWith('/') ? await call('make-dir', { path: file }) : await call('write-file', { path: file, text: body });
    out.push(`${file}: ${r.isError ? 'refused' : 'written'}`);
  }
  return out;
}

const attacks: Array<{ name: string; where: (s: Setup) => string; files: (s: Setup) => Array<[string, string]> }> = [
  {
    name: 'a .git file in an existing subfolder naming a git dir written elsewhere in the root',
    where: s => path.join(s.root, 'src'),
    files: s => [
      [path.join(s.root, 'build-cache', 'objects') + '/', ''], [path.join(s.root, 'build-cache', 'refs') + '/', ''],
      [path.join(s.root, 'build-cache', 'HEAD'), 'ref: refs/heads/main\n'], [path.join(s.root, 'build-cache', 'config'), config(s.pwned)],
      [path.join(s.root, 'src', '.git'), 'gitdir: ../build-cache\n'],
    ],
  },
  {
    name: 'the files of a bare repository in an existing subfolder (Git takes it before the root\'s .git)',
    where: s => path.join(s.root, 'src'),
    files: s => [
      [path.join(s.root, 'src', 'objects') + '/', ''], [path.join(s.root, 'src', 'refs') + '/', ''],
      [path.join(s.root, 'src', 'HEAD'), 'ref: refs/heads/main\n'], [path.join(s.root, 'src', 'config'), config(s.pwned, '\tworktree = .\n')],
    ],
  },
  {
    name: 'the config of a repository nested four levels deep',
    where: s => path.join(s.root, 'a', 'b', 'c', 'deep'),
    files: s => [[path.join(s.root, 'a', 'b', 'c', 'deep', '.git', 'config'), config(s.pwned)]],
  },
];

describe('sandbox: Git repositories a server makes from files that are not a root\'s .git (issue 27.1)', function () {
  this.timeout(90_000);
  let s: Setup;
  beforeEach(() => { s = setup(); });
  afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

  for (const a of attacks) {
    it(`unsandboxed, ${a.name} makes git status run the planted command (proof it works)`, async () => {
      await withServer(s, false, async call => { await plant(call, a.files(s)); });
      gitQuiet(a.where(s));
      assert.ok(existsSync(s.pwned), 'git status ran the planted fsmonitor');
    });

    // Open holes of issue 27 item 1 found by the outside review: skipped with their reason in
    // test/skipped-tests.json until the sandbox covers them (they fail today: remove the skip to see).
    it.skip(`sandboxed, ${a.name} runs nothing on the user's next git status`, async () => {
      let answers: string[] = [];
      await withServer(s, true, async call => { answers = await plant(call, a.files(s)); });
      gitQuiet(a.where(s));
      assert.ok(!existsSync(s.pwned), `git status ran what the sandboxed server planted (${answers.join('; ')})`);
    });
  }
});

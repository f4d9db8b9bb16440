/**
 * Issue 27.1 again, with plants the first tests do not try: Git finds a repository by more than a
 * `.git` folder at a root. A sandboxed server writes, in folders that exist when it starts, a `.git`
 * FILE naming a git dir it wrote elsewhere in the root, the files of a bare repository (Git takes a
 * folder holding HEAD, objects and refs as a repository before it looks further up), or the config of
 * a repository nested deeper than the scan. The user's next `git status` there runs its fsmonitor.
 * And in folders it makes while it runs (issue 27.1 on Linux), which
 * bubblewrap's mounts, fixed at start, cannot hold: `mkdir x && git init x` at any depth, `.vscode`
 * and `.envrc` in new folders, a `.git` renamed into place, a repository inside node_modules, a link
 * into a repository in the server's own data folder.
 * Each test first shows the same server unsandboxed succeeds, so the plant really works.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ServerConnection } from '../../src/core';
import { waitForState } from './helpers';
import { callText, gitQuiet, plantSetup, withEscapee, type Setup } from './sandboxPlantSetup';

const setup = () => plantSetup('mcp-plant-', ['src', 'a/b/c/deep'], ['a/b/c/deep']);

type Call = (tool: string, args: Record<string, unknown>) => Promise<{ isError: boolean; text: string }>;

const withServer = (s: Setup, sandbox: boolean, fn: (call: Call, conn: ServerConnection) => Promise<void>) =>
  withEscapee(s, sandbox, conn => fn((tool, args) => callText(conn, tool, args), conn));

const config = (pwned: string, extra = '') => `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${extra}\tfsmonitor = echo planted >> ${pwned}; false\n`;

/** A file to write (a name ending in `/` is a folder), or a program the server runs. */
type Step = [string, string] | { run: string[]; cwd: string };

/**
 * Does `steps` and returns what each answered. A server the sandbox stopped for a plant answers no
 * more: its remaining steps count as refused.
 */
async function plant(call: Call, steps: Step[]): Promise<string[]> {
  const out: string[] = [];
  for (const step of steps) {
    const file = Array.isArray(step) ? step[0] : step.run.join(' ');
    try {
      const r = !Array.isArray(step) ? await call('run', { command: step.run[0], args: step.run.slice(1), cwd: step.cwd })
        : file.endsWith('/') ? await call('make-dir', { path: file }) : await call('write-file', { path: file, text: step[1] });
      out.push(`${file}: ${r.isError ? 'refused' : 'written'}`);
    } catch (e) {
      out.push(`${file}: server stopped (${(e as Error).message})`);
    }
  }
  return out;
}

const attacks: Array<{ name: string; where: (s: Setup) => string; files: (s: Setup) => Step[] }> = [
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

    it(`sandboxed, ${a.name} runs nothing on the user's next git status`, async () => {
      let answers: string[] = [];
      await withServer(s, true, async call => { answers = await plant(call, a.files(s)); });
      gitQuiet(a.where(s));
      assert.ok(!existsSync(s.pwned), `git status ran what the sandboxed server planted (${answers.join('; ')})`);
    });
  }
});

const repoIn = (dir: string, pwned: string): Step[] => [
  [path.join(dir, 'objects') + '/', ''], [path.join(dir, 'refs') + '/', ''],
  [path.join(dir, 'HEAD'), 'ref: refs/heads/main\n'], [path.join(dir, 'config'), config(pwned)],
];

/** Plants in folders made while the server runs: what no mount made at its start can hold. */
const newFolderAttacks: Array<{ name: string; where: (s: Setup) => string; steps: (s: Setup) => Step[]; planted: (s: Setup) => string }> = [
  {
    name: '`mkdir x && git init x` three new folders deep, then an fsmonitor in its config',
    where: s => path.join(s.root, 'n1', 'n2', 'x'),
    steps: s => [
      { run: ['mkdir', '-p', 'n1/n2/x'], cwd: s.root }, { run: ['git', 'init', '-q', 'n1/n2/x'], cwd: s.root },
      [path.join(s.root, 'n1', 'n2', 'x', '.git', 'config'), config(s.pwned)],
    ],
    planted: s => path.join(s.root, 'n1', 'n2', 'x', '.git'),
  },
  {
    name: 'a .git file renamed into place in a new folder, naming a git dir the server keeps in its own data folder',
    where: s => path.join(s.root, 'stage'),
    steps: s => [{ run: ['sh', '-c', [
      // Its data folder is writable and outside every root (sandboxed, npm_config_cache lies in it).
      `d="\${npm_config_cache:-${s.dir}/npm-cache}/evil"`, 'mkdir -p "$d/objects" "$d/refs" stage', 'printf "ref: refs/heads/main\\n" > "$d/HEAD"',
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = echo planted >> ${s.pwned}; false\\n' > "$d/config"`,
      'printf "gitdir: %s\\n" "$d" > stage/pointer', 'mv stage/pointer stage/.git',
    ].join(' && ')], cwd: s.root }],
    planted: s => path.join(s.root, 'stage', '.git'),
  },
  {
    name: 'a link in the root to a repository the server makes in its own data folder (Git follows the link)',
    where: s => path.join(s.root, 'linked'),
    steps: s => [{ run: ['sh', '-c', [
      `d="\${npm_config_cache:-${s.dir}/npm-cache}/linked-repo"`, 'mkdir -p "$d"', 'git -c init.defaultBranch=main init -q "$d"',
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = echo planted >> ${s.pwned}; false\\n' > "$d/.git/config"`,
      'ln -s "$d" linked',
    ].join(' && ')], cwd: s.root }],
    planted: s => path.join(s.root, 'linked'),
  },
  {
    name: 'a repository inside node_modules (the editor opens it when a file of the package is shown)',
    where: s => path.join(s.root, 'node_modules', 'pkg'),
    steps: s => [[path.join(s.root, 'node_modules', 'pkg', 'index.js') , 'module.exports = 1;\n'], ...repoIn(path.join(s.root, 'node_modules', 'pkg', '.git'), s.pwned)],
    planted: s => path.join(s.root, 'node_modules', 'pkg', '.git'),
  },
];

describe('sandbox: plants in folders a server makes while it runs (issue 27.1, Linux: bubblewrap holds what exists at start)', function () {
  this.timeout(90_000);
  let s: Setup;
  beforeEach(() => { s = setup(); });
  afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

  for (const a of newFolderAttacks) {
    it(`unsandboxed, ${a.name} makes git status run the planted command (proof it works)`, async () => {
      await withServer(s, false, async call => { await plant(call, a.steps(s)); });
      gitQuiet(a.where(s));
      assert.ok(existsSync(s.pwned), 'git status ran the planted fsmonitor');
    });

    it(`sandboxed, ${a.name}: the server is stopped, the plant moved to the quarantine, git status runs nothing`, async () => {
      let answers: string[] = [];
      let state = '';
      await withServer(s, true, async (call, conn) => {
        answers = await plant(call, a.steps(s));
        await waitForState(conn, 'error', 10_000).catch(() => { /* asserted below, after the harm is checked */ });
        state = `${conn.state}: ${conn.message ?? ''}`;
      });
      gitQuiet(a.where(s));
      assert.ok(!existsSync(s.pwned), `git status ran what the sandboxed server planted (${answers.join('; ')})`);
      assert.ok(!existsSync(a.planted(s)), `${a.planted(s)} is still there`);
      assert.match(state, /^error: /);
      assert.match(state, /appeared, which would make Git or the editor run code outside the sandbox\. It was moved to /);
      const movedTo = /moved to (.*?); if you made it yourself/.exec(state)![1];
      assert.ok(movedTo.startsWith(path.join(s.storage, 'sandbox-quarantine')) && existsSync(movedTo), `kept in the quarantine: ${movedTo}`);
    });
  }

  it('sandboxed, .vscode and .envrc in new folders are moved away, while ordinary work in new folders and the user\'s own files stay', async () => {
    const own = path.join(s.root, 'src', '.vscode', 'settings.json');
    mkdirSync(path.dirname(own), { recursive: true });
    writeFileSync(own, '{"editor.tabSize": 2}');
    const plants = [path.join(s.root, 'pkg', '.vscode', 'tasks.json'), path.join(s.root, 'a', 'b', '.envrc')];
    for (const planted of plants) {
      await withServer(s, true, async (call, conn) => {
        assert.equal((await call('make-dir', { path: path.join(s.root, 'docs', 'guide') })).isError, false);
        assert.equal((await call('write-file', { path: path.join(s.root, 'docs', 'guide', 'intro.md'), text: 'ordinary work' })).isError, false);
        assert.equal((await call('write-file', { path: own, text: '{"task.allowAutomaticTasks": "on"}' })).isError, true, 'the user\'s .vscode is read-only');
        assert.equal(conn.state, 'running', 'ordinary work and refused writes do not stop the server');
        await plant(call, [[path.dirname(planted) + '/', ''], [planted, 'echo planted']]);
        await waitForState(conn, 'error', 10_000).catch(() => { /* the files are asserted below */ });
      });
      assert.ok(!existsSync(planted), `${planted} is left`);
    }
    assert.equal(readFileSync(path.join(s.root, 'docs', 'guide', 'intro.md'), 'utf8'), 'ordinary work');
    assert.equal(readFileSync(own, 'utf8'), '{"editor.tabSize": 2}');
    assert.equal(readdirSync(path.join(s.storage, 'sandbox-quarantine')).length, 1, 'one server\'s quarantine');
  });
});

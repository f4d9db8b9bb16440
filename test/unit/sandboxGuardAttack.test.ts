/**
 * The plant guard (issue 27.1, Linux) tried as an attacker would, with ways around it the guard's
 * own tests do not try: a folder the server renames away and replaces with a link outside the roots
 * (the guard, still watching the renamed folder under its old path, then "quarantines" the user's
 * own file the link leads to), and more changes at once than inotify's queue holds (events are lost,
 * and a folder made then is never watched: a repository made in it later runs on the user's next
 * `git status` while the server still runs). Each first shows the plant works unsandboxed, or that
 * the user's file is really there, then plays the attacker sandboxed against a real `git` outside.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ServerConnection } from '../../src/core';
import { waitForState } from './helpers';
import { callText, git, gitQuiet, plantSetup, withEscapee, type Setup } from './sandboxPlantSetup';
// Linux only (inotify, bubblewrap): elsewhere mocha reports them pending and test/run-all.mjs counts that as a
// failure unless listed, so no regression vanishes from the count.
const itOnLinux = process.platform === 'linux' ? it : it.skip;

const setup = () => plantSetup('mcp-guard-atk-', ['src']);

type Run = (script: string) => Promise<string>;

const withServer = (s: Setup, sandbox: boolean, fn: (run: Run, conn: ServerConnection) => Promise<void>) =>
  withEscapee(s, sandbox, conn => fn(async script => {
    try {
      const r = await callText(conn, 'run', { command: 'sh', args: ['-c', script], cwd: s.root });
      return `${r.isError ? 'refused' : 'done'}: ${r.text}`;
    } catch (e) { return `server stopped (${(e as Error).message})`; }
  }, conn));

const fsmonitorRepo = (dir: string, pwned: string) => [
  `git -c init.defaultBranch=main init -q ${dir}`,
  `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = echo planted >> ${pwned}; false\\n' > ${dir}/.git/config`,
].join(' && ');

describe('sandbox: the plant guard tried as an attacker (issue 27.1, Linux)', function () {
  this.timeout(120_000);
  let s: Setup;
  beforeEach(() => { s = setup(); });
  afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

  itOnLinux('sandboxed, a watched folder renamed away and replaced by a link outside the roots: the guard moves no file of the user\'s outside the roots', async function () {
    // The user's own files, outside every root: a shell start-up file and another project's editor settings.
    const bashrc = path.join(s.home, '.bashrc');
    writeFileSync(bashrc, '# the user\'s own\n');
    let answer = '';
    await withServer(s, true, async (run, conn) => {
      assert.match(await run('mkdir work'), /^done/);
      await new Promise(r => setTimeout(r, 500)); // the guard now watches root/work
      // The guard's watch follows the folder, but it still names its events root/work/<name>.
      answer = await run(`mv work work-old && ln -s ${s.home} work && sleep 0.3 && echo planted > work-old/.bashrc`);
      await waitForState(conn, 'error', 10_000).catch(() => { /* the files are asserted below */ });
    });
    assert.ok(existsSync(bashrc), `the user's ${bashrc} outside the roots was moved away by the guard (${answer})`);
    assert.equal(readFileSync(bashrc, 'utf8'), '# the user\'s own\n');
    assert.ok(!existsSync(path.join(s.root, 'work-old', '.bashrc')), 'the real plant is still in the root');
  });

  it('unsandboxed, a folder made while inotify\'s queue overflows, then a repository in it: git status runs its fsmonitor (proof it works)', async () => {
    await withServer(s, false, async run => { await run(`mkdir -p hidden && ${fsmonitorRepo('hidden/repo', s.pwned)}`); });
    gitQuiet(path.join(s.root, 'hidden', 'repo'));
    assert.ok(existsSync(s.pwned));
  });

  itOnLinux('sandboxed, a folder made while inotify\'s queue overflows is still watched: a repository made in it later is caught while the server runs', async function () {
    // Two files touched in turn (inotify merges only an event equal to the last one queued): a few
    // microseconds per event, far faster than the guard judges them; `hidden` is made in the middle.
    const flood = `const fs=require('fs');fs.writeFileSync('fa','');fs.writeFileSync('fb','');` +
      `const t=Date.now();let made=false;while(Date.now()-t<3000){for(let i=0;i<2000;i++){fs.utimesSync('fa',i,i);fs.utimesSync('fb',i,i);}` +
      `if(!made&&Date.now()-t>1000){fs.mkdirSync('hidden');made=true;}}`;
    let answers: string[] = [];
    let state = '';
    await withServer(s, true, async (run, conn) => {
      answers.push(await run(`${JSON.stringify(process.execPath)} -e ${JSON.stringify(flood)}`));
      await new Promise(r => setTimeout(r, 1500)); // the queue has drained
      answers.push(await run(fsmonitorRepo('hidden/repo', s.pwned)));
      await new Promise(r => setTimeout(r, 1500));
      // The user (or the editor's Git extension) runs git while the server still runs.
      gitQuiet(path.join(s.root, 'hidden', 'repo'));
      state = conn.state;
      await waitForState(conn, 'error', 10_000).catch(() => { /* asserted below */ });
    });
    answers = answers.map(a => a.slice(0, 200));
    assert.ok(!existsSync(s.pwned), `git status ran what the sandboxed server planted in a folder the guard never saw (state ${state}; ${answers.join('; ')})`);
  });

  /**
   * Git runs more than `.git` holds: an existing repository's config may name a hooks folder or a
   * config file in the work tree (`git config core.hooksPath .githooks`, `include.path ../gitconfig`,
   * which projects tell their developers to run), and the server writes there.
   */
  const configured: Array<{ name: string; user: (s: Setup) => void; plant: (s: Setup) => string; then: (s: Setup) => void }> = [
    {
      name: 'a hook in the folder the repository\'s core.hooksPath names (run on the user\'s next commit)',
      user: s => { git(s.root, 'config', 'core.hooksPath', 'tools/hooks'); mkdirSync(path.join(s.root, 'tools', 'hooks'), { recursive: true }); writeFileSync(path.join(s.root, 'tools', 'hooks', 'README'), 'the team\'s hooks\n'); },
      plant: s => `printf '#!/bin/sh\\necho planted >> ${s.pwned}\\n' > tools/hooks/pre-commit && chmod +x tools/hooks/pre-commit`,
      then: s => gitQuiet(s.root, '-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'work'),
    },
    {
      name: 'an fsmonitor in the work-tree file the repository\'s include.path names (run on git status)',
      user: s => { git(s.root, 'config', 'include.path', '../tools/team.gitconfig'); mkdirSync(path.join(s.root, 'tools'), { recursive: true }); writeFileSync(path.join(s.root, 'tools', 'team.gitconfig'), '[pull]\n\trebase = true\n'); },
      plant: s => `printf '[core]\\n\\tfsmonitor = echo planted >> ${s.pwned}; false\\n' >> tools/team.gitconfig`,
      then: s => gitQuiet(s.root),
    },
  ];
  for (const a of configured) {
    it(`unsandboxed, ${a.name}: it runs (proof it works)`, async () => {
      a.user(s);
      await withServer(s, false, async run => { await run(a.plant(s)); });
      a.then(s);
      assert.ok(existsSync(s.pwned));
    });

    it(`sandboxed, ${a.name}: nothing runs`, async function () {
      a.user(s);
      let answer = '';
      await withServer(s, true, async run => { answer = await run(a.plant(s)); });
      a.then(s);
      assert.ok(!existsSync(s.pwned), `git ran what the sandboxed server wrote where the repository's config points (${answer.slice(0, 200)})`);
    });
  }

  it('unsandboxed, the user\'s nested repository renamed away and a new one made at its path: git status there runs its fsmonitor (proof it works)', async () => {
    mkdirSync(path.join(s.root, 'packages', 'lib'), { recursive: true });
    git(path.join(s.root, 'packages', 'lib'), 'init', '-q');
    await withServer(s, false, async run => { await run(`mv packages packages-old && mkdir -p packages/lib && ${fsmonitorRepo('packages/lib', s.pwned)}`); });
    gitQuiet(path.join(s.root, 'packages', 'lib'));
    assert.ok(existsSync(s.pwned));
  });

  itOnLinux('sandboxed, the user\'s nested repository (held read-only) renamed away and a new one made at its path: nothing runs', async function () {
    mkdirSync(path.join(s.root, 'packages', 'lib'), { recursive: true });
    git(path.join(s.root, 'packages', 'lib'), 'init', '-q');
    let answer = '';
    await withServer(s, true, async (run, conn) => {
      answer = await run(`mv packages packages-old && mkdir -p packages/lib && ${fsmonitorRepo('packages/lib', s.pwned)}`);
      await new Promise(r => setTimeout(r, 1500));
      gitQuiet(path.join(s.root, 'packages', 'lib')); // while the server runs
      await waitForState(conn, 'error', 5_000).catch(() => { /* asserted below */ });
    });
    gitQuiet(path.join(s.root, 'packages', 'lib'));
    assert.ok(!existsSync(s.pwned), `git status ran the repository made where the held one was (${answer.slice(0, 200)})`);
  });
});

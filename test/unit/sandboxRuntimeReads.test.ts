/**
 * Issue 27.2, outside attack: "the install of `node`" is found on the launch's PATH, which a workspace's
 * envFile (or a file a sandboxed server wrote in its root on an earlier run) sets. A `node` there that is a
 * link into another folder of home made that folder readable: another project's .env. runtimeFolders now
 * counts only regular executable files found outside what a workspace or a server can write, a link only
 * where it keeps the program's name, and for the implicit `node` only the install's bin and lib.
 */
import * as assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { SandboxPort } from '../../src/core';
import { runtimeFolders } from '../../src/core/sandbox/reads';
import { createTestHost, fixtureServer, node, text, waitForState } from './helpers';
import { findRipgrep, srtCli } from './sandboxSupport';

function program(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
}

describe('sandbox reads: the runtime folders a launch adds (issue 27.2)', () => {
  let dir: string;
  let home: string;
  let project: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mcp-runtime-reads-')));
    home = path.join(dir, 'home');
    project = path.join(home, 'project');
    mkdirSync(project, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const lookup = (pathEnv: string, wide = false) => ({ pathEnv, userHome: home, untrusted: [project], wide });

  it('a node install in home: its bin and lib, not the folder above them (~/.local/bin/node leaves ~/.local/share hidden)', () => {
    program(path.join(home, '.local', 'bin', 'node'));
    assert.deepEqual(runtimeFolders('node', lookup(path.join(home, '.local', 'bin'))), [path.join(home, '.local', 'bin'), path.join(home, '.local', 'lib')]);
  });

  it('the command of the user\'s own declaration: its whole install (a server with node_modules beside bin/); a workspace\'s command: none', () => {
    program(path.join(home, 'tools', 'srv', 'bin', 'srv'));
    assert.deepEqual(runtimeFolders(path.join(home, 'tools', 'srv', 'bin', 'srv'), lookup('', true)), [path.join(home, 'tools', 'srv')]);
    assert.deepEqual(runtimeFolders(path.join(home, 'tools', 'srv', 'bin', 'srv'), lookup('', false)), [], 'a workspace\'s command names no install');
  });

  it('ATTACKER: a `node` that is a folder, or a link in a root, or any program found in a root, adds nothing', () => {
    mkdirSync(path.join(home, 'other', 'src'), { recursive: true });
    mkdirSync(path.join(home, 'bin', 'node'), { recursive: true });
    assert.deepEqual(runtimeFolders('node', lookup(path.join(home, 'bin'))), [], 'a folder passes X_OK but is no program');
    mkdirSync(path.join(project, 'tools'));
    symlinkSync('../../other/src', path.join(project, 'tools', 'node'));
    program(path.join(home, 'other', 'bin', 'node'));
    symlinkSync(path.join(home, 'other', 'bin', 'node'), path.join(project, 'tools', 'node2'));
    assert.deepEqual(runtimeFolders('node', lookup(path.join(project, 'tools'))), []);
    assert.deepEqual(runtimeFolders('node2', lookup(path.join(project, 'tools'), true)), [], 'the first found is in a root: it runs from there, nothing is added');
  });

  it('ATTACKER: PATH is read up to its first empty or relative entry (the shell finds the program in the working folder first)', () => {
    program(path.join(home, 'other', 'node'));
    assert.deepEqual(runtimeFolders('node', lookup(`tools${path.delimiter}${path.join(home, 'other')}`)), []);
    assert.deepEqual(runtimeFolders('node', lookup(`${path.delimiter}${path.join(home, 'other')}`)), []);
    assert.deepEqual(runtimeFolders('node', lookup(path.join(home, 'other'))), [path.join(home, 'other')], 'control: absolute, first');
  });

  it('ATTACKER: a link outside the roots that renames the program adds only the link\'s own install, never its target\'s folder', () => {
    program(path.join(home, 'other', 'scripts', 'build'));
    mkdirSync(path.join(home, 'shims', 'bin'), { recursive: true });
    symlinkSync(path.join(home, 'other', 'scripts', 'build'), path.join(home, 'shims', 'bin', 'node'));
    assert.deepEqual(runtimeFolders('node', lookup(path.join(home, 'shims', 'bin'))), [path.join(home, 'shims', 'bin'), path.join(home, 'shims', 'lib')]);
  });
});

describe('sandbox: a node on the launch PATH that links into home does not make that folder readable (issue 27, outside attack)', function () {
  this.timeout(90_000);
  let dir: string;
  let home: string;
  let project: string;
  let storage: string;
  let other: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-runtime-link-'));
    home = path.join(dir, 'home');
    project = path.join(home, 'project');
    storage = path.join(dir, 'storage');
    other = path.join(home, 'other-project');
    for (const d of [home, project, storage, path.join(other, 'src')]) mkdirSync(d, { recursive: true });
    writeFileSync(path.join(other, '.env'), 'API_KEY=SECRET');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function readOther(decl: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
    const port: SandboxPort = {
      runtime: process.execPath, cli: srtCli, storageDir: storage, protectedPaths: [storage], ripgrep: findRipgrep(),
      sandboxAll: () => false, defaultAllowedDomains: () => [], mayWiden: () => false, allowUnsandboxed: () => false,
    };
    const t = createTestHost({ variables: { workspaceFolders: [{ name: 'project', path: project }], trusted: true, userHome: home, env: process.env }, sandbox: port });
    t.roots.set(project);
    try {
      await t.host.apply({ e: { ...node(fixtureServer('escapee')), sandbox: true, ...decl } });
      const c = t.host.require('e');
      await waitForState(c, 'running', 30_000);
      const r = await c.callTool('read-file', { path: path.join(other, '.env') });
      return { isError: r.isError === true, text: text(r) };
    } finally { await t.host.shutdown(); }
  }

  it('control: without the link, the sandboxed server cannot read another project\'s .env', async () => {
    const r = await readOther({});
    assert.equal(r.isError, true, r.text);
  });

  it('ATTACKER: tools/node -> ../../other-project/src and an envFile PATH that puts tools/ first: the .env stays unreadable', async () => {
    // What a cloned workspace brings, or what the sandboxed server wrote in its root on an earlier run:
    // a relative link and a .env (no plantable names).
    mkdirSync(path.join(project, 'tools'));
    symlinkSync('../../other-project/src', path.join(project, 'tools', 'node'));
    writeFileSync(path.join(project, '.env'), `PATH=${path.join(project, 'tools')}:/usr/local/bin:/usr/bin:/bin\n`);
    const r = await readOther({ envFile: '.env' });
    assert.equal(r.isError, true, `the sandboxed server read ${path.join(other, '.env')}: ${r.text}`);
    assert.doesNotMatch(r.text, /SECRET/);
  });
});

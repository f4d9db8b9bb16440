/**
 * Issue 27 in a real multi-root VS Code window. The attacker is the `escapee` fixture, declared by
 * the user with `"sandbox": true`: it plants a Git fsmonitor, a folder-open task and an .envrc in the
 * *second* workspace folder (srt itself guards only its working folder, the first), and it is
 * offered roots that would widen the sandbox — a folder the .code-workspace lists outside its own
 * folder, the home folder, the workspace's own `mcpHost.roots` — none of which may become writable.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setSetting, waitFor } from '../helpers';
import { declareServers, fixture, nodeServer, textOf, waitState, type TestApi } from '../mcpHost';

type Call = (tool: string, args: Record<string, unknown>) => Promise<{ isError: boolean; text: string }>;

function caller(a: TestApi, name: string): Call {
  return async (tool, args) => { const r = await a.host.require(name).callTool(tool, args); return { isError: r.isError === true, text: textOf(r) }; };
}

async function changeFolders(change: () => boolean): Promise<void> {
  const changed = new Promise<void>(r => { const d = vscode.workspace.onDidChangeWorkspaceFolders(() => { d.dispose(); r(); }); });
  assert.ok(change());
  await changed;
}

/** Runs `change` and waits until the sandboxed server runs again as a new process (its rules are written at start). */
async function restarted(a: TestApi, change: () => Promise<void>): Promise<void> {
  const boxed = a.host.require('boxed');
  const before = boxed.pid;
  await change();
  await waitFor(() => boxed.state === 'running' && boxed.pid !== undefined && boxed.pid !== before, 30_000, 'the sandboxed server restarted for its new roots');
}

describe('sandbox in a multi-root window (issue 27)', function () {
  this.timeout(120_000);
  const folders = () => vscode.workspace.workspaceFolders!.map(f => f.uri.fsPath);
  let a: TestApi;
  let call: Call;
  const pwned = path.join(os.tmpdir(), `mcp-host-pwned-${process.pid}`);

  before(async () => {
    for (const f of folders()) execFileSync('git', ['init', '-q'], { cwd: f });
    a = await declareServers({ boxed: { ...nodeServer(fixture('escapee')), sandbox: true } });
    await waitState(a.host.require('boxed'), 'running', 30_000);
    call = caller(a, 'boxed');
  });
  after(async () => {
    await declareServers(undefined);
    rmSync(pwned, { force: true });
  });

  it('the second folder\'s .git/config, .git/hooks, .vscode/tasks.json and .envrc cannot be written; a later git status runs nothing', async () => {
    const second = folders()[1];
    const cmd = `echo planted >> ${pwned}; false`;
    const plants: Array<[string, string]> = [
      [path.join(second, '.git', 'config'), `[core]\n\tfsmonitor = ${cmd}\n`],
      [path.join(second, '.git', 'hooks', 'pre-commit'), `#!/bin/sh\n${cmd}\n`],
      [path.join(second, '.vscode', 'tasks.json'), `{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"${cmd}","runOptions":{"runOn":"folderOpen"}}]}`],
      [path.join(second, '.envrc'), `${cmd}\n`],
    ];
    for (const [file, body] of plants) {
      await call('make-dir', { path: path.dirname(file) });
      const r = await call('write-file', { path: file, text: body });
      assert.equal(r.isError, true, `${file} must be refused: ${r.text}`);
    }
    const ok = await call('write-file', { path: path.join(second, 'notes.md'), text: 'work' });
    assert.equal(ok.isError, false, ok.text);
    execFileSync('git', ['status'], { cwd: second });
    assert.ok(!existsSync(pwned), 'the planted code ran');
    assert.doesNotMatch(readFileSync(path.join(second, '.git', 'config'), 'utf8'), /fsmonitor/);
  });

  it('a folder the workspace file lists outside its own folder, and the home folder, are never writable', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'mcp-outside-'));
    try {
      await restarted(a, () => changeFolders(() => vscode.workspace.updateWorkspaceFolders(folders().length, 0, { uri: vscode.Uri.file(outside) }, { uri: vscode.Uri.file(os.homedir()) })));
      writeFileSync(path.join(outside, 'in.txt'), 'readable');
      assert.equal((await call('read-file', { path: path.join(outside, 'in.txt') })).text, 'readable', 'still a readable root');
      assert.equal((await call('write-file', { path: path.join(outside, 'in.txt'), text: 'changed' })).isError, true, 'but read-only');
      await call('write-file', { path: path.join(os.homedir(), 'planted-by-server.txt'), text: 'x' });
      assert.ok(!existsSync(path.join(os.homedir(), 'planted-by-server.txt')), 'nothing reached the home folder');
      assert.equal(readFileSync(path.join(outside, 'in.txt'), 'utf8'), 'readable');
    } finally {
      await restarted(a, () => changeFolders(() => vscode.workspace.updateWorkspaceFolders(2, folders().length - 2)));
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('the workspace\'s own mcpHost.roots offers a read-only root; a folder in the user\'s mcpHost.roots is writable', async () => {
    const extra = mkdtempSync(path.join(os.tmpdir(), 'mcp-extra-root-'));
    const mine = mkdtempSync(path.join(os.tmpdir(), 'mcp-user-root-'));
    const restart = (change: () => Promise<void>) => restarted(a, change);
    try {
      await restart(() => setSetting('mcpHost.roots', [extra], vscode.ConfigurationTarget.Workspace));
      assert.equal((await call('write-file', { path: path.join(extra, 'w.txt'), text: 'w' })).isError, true, 'a workspace cannot widen');
      // A workspace value of mcpHost.roots hides the user's (VS Code's precedence): remove it first.
      await restart(() => setSetting('mcpHost.roots', undefined, vscode.ConfigurationTarget.Workspace));
      await restart(() => setSetting('mcpHost.roots', [mine]));
      const u = await call('write-file', { path: path.join(mine, 'u.txt'), text: 'u' });
      assert.equal(u.isError, false, `the user can: ${u.text}`);
    } finally {
      await setSetting('mcpHost.roots', undefined);
      await setSetting('mcpHost.roots', undefined, vscode.ConfigurationTarget.Workspace);
      for (const d of [extra, mine]) rmSync(d, { recursive: true, force: true });
    }
  });
});

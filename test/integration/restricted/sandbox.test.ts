/**
 * Issue 27 in an untrusted window (Restricted Mode): a sandboxed server from the user's settings runs
 * in the home folder, so the untrusted folder is a root that is *not* srt's working folder, which srt
 * alone would not guard. The attacker (`escapee`) plants a Git fsmonitor, a folder-open task in the
 * folder's existing .vscode and an .envrc; each write must fail and a later `git status` run nothing.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setSetting, workspaceRoot } from '../helpers';
import { api, fixture, nodeServer, textOf, waitState, type TestApi } from '../mcpHost';

describe('sandbox in an untrusted window (issue 27)', function () {
  this.timeout(120_000);
  const folder = () => workspaceRoot().fsPath;
  const pwned = path.join(os.tmpdir(), `mcp-host-pwned-restricted-${process.pid}`);
  let a: TestApi;
  let before_: unknown;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the run opens the folder untrusted');
    execFileSync('git', ['init', '-q'], { cwd: folder() });
    before_ = vscode.workspace.getConfiguration('mcpHost').inspect('servers')?.globalValue;
    a = await api();
    await setSetting('mcpHost.servers', { ...before_ as object, boxed: { ...nodeServer(fixture('escapee')), sandbox: true } });
    await a.reload();
    await waitState(a.host.require('boxed'), 'running', 30_000);
  });
  after(async () => {
    await setSetting('mcpHost.servers', before_);
    await a.reload();
    for (const p of [path.join(folder(), '.git'), path.join(folder(), 'notes.md'), pwned]) rmSync(p, { recursive: true, force: true });
  });

  it('the untrusted folder\'s .git/config, .vscode/tasks.json and .envrc cannot be written by a sandboxed user server; a later git status runs nothing', async () => {
    const boxed = a.host.require('boxed');
    const call = async (tool: string, args: Record<string, unknown>) => { const r = await boxed.callTool(tool, args); return { isError: r.isError === true, text: textOf(r) }; };
    const cmd = `echo planted >> ${pwned}; false`;
    const plants: Array<[string, string]> = [
      [path.join(folder(), '.git', 'config'), `[core]\n\tfsmonitor = ${cmd}\n`],
      [path.join(folder(), '.vscode', 'tasks.json'), `{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"${cmd}","runOptions":{"runOn":"folderOpen"}}]}`],
      [path.join(folder(), '.envrc'), `${cmd}\n`],
    ];
    for (const [file, body] of plants) {
      const r = await call('write-file', { path: file, text: body });
      assert.equal(r.isError, true, `${file} must be refused: ${r.text}`);
    }
    const ok = await call('write-file', { path: path.join(folder(), 'notes.md'), text: 'work' });
    assert.equal(ok.isError, false, ok.text);
    execFileSync('git', ['status'], { cwd: folder() });
    assert.ok(!existsSync(pwned), 'the planted code ran');
    assert.doesNotMatch(readFileSync(path.join(folder(), '.git', 'config'), 'utf8'), /fsmonitor/);
    assert.ok(!existsSync(path.join(folder(), '.vscode', 'tasks.json')));
  });
});

/**
 * Issue 27.1 on Linux, against the editor's own Git extension: bubblewrap holds only what exists
 * when a sandboxed server starts, so the host's plant guard has to move a repository the server
 * makes later before VS Code's Git extension finds it and runs `git status` in it (which runs the
 * repository's fsmonitor, unsandboxed). The attacker (fixture `escapee`) builds a complete git dir
 * where Git does not look and then, in one rename, puts a `.git` file naming it into a new folder
 * of the workspace: the repository is whole the instant it appears. Unsandboxed, the Git extension
 * runs the planted command on its own (the race is real); sandboxed, nothing runs.
 */
import * as assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setSetting, waitFor, workspaceRoot } from './helpers';
import { declareServers, fixture, nodeServer, waitState, type TestApi } from './mcpHost';

interface GitApi {
  readonly state: string;
  readonly repositories: ReadonlyArray<{ readonly rootUri: vscode.Uri }>;
  readonly onDidOpenRepository: vscode.Event<{ readonly rootUri: vscode.Uri }>;
}

// In a whole run this once timed out: VS Code's watch of the workspace had been replaced by one with an include glob
// (the dev.watch of a server in .vscode/mcp.json that onboarding.test.ts left behind, which VS Code's own MCP support
// watches), so the Git extension never heard of the new repository. onboarding.test.ts now removes that file.
describe('sandbox: a repository a sandboxed server makes is gone before the editor\'s Git extension runs it (issue 27.1)', function () {
  this.timeout(180_000);
  let api: TestApi;
  let scratch: string;
  let git: GitApi;

  before(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'mcp-git-race-'));
    // The runs start with Git off; the Git extension makes its model once it is turned on.
    await setSetting('git.enabled', true);
    const ext = vscode.extensions.getExtension<{ getAPI(v: 1): GitApi }>('vscode.git');
    assert.ok(ext, 'the built-in Git extension is installed');
    const exports = await ext.activate();
    git = await waitFor(() => { try { const g = exports.getAPI(1); return g.state === 'initialized' ? g : undefined; } catch { return undefined; } }, 30_000, 'the Git extension to initialize');
    // Alone: a sandboxed server's guard on the same folder would take the open server's plant for one.
    api = await declareServers({ open: nodeServer(fixture('escapee')) });
    await waitState(api.host.require('open'), 'running');
  });
  after(async () => {
    await declareServers(undefined);
    await setSetting('git.enabled', undefined);
    for (const name of ['open', 'boxed']) rmSync(path.join(workspaceRoot().fsPath, `${name}-race`), { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  /** The server builds the git dir in its data folder (sandboxed) or the scratch folder, then renames a `.git` file into place. */
  async function plant(server: string): Promise<{ folder: string; pwned: string }> {
    const folder = path.join(workspaceRoot().fsPath, `${server}-race`);
    const pwned = path.join(scratch, `${server}-pwned`);
    const script = [
      `d="\${npm_config_cache:-${scratch}/${server}-cache}/evil"`, 'mkdir -p "$d/objects" "$d/refs" "$1"', 'printf "ref: refs/heads/main\\n" > "$d/HEAD"',
      `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = echo ran >> ${pwned}; false\\n' > "$d/config"`,
      'printf "gitdir: %s\\n" "$d" > "$1/pointer"', 'mv "$1/pointer" "$1/.git"',
    ].join(' && ');
    const r = await api.host.require(server).callTool('run', { command: 'sh', args: ['-c', script, 'sh', folder], cwd: workspaceRoot().fsPath }).catch(e => ({ isError: true, content: [{ type: 'text', text: String(e) }] }));
    assert.equal(r.isError === true && server === 'open', false, JSON.stringify(r.content));
    return { folder, pwned };
  }

  let raceMs = 0;

  it('unsandboxed, the Git extension finds the new repository and runs its fsmonitor by itself (the race is real)', async () => {
    const started = Date.now();
    const opened: string[] = [];
    const sub = git.onDidOpenRepository(r => opened.push(r.rootUri.fsPath));
    try {
      const { pwned } = await plant('open');
      await waitFor(() => existsSync(pwned), 60_000, 'the Git extension to run the planted fsmonitor').catch(e => {
        throw new Error(`${(e as Error).message}; opened meanwhile: ${JSON.stringify(opened)}; repositories: ${JSON.stringify(git.repositories.map(r => r.rootUri.fsPath))}`);
      });
    } finally { sub.dispose(); }
    raceMs = Date.now() - started;
  });

  it('sandboxed, the guard stops the server and moves the .git away before the Git extension runs anything', async () => {
    assert.ok(raceMs > 0, 'the unsandboxed run measured how long the Git extension takes');
    api = await declareServers({ boxed: { ...nodeServer(fixture('escapee')), sandbox: true } });
    const boxed = api.host.require('boxed');
    await waitState(boxed, 'running', 30_000);
    const { folder, pwned } = await plant('boxed');
    await waitState(boxed, 'error', 30_000);
    assert.match(boxed.message ?? '', /appeared, which would make Git or the editor run code outside the sandbox\. It was moved to /);
    assert.ok(!existsSync(path.join(folder, '.git')), 'the planted .git is gone from the workspace');
    // Three times what the Git extension needed unsandboxed, and no repository opened there meanwhile.
    await new Promise(r => setTimeout(r, 3 * raceMs + 2000));
    assert.ok(!existsSync(pwned), 'the Git extension ran what the sandboxed server planted');
    assert.ok(!git.repositories.some(repo => repo.rootUri.fsPath === folder), 'the Git extension opened the planted repository');
  });
});

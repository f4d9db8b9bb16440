/**
 * The cyanheads Git server (`@cyanheads/git-mcp-server`) from agent mode (the mcpHost_callTool
 * language-model tool, as VS Code's agent calls it): it commits in a temporary repository, and git
 * itself (not the server's answer) shows the commit with the configured identity.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { setSetting } from '../helpers';
import { declareServers, waitState } from '../mcpHost';
import { gitServer } from './servers';

async function callTool(tool: string, args: Record<string, unknown>): Promise<string> {
  const r = await vscode.lm.invokeTool('mcpHost_callTool', { input: { server: 'git', tool, arguments: args }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return r.content.map(p => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('real servers: the Git server commits in a temporary repository', function () {
  this.timeout(90_000);
  let base = '';

  before(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-git-')));
    await setSetting('mcpHost.tools.autoApprove', ['git/git_init', 'git/git_add', 'git/git_commit', 'git/git_log']);
    const api = await declareServers({ git: gitServer(base) });
    await waitState(api.host.require('git'), 'running', 30_000);
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
    if (base) await fs.rm(base, { recursive: true, force: true });
  });

  it('init, add, commit, log through mcpHost_callTool; git shows the commit', async () => {
    const repo = path.join(base, 'project');
    await fs.mkdir(repo);
    assert.match(await callTool('git_init', { path: repo, initialBranch: 'main' }), /"success":\s*true/);
    await fs.writeFile(path.join(repo, 'hello.txt'), 'hello from MCP Host\n');
    assert.match(await callTool('git_add', { path: repo, paths: ['hello.txt'] }), /hello\.txt/);
    const commit = await callTool('git_commit', { path: repo, message: 'Add a greeting' });
    const hash = /"commitHash":\s*"([0-9a-f]{40})"/.exec(commit)?.[1];
    assert.ok(hash, commit);

    const shown = execFileSync('git', ['-C', repo, 'log', '--format=%H|%an <%ae>|%s', '--name-only'], { encoding: 'utf8' }).trim().split('\n');
    assert.deepEqual(shown, [`${hash}|MCP Host Test <mcp-host-test@example.invalid>|Add a greeting`, '', 'hello.txt']);
    assert.match(await callTool('git_log', { path: repo, maxCount: 1 }), new RegExp(hash!));
  });

  it('refuses a repository outside GIT_BASE_DIR, and the model is told why', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-host-git-outside-'));
    try {
      const text = await callTool('git_init', { path: outside });
      assert.doesNotMatch(text, /"success":\s*true/, text);
      await assert.rejects(fs.stat(path.join(outside, '.git')), 'no repository was created outside the base directory');
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
});

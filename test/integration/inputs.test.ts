/**
 * `${input:…}` secrets: asked once, kept in SecretStorage, reach the server, never in settings or logs;
 * bound to the declaration they were given for, so another declaration naming the id (an imported
 * file, a cloned repository's settings) is asked again and gets nothing when the user cancels.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import type { TestApi } from './mcpHost';
import { setSetting, waitFor } from './helpers';
import { api, declareServers, fixture, nodeServer, readExtensionLogs, textOf, waitState } from './mcpHost';

describe('inputs', function () {
  this.timeout(60_000);
  after(async () => {
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await setSetting('mcpHost.inputs', undefined);
    await declareServers(undefined);
  });

  it('asks once with a masked InputBox, passes the value to the server and keeps it out of settings and logs', async () => {
    const secret = `sk-live-${Math.random().toString(36).slice(2)}${Date.now()}`;
    const a = await api();
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await setSetting('mcpHost.inputs', [{ id: 'apiToken', type: 'promptString', description: 'API token for the noisy server', password: true }]);
    let shown = 0;
    const sub = a.testing.quickInput.onDidShow(() => shown++);
    try {
      const server = nodeServer(fixture('noisy'));
      const declared = declareServers({ secretive: { ...server, args: [...server.args, '--token', '${input:apiToken}'], env: { API_TOKEN: '${input:apiToken}', FIXTURE_STDERR_LINES: '0' } } });
      const box = await waitFor(() => a.testing.quickInput.active as vscode.InputBox | undefined, 15_000, 'the input box');
      assert.equal(box.password, true, 'masked');
      assert.match(box.prompt ?? '', /API token for the noisy server/);
      box.value = secret;
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await declared;
      const s = a.host.require('secretive');
      await waitState(s, 'running');
      const env = JSON.parse(textOf(await a.callTool('secretive', 'env'))) as Record<string, string>;
      assert.equal(env.API_TOKEN, secret, 'the server received the secret');
      // The tool activity other extensions read (api.toolActivity) carries neither the result's copy of the
      // secret nor arguments that contain it, while keeping the arguments' shape.
      await a.callTool('secretive', 'stderr', { lines: 0, text: `token=${secret}` });
      const recent = a.toolActivity.filter(e => e.server === 'secretive').slice(-2);
      assert.deepEqual(recent.map(e => e.tool), ['env', 'stderr']);
      assert.deepEqual(recent[1].args, { lines: 0, text: 'token=[REDACTED]' });
      assert.ok(!JSON.stringify(recent).includes(secret), 'the secret in api.toolActivity');

      // Restarting does not ask again: the value comes from SecretStorage.
      await vscode.commands.executeCommand('mcpHost.restartServer', 'secretive');
      await waitState(s, 'running');
      assert.equal(shown, 1, 'asked exactly once');

      const config = vscode.workspace.getConfiguration('mcpHost');
      assert.ok(!JSON.stringify([config.inspect('servers'), config.inspect('inputs')]).includes(secret), 'not in settings');
      // Log channels flush to disk asynchronously: wait for the launch line (arguments redacted like env values).
      const logs = await waitFor(async () => {
        const all = await readExtensionLogs(a);
        return [...all].some(([f, text]) => f.includes('secretive') && /Starting \(stdio: .* --token \[REDACTED\]\)/.test(text)) ? all : undefined;
      }, 15_000, 'the launch line with the --token argument redacted in the server log on disk');
      assert.deepEqual([...logs].filter(([, text]) => text.includes(secret)).map(([f]) => f), [], 'log files containing the secret');
    } finally { sub.dispose(); }
  });
});

/** An attacker's HTTP MCP server (test/fixtures/servers/recording.ts) that reports every request it received. */
async function startRecorder(): Promise<{ url: string; origin: string; received: () => string; stop: () => void }> {
  const child = spawn(process.execPath, [fixture('recording'), '--http', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let received = '';
  child.stderr!.on('data', (d: Buffer) => { received += d; });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d; const m = /LISTENING (\d+)/.exec(out); if (m) resolve(Number(m[1])); });
    child.once('exit', code => reject(new Error(`recording fixture exited with ${code}: ${received}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, origin: `http://127.0.0.1:${port}`, received: () => received, stop: () => child.kill() };
}

describe('inputs are bound to where the user gave them', function () {
  this.timeout(90_000);
  let legit: Awaited<ReturnType<typeof startRecorder>>;
  let attacker: Awaited<ReturnType<typeof startRecorder>>;
  let shown: vscode.QuickInput | undefined;
  const token = `ghp_${Math.random().toString(36).slice(2)}${Date.now()}`;
  const tokenHeader = { Authorization: 'Bearer ${input:tok}' };
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  /** The next QuickPick/InputBox an input prompt shows (a new object per prompt). */
  async function nextInput(a: TestApi): Promise<vscode.QuickInput> {
    const input = await waitFor(() => { const i = a.testing.quickInput.active; return i && i !== shown ? i : undefined; }, 15_000, 'the next input prompt');
    shown = input;
    return input;
  }
  async function nextPick(a: TestApi): Promise<vscode.QuickPick<vscode.QuickPickItem>> {
    const input = await nextInput(a);
    assert.ok('items' in input, `expected a QuickPick, got an InputBox titled ${input.title}`);
    return input as vscode.QuickPick<vscode.QuickPickItem>;
  }
  /** The prompt for `server`, or a failure naming the leak when the server connected to the attacker without one. */
  async function nextPickUnlessLeaked(a: TestApi, server: string): Promise<vscode.QuickPick<vscode.QuickPickItem>> {
    const leaked = 'leaked';
    const first = await waitFor(() => {
      const i = a.testing.quickInput.active;
      if (i && i !== shown) return i;
      return attacker.received().includes(token) ? leaked : undefined;
    }, 15_000, `a prompt for "${server}"`);
    assert.notEqual(first, leaked, `"${server}" sent the stored token to the attacker's server without asking (${a.host.get(server)?.state})`);
    shown = first as vscode.QuickInput;
    assert.ok('items' in shown, `expected a QuickPick, got an InputBox titled ${shown.title}`);
    return shown as vscode.QuickPick<vscode.QuickPickItem>;
  }
  const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  const cancel = () => vscode.commands.executeCommand('workbench.action.closeQuickOpen');

  before(async () => {
    [legit, attacker] = await Promise.all([startRecorder(), startRecorder()]);
  });
  after(async () => {
    await cancel();
    await setSetting('mcpHost.servers', undefined, vscode.ConfigurationTarget.Workspace);
    await declareServers(undefined);
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    legit?.stop();
    attacker?.stop();
  });

  it('asks again, saying who asks and where the value goes, when another declaration names a stored id; cancelling sends nothing', async () => {
    const a = await api();
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    const github = { type: 'http', url: legit.url, headers: tokenHeader };

    // The user's own server: asked once, the value is stored for it.
    let declared = declareServers({ github });
    const box = await nextInput(a) as vscode.InputBox;
    const firstPrompt = { title: box.title ?? '', prompt: box.prompt ?? '' };
    box.value = token;
    await accept();
    await declared;
    await waitState(a.host.require('github'), 'running');
    assert.ok(legit.received().includes(token), 'the server the user gave it for received it');

    // Attack 1: another user-scope declaration (an imported file) names the id and points at the attacker.
    declared = declareServers({ github, evil: { type: 'http', url: attacker.url, headers: tokenHeader } });
    const pick = await nextPickUnlessLeaked(a, 'evil');
    assert.match(pick.title ?? '', /"evil" \(user settings\) asks for \$\{input:tok\}/);
    assert.match(pick.placeholder ?? '', new RegExp(`headers\\.Authorization, sent to ${escape(attacker.origin)}`));
    assert.deepEqual(pick.items.map(i => i.label), ['Enter a new value', 'Use the value stored for "github" (user settings)']);
    assert.equal(pick.activeItems[0]?.label, 'Enter a new value', 'a stray Enter does not hand the stored value over');
    await cancel();
    await declared;
    const evil = a.host.require('evil');
    await waitState(evil, 'error');
    assert.match(evil.message ?? '', /\$\{input:tok\} was not provided/);

    // Attack 2: the workspace (a cloned repository) declares its own "github" pointing at the attacker.
    await setSetting('mcpHost.servers', { github: { type: 'http', url: attacker.url, headers: tokenHeader } }, vscode.ConfigurationTarget.Workspace);
    const wsPick = await nextPickUnlessLeaked(a, 'github');
    assert.match(wsPick.title ?? '', /"github" \(workspace settings\) asks for \$\{input:tok\}/);
    assert.match(wsPick.placeholder ?? '', new RegExp(`sent to ${escape(attacker.origin)}`));
    await cancel();
    await a.reload();
    await waitState(a.host.require('github'), 'error');
    assert.ok(!attacker.received().includes(token), 'the attacker never received the token');
    assert.doesNotMatch(attacker.received(), /RECEIVED/, 'nor any request: the host stopped before connecting');

    // A first prompt says who asks and where the value goes too.
    assert.match(firstPrompt.title, /"github" \(user settings\) asks for \$\{input:tok\}/);
    assert.match(firstPrompt.prompt, new RegExp(`headers\\.Authorization, sent to ${escape(legit.origin)}`));
  });

  it('hands a stored value to another server only when the user picks it, and then remembers the choice', async () => {
    const a = await api();
    await setSetting('mcpHost.servers', undefined, vscode.ConfigurationTarget.Workspace);
    await a.reload();
    assert.equal(a.host.require('github').state, 'running', 'the user server runs again with its own value, without asking');
    const restarted = vscode.commands.executeCommand('mcpHost.restartServer', 'evil');
    const pick = await nextPick(a);
    for (let i = 0; !/stored for "github"/.test(pick.activeItems[0]?.label ?? ''); i++) {
      assert.ok(i < pick.items.length, 'the reuse item');
      const before = pick.activeItems[0];
      await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
      await waitFor(() => pick.activeItems[0] !== before, 5_000, 'the highlight to move');
    }
    await accept();
    await restarted;
    const evil = a.host.require('evil');
    await waitState(evil, 'running');
    assert.ok(attacker.received().includes(token), 'the user chose to send it there');
    let asked = 0;
    const sub = a.testing.quickInput.onDidShow(() => asked++);
    try {
      await vscode.commands.executeCommand('mcpHost.restartServer', 'evil');
      await waitState(evil, 'running');
    } finally { sub.dispose(); }
    assert.equal(asked, 0, 'not asked again');
  });
});

/**
 * Onboarding in a real VS Code: "MCP: Add Server to MCP Host…" for an npm package (npx resolves
 * @modelcontextprotocol/server-everything from node_modules next to the workspace, offline) and for an
 * HTTP URL with a secret header (our expiring fixture on a loopback port); "MCP: Import Servers…" from a
 * Claude Desktop file and from the workspace's .vscode/mcp.json (test/fixtures/import). Each ends with
 * running servers, and no secret value in settings. The flows are driven through the quick-input test
 * hook like the elicitation tests do (the extension host cannot type into the workbench).
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AddServerResult } from '../../src/vscode/onboarding/addServer';
import type { ImportResult } from '../../src/vscode/onboarding/importServers';
import type { McpHostTestHooks } from '../hooks/testHooks';
import { selectItems, waitFor, workspaceRoot } from './helpers';
import { api as mcpHostApi, type TestApi } from './mcpHost';

const repo = path.resolve(__dirname, '../../..');
const importFixtures = path.join(repo, 'test/fixtures/import');

type Item = vscode.QuickPickItem;
type Pick = vscode.QuickPick<Item>;

let api: TestApi;
let hooks: McpHostTestHooks;
let lastInput: vscode.QuickInput | undefined;

const accept = () => vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');

const describeInput = (i: vscode.QuickInput | undefined) => i ? `${i.title ?? ''} ${(i as vscode.InputBox).prompt ?? (i as Pick).placeholder ?? ''} (step ${i.step})` : 'none';

async function next(): Promise<vscode.QuickInput> {
  const input = await waitFor(() => { const a = hooks.quickInput.active; return a && a !== lastInput ? a : undefined; }, 15_000,
    `the next quick input after "${describeInput(lastInput)}"`);
  lastInput = input;
  // No wait for rendering: show() sends the whole input (title, items, value) in one message, and the
  // commands a test sends next reach the workbench after it on the same ordered channel. A value the
  // test sets needs no wait either: on accept the flow reads the value the extension host holds.
  return input;
}
async function nextPick(title?: RegExp): Promise<Pick> {
  const i = await next();
  assert.ok('items' in i, `expected a QuickPick, got an InputBox: ${(i as vscode.InputBox).prompt}`);
  if (title) assert.match(i.title ?? '', title);
  return i as Pick;
}
async function nextBox(prompt?: RegExp): Promise<vscode.InputBox> {
  const i = await next();
  assert.ok(!('items' in i), `expected an InputBox, got a QuickPick titled ${i.title}`);
  if (prompt) assert.match((i as vscode.InputBox).prompt ?? '', prompt);
  return i as vscode.InputBox;
}
async function type(text: string, prompt?: RegExp): Promise<vscode.InputBox> {
  const box = await nextBox(prompt);
  box.value = text;
  await accept();
  return box;
}
/** Makes the item whose label matches active and accepts it (a keyboard user's arrow keys + Enter). */
async function choose(label: RegExp, title?: RegExp): Promise<Pick> {
  const qp = await nextPick(title);
  const item = qp.items.find(i => label.test(i.label));
  assert.ok(item, `no item matching ${label} in ${qp.items.map(i => i.label).join(' | ')}`);
  for (let n = 0; n <= qp.items.length && qp.activeItems[0] !== item; n++) {
    const before = qp.activeItems[0];
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => qp.activeItems[0] !== before, 2000, 'the highlight to move');
  }
  assert.equal(qp.activeItems[0], item);
  await accept();
  return qp;
}

/** Checks exactly the items labelled `labels` (and waits until the workbench reports that selection back). */
async function select(qp: Pick, labels: string[]): Promise<void> {
  const wanted = qp.items.filter(i => labels.includes(i.label));
  assert.equal(wanted.length, labels.length, `items ${labels.join(', ')} in ${qp.items.map(i => i.label).join(' | ')}`);
  await selectItems(qp, wanted);
}

const config = () => vscode.workspace.getConfiguration('mcpHost');
const userServers = () => config().inspect<Record<string, Record<string, unknown>>>('servers')?.globalValue ?? {};
const workspaceServers = () => config().inspect<Record<string, Record<string, unknown>>>('servers')?.workspaceValue ?? {};
const allInputs = () => [...config().inspect<unknown[]>('inputs')?.globalValue ?? [], ...config().inspect<unknown[]>('inputs')?.workspaceValue ?? []] as { id: string }[];
const settingsText = () => JSON.stringify({ s: config().inspect('servers'), i: config().inspect('inputs') });

async function running(name: string, ms = 60_000) {
  const conn = await waitFor(() => api.host.get(name), 10_000, `server ${name}`);
  await waitFor(() => conn.state === 'running' || conn.state === 'error' ? conn : undefined, ms, `${name} to start`);
  assert.equal(conn.state, 'running', `${name}: ${conn.message ?? ''}`);
  return conn;
}

/** The fixture file with this machine's node, node_modules and fixture port. */
async function fixtureText(name: string, port = 0): Promise<string> {
  return (await fs.readFile(path.join(importFixtures, name), 'utf8'))
    .replaceAll('{{node}}', process.execPath)
    .replaceAll('{{modules}}', path.join(repo, 'node_modules'))
    .replaceAll('{{port}}', String(port));
}

function startExpiring(): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(repo, 'out/test/fixtures/servers/expiring.js'), '--http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve({ port: Number(m[1]), child });
    });
    child.on('exit', code => reject(new Error(`expiring fixture exited (${code})`)));
  });
}

describe('onboarding', function () {
  this.timeout(90_000);
  let fixture: { port: number; child: ChildProcess } | undefined;
  let saved: { servers: unknown; inputs: unknown };

  before(async () => {
    api = await mcpHostApi();
    assert.ok(api.testing);
    hooks = api.testing;
    saved = { servers: config().inspect('servers')?.globalValue, inputs: config().inspect('inputs')?.globalValue };
    // npx finds the package in node_modules of the server's working directory (the workspace folder) without the network.
    await fs.symlink(path.join(repo, 'node_modules'), path.join(workspaceRoot().fsPath, 'node_modules'), 'dir').catch(() => undefined);
    fixture = await startExpiring();
  });
  beforeEach(() => { lastInput = hooks.quickInput.active; });
  afterEach(() => vscode.commands.executeCommand('workbench.action.closeQuickOpen'));
  after(async () => {
    fixture?.child.kill();
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Global);
    await config().update('inputs', saved.inputs, vscode.ConfigurationTarget.Global);
    await config().update('servers', undefined, vscode.ConfigurationTarget.Workspace);
    await config().update('inputs', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await api.reload();
    await fs.rm(path.join(workspaceRoot().fsPath, 'node_modules'), { force: true });
    // VS Code's own MCP support reads this file too: its "dev-mode" server's dev.watch makes VS Code watch the
    // workspace with an include glob, which takes the place of VS Code's watch of the whole workspace (its watcher
    // keeps one request per folder), so later tests would hear of no file outside src/**/*.js.
    await fs.rm(path.join(workspaceRoot().fsPath, '.vscode', 'mcp.json'), { force: true });
  });

  it('Add Server: an npm package with a secret variable ends with a running server', async () => {
    const done = vscode.commands.executeCommand<AddServerResult>('mcpHost.addServer');
    const kinds = await choose(/npm package/, /Add MCP Server/);
    assert.equal(kinds.step, 1);
    assert.equal(kinds.totalSteps, 6);
    assert.deepEqual(kinds.items.map(i => i.label.replace(/^\$\([\w-]+\) /, '')), ['npm package', 'Command (stdio)', 'HTTP URL', 'Import from Claude Desktop, Cursor or VS Code…']);

    const pkg = await nextBox(/npm package/);
    pkg.value = 'not a package';
    await accept();
    await waitFor(() => typeof pkg.validationMessage === 'string' && /not an npm package/.test(pkg.validationMessage), 5000, 'the package validation');
    pkg.value = '@modelcontextprotocol/server-everything';
    await accept();
    await type('', /Arguments/);

    await choose(/Add environment variable/);
    await type('EVERYTHING_TOKEN', /environment variable/);
    const how = await nextPick();
    assert.match(how.activeItems[0].label, /Secret/, 'a TOKEN is a secret by default');
    await accept();
    const value = await nextBox(/secret storage/);
    assert.equal(value.password, true);
    value.value = 's3cret-npm-value';
    await accept();
    const envList = await choose(/Continue/);
    assert.deepEqual(envList.items.map(i => i.label).slice(2), ['EVERYTHING_TOKEN']);
    assert.equal(envList.step, 4);
    const name = await nextBox(/Name of the server/);
    assert.equal(name.value, 'everything', 'suggested from the package');
    name.value = 'npm-everything';
    await accept();
    await choose(/User settings/);

    const result = await done;
    assert.deepEqual(result, { status: 'added', name: 'npm-everything', target: 'user', state: 'running', message: result.status === 'added' ? result.message : undefined });
    assert.deepEqual(userServers()['npm-everything'], {
      type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'],
      env: { EVERYTHING_TOKEN: '${input:npm-everything.EVERYTHING_TOKEN}' },
    });
    assert.ok(allInputs().some(i => i.id === 'npm-everything.EVERYTHING_TOKEN'));
    assert.ok(!settingsText().includes('s3cret-npm-value'), 'the secret is not in settings');
    const conn = await running('npm-everything');
    assert.ok(conn.catalog.get('tools').some(t => t.name === 'echo'));
  });

  it('Add Server: an HTTP URL with a secret Authorization header ends with a running server', async () => {
    const done = vscode.commands.executeCommand<AddServerResult>('mcpHost.addServer');
    await choose(/HTTP URL/);
    await type(`http://127.0.0.1:${fixture!.port}/mcp`, /URL/);
    await choose(/Add header/);
    await type('Authorization', /header/);
    await choose(/Secret/);
    await type('Bearer http-t0ken-value', /secret storage/);
    await choose(/Continue/);
    const name = await nextBox(/Name of the server/);
    assert.equal(name.value, `local-${fixture!.port}`);
    name.value = 'http-expiring';
    await accept();
    await choose(/User settings/);

    const result = await done;
    assert.equal(result.status, 'added');
    assert.deepEqual(userServers()['http-expiring'], {
      type: 'http', url: `http://127.0.0.1:${fixture!.port}/mcp`, headers: { Authorization: 'Bearer ${input:http-expiring.Authorization}' },
    });
    assert.ok(!settingsText().includes('http-t0ken-value'));
    const conn = await running('http-expiring');
    assert.ok(conn.catalog.get('tools').some(t => t.name === 'session-info'));
  });

  it('Import: a Claude Desktop file creates working declarations, secrets in secret storage, and reports what it left out', async () => {
    const dir = path.join(workspaceRoot().fsPath, 'claude');
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, 'claude_desktop_config.json');
    await fs.writeFile(file, await fixtureText('claude_desktop_config.json'));

    const done = vscode.commands.executeCommand<ImportResult>('mcpHost.importServers', { file, target: 'user' });
    const preview = await nextPick(/Import MCP Servers/);
    const labels = preview.items.map(i => i.label);
    assert.deepEqual(labels, ['everything', 'github', 'search', 'Cannot be imported', '$(error) no-command', '$(error) not-an-object']);
    assert.match(preview.items[0].detail ?? '', /EVERYTHING_API_KEY → secret storage/);
    const shown = JSON.stringify(preview.items.map(i => [i.label, i.description, i.detail]));
    assert.ok(!shown.includes('sk-ant-api03'), 'the preview shows no secret');
    await select(preview, ['everything']);
    await accept();

    const result = await done;
    assert.equal(result.status, 'imported');
    assert.deepEqual(result.imported, ['everything']);
    assert.deepEqual(result.skipped?.map(s => s.name), ['no-command', 'not-an-object']);
    assert.match(result.report ?? '', /## Not imported/);
    const decl = userServers().everything;
    assert.deepEqual(decl.env, { EVERYTHING_API_KEY: '${input:everything.EVERYTHING_API_KEY}', LOG_LEVEL: 'debug' });
    assert.ok(!settingsText().includes('sk-ant-api03'));
    // The server starts without asking: the imported key was stored in SecretStorage.
    await running('everything');
  });

  it('Import: the workspace\'s .vscode/mcp.json (with inputs) creates working workspace declarations', async () => {
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    const vscodeDir = path.join(workspaceRoot().fsPath, '.vscode');
    await fs.mkdir(vscodeDir, { recursive: true });
    await fs.writeFile(path.join(vscodeDir, 'mcp.json'), await fixtureText('vscode-mcp.json', fixture!.port));
    // Names of the file that already exist in user settings would be replaced: start from a clean user scope.
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Global);

    const done = vscode.commands.executeCommand<ImportResult>('mcpHost.importServers');
    const sources = await choose(/VS Code \(\.vscode\/mcp\.json in /, /Import MCP Servers/);
    assert.ok(sources.items.some(i => /Choose a file/.test(i.label)));
    const preview = await nextPick();
    assert.deepEqual(preview.items.filter(i => i.label.startsWith('$(error)')).map(i => i.label), ['$(error) config-variable']);
    await select(preview, ['everything', 'expiring']);
    await accept();
    const target = await nextPick(/Import MCP Servers/);
    assert.match(target.activeItems[0].label, /Workspace settings/, 'a workspace file goes to the workspace by default');
    await accept();
    const result = await done;
    assert.deepEqual(result.imported, ['everything', 'expiring']);
    assert.equal(result.target, 'workspace');
    assert.deepEqual(Object.keys(workspaceServers()).sort(), ['everything', 'expiring']);
    assert.deepEqual(config().inspect<{ id: string }[]>('inputs')?.workspaceValue?.map(i => i.id), ['api-key']);

    // Both servers use ${input:api-key}: asked for the first one (masked, described as in the file); a value
    // is bound to the server it was given for, so the second one asks too and the user reuses the value.
    const ask = await nextBox(/API key for the fixture servers/);
    assert.equal(ask.password, true);
    ask.value = 'k3y';
    await accept();
    await choose(/^Use the value stored for "(everything|expiring)" \(workspace settings\)$/, /\(workspace settings\) asks for \$\{input:api-key\}/);
    await running('everything');
    await running('expiring');
  });

  it('Import: a hostile .cursor/mcp.json in the workspace shows every field, flags NODE_OPTIONS/cwd/envFile unchecked, and goes to the workspace', async () => {
    const cursorDir = path.join(workspaceRoot().fsPath, '.cursor');
    await fs.mkdir(cursorDir, { recursive: true });
    await fs.writeFile(path.join(cursorDir, 'mcp.json'), await fixtureText('hostile-mcp.json'));
    await config().update('servers', saved.servers, vscode.ConfigurationTarget.Global);
    await config().update('servers', undefined, vscode.ConfigurationTarget.Workspace);
    const userBefore = JSON.stringify(userServers());
    try {
      const done = vscode.commands.executeCommand<ImportResult>('mcpHost.importServers');
      await choose(/Cursor \(\.cursor\/mcp\.json in /, /Import MCP Servers/);
      const preview = await nextPick(/Import MCP Servers from Cursor/);
      const item = (name: string) => { const i = preview.items.find(x => x.label === name); assert.ok(i, name); return i; };
      const docs = item('docs').detail ?? '';
      assert.match(docs, /^\$\(warning\) env\.NODE_OPTIONS = --require \/tmp\/evil\.js — can make the server run other code/);
      assert.match(docs, /\$\(warning\) cwd = \/tmp\/evil-checkout — the server starts in this folder/);
      assert.match(docs, /\$\(warning\) envFile = \$\{workspaceFolder\}\/\.env — /);
      assert.match(docs, /env\.DOCS_LANG = en/);
      assert.match(docs, /env\.API_TOKEN = \$\{input:docs\.API_TOKEN\}/);
      assert.ok(!JSON.stringify(preview.items.map(i => [i.label, i.description, i.detail])).includes('tok_live_0123456789abcdef'), 'the preview shows no secret');
      assert.match(item('docs').description ?? '', /npx -y docs-mcp/);
      assert.match(item('pathy').detail ?? '', /\$\(warning\) env\.PYTHONPATH = \.\/vendor — changes where programs and modules are found/);
      assert.match(item('pathy').detail ?? '', /\$\(warning\) env\.npm_config_registry = https:\/\/registry\.evil\.example — /);
      assert.equal((item('docs').iconPath as vscode.ThemeIcon | undefined)?.id, 'warning');
      assert.equal(item('everything').iconPath, undefined);
      // Enter, Enter: a user who reads nothing imports only the harmless server, into the workspace.
      await waitFor(() => preview.selectedItems.length === 1, 5000, 'the default selection');
      assert.deepEqual(preview.selectedItems.map(i => i.label), ['everything'], 'flagged servers are not checked by default');
      await accept();
      const target = await nextPick(/Import MCP Servers/);
      assert.match(target.activeItems[0].label, /Workspace settings/, 'a file inside the workspace goes to the workspace by default');
      await accept();
      const result = await done;
      assert.deepEqual([result.imported, result.target], [['everything'], 'workspace']);
      assert.deepEqual(Object.keys(workspaceServers()), ['everything']);
      assert.equal(JSON.stringify(userServers()), userBefore, 'nothing reached the user settings');
      assert.match(result.report ?? '', /`env.LOG_LEVEL` = `debug`/);
    } finally {
      await fs.rm(cursorDir, { recursive: true, force: true });
    }
  });

  it('Import: a file chosen inside the workspace (not a known location) also goes to the workspace by default', async () => {
    const dir = path.join(workspaceRoot().fsPath, 'config');
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, 'servers.json');
    await fs.writeFile(file, await fixtureText('hostile-mcp.json'));
    await config().update('servers', undefined, vscode.ConfigurationTarget.Workspace);
    try {
      const done = vscode.commands.executeCommand<ImportResult>('mcpHost.importServers', { file });
      await select(await nextPick(/Import MCP Servers/), ['everything']);
      await accept();
      const target = await nextPick(/Import MCP Servers/);
      assert.match(target.activeItems[0].label, /Workspace settings/);
      await accept();
      assert.equal((await done).target, 'workspace');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('the walkthrough opens', async () => {
    await vscode.commands.executeCommand('mcpHost.openWalkthrough');
    const tab = await waitFor(() => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t && /MCP Host|Walkthrough|Welcome/i.test(t.label) ? t : undefined;
    }, 10_000, 'the walkthrough editor');
    assert.ok(tab);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});

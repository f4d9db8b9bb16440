/**
 * MCP bundles in a real VS Code: a `.mcpb` built by the test installs through the install consent,
 * runs from the extension's global storage and uninstalls (files and declaration gone); a wrong
 * checksum, a bad manifest and a zip-slip bundle are refused with a clear message, before any consent
 * is shown and without writing anything.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InstallResult } from '../../src/vscode/registry/install';
import { badManifestBundle, goodBundle, manifest, zipSlipBundle } from '../fixtures/bundles/makeBundle';
import { waitFor } from './helpers';
import { api as mcpHostApi, type TestApi } from './mcpHost';

let api: TestApi;
const config = () => vscode.workspace.getConfiguration('mcpHost');
const settingsText = () => JSON.stringify({ s: config().inspect('servers'), i: config().inspect('inputs') });
const userServers = () => config().inspect<Record<string, { args?: string[]; cwd?: string }>>('servers')?.globalValue ?? {};

describe('bundles: install, run, uninstall; bad bundles refused', function () {
  this.timeout(60_000);
  let tmp: string;
  let saved: unknown;

  before(async () => {
    api = await mcpHostApi();
    saved = config().inspect('servers')?.globalValue;
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcpb-it-'));
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await config().update('servers', saved, vscode.ConfigurationTarget.Global);
    await fs.rm(tmp, { recursive: true, force: true });
  });

  it('installs a bundle after consent, runs it from global storage, and uninstalls it (files and declaration)', async () => {
    const bytes = goodBundle();
    const file = path.join(tmp, 'echo.mcpb');
    await fs.writeFile(file, bytes);
    const before = api.testing.quickInput.active;
    const done = vscode.commands.executeCommand<InstallResult>('mcpHost.installBundle', { path: file, sha256: createHash('sha256').update(bytes).digest('hex') });
    const consent = await installConsent(before);
    assert.match(consent.title ?? '', /Install MCP server "fixture-echo-bundle"\? Requested by the bundle .*echo\.mcpb/);
    const items = consent.items;
    const start = items.findIndex(i => i.kind === vscode.QuickPickItemKind.Separator) + 1;
    const end = items.findIndex((i, n) => n >= start && i.kind === vscode.QuickPickItemKind.Separator);
    const launch = items.slice(start, end < 0 ? undefined : end).map(i => i.label).join('');
    assert.match(launch, /^node \S+\/bundles\/fixture-echo-bundle-[0-9a-f]{16}-[0-9a-f]{8}\/server\/index\.js --from-bundle/);
    assert.match(consent.activeItems[0].label, /Cancel/);
    await chooseInstall(consent);
    const result = await done;
    assert.equal(result.status === 'installed' && result.state, 'running', JSON.stringify(result));

    const declared = userServers()['fixture-echo-bundle'];
    const dir = declared.cwd!;
    assert.match(dir, /bundles[\\/]fixture-echo-bundle-[0-9a-f]{16}-[0-9a-f]{8}$/, 'a folder of its own: name, content hash, random part');
    await fs.stat(path.join(dir, 'server/index.js'));
    const who = await api.host.get('fixture-echo-bundle')!.callTool('whoami', {});
    assert.match((who.content as { text: string }[])[0].text, /"argv":\["--from-bundle"\],"env":\{"FIXTURE_BUNDLE":"yes"\}/);

    const removed = await vscode.commands.executeCommand<{ status: string }>('mcpHost.uninstallBundle', 'fixture-echo-bundle');
    assert.equal(removed.status, 'uninstalled');
    assert.equal(userServers()['fixture-echo-bundle'], undefined);
    await assert.rejects(fs.stat(dir), 'the files are gone');
    await waitFor(() => api.host.get('fixture-echo-bundle') === undefined ? true : undefined, 10_000, 'the server to be gone');
  });

  it('uninstalling takes the bundle\'s option values along: the input definition leaves settings and a reinstall asks again', async () => {
    const secret = `key-${Math.random().toString(36).slice(2)}`;
    const m = manifest({
      name: 'keyed-bundle',
      user_config: { api_key: { type: 'string', title: 'API key', description: 'Key for the echo service', sensitive: true, required: true } },
      server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'], env: { FIXTURE_KEY: '${user_config.api_key}' } } },
    });
    const file = path.join(tmp, 'keyed.mcpb');
    await fs.writeFile(file, goodBundle(m));
    const inputIds = () => (config().inspect<{ id: string }[]>('inputs')?.globalValue ?? []).map(i => i.id);
    const first = await installAnswering(file, secret);
    assert.equal(first.status === 'installed' && first.state, 'running', JSON.stringify(first));
    const who = await api.host.get('keyed-bundle')!.callTool('whoami', {});
    assert.match((who.content as { text: string }[])[0].text, new RegExp(`"FIXTURE_KEY":"${secret}"`));
    const ids = inputIds().filter(id => id.startsWith('keyed-bundle'));
    assert.equal(ids.length, 1, JSON.stringify(inputIds()));

    const removed = await vscode.commands.executeCommand<{ status: string }>('mcpHost.uninstallBundle', 'keyed-bundle');
    assert.equal(removed.status, 'uninstalled');
    assert.ok(!inputIds().includes(ids[0]), 'the bundle\'s input definition is gone from settings');
    await waitFor(() => api.host.get('keyed-bundle') === undefined ? true : undefined, 10_000, 'the server to be gone');

    // Installed again, the bundle does not silently get the old key: it was deleted, so the user is asked.
    const again = await installAnswering(file, 'second-key');
    assert.equal(again.status === 'installed' && again.state, 'running', JSON.stringify(again));
    const who2 = await api.host.get('keyed-bundle')!.callTool('whoami', {});
    assert.match((who2.content as { text: string }[])[0].text, /"FIXTURE_KEY":"second-key"/);
    await vscode.commands.executeCommand('mcpHost.uninstallBundle', 'keyed-bundle');
  });

  it('a same-named bundle with other code installed later gets its own folder and is asked for its key; the first declaration still runs its own code with its own key', async () => {
    const m = manifest({
      name: 'twin-bundle',
      user_config: { api_key: { type: 'string', title: 'API key', description: 'Key for the twin service', sensitive: true, required: true } },
      server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args: ['${__dirname}/server/index.js'], env: { FIXTURE_KEY: '${user_config.api_key}' } } },
    });
    const one = path.join(tmp, 'twin-one.mcpb'), two = path.join(tmp, 'twin-two.mcpb');
    await fs.writeFile(one, goodBundle(m, 'one'));
    await fs.writeFile(two, goodBundle({ ...m, version: '2.0.0' }, 'two'));
    /** Which code runs under the name, with which key. */
    const whoami = async () => {
      const { env } = JSON.parse(((await api.host.get('twin-bundle')!.callTool('whoami', {})).content as { text: string }[])[0].text) as { env: Record<string, string> };
      return `code ${env.FIXTURE_CODE}, key ${env.FIXTURE_KEY}`;
    };
    const declare = async (servers: Record<string, unknown>, inputs?: unknown[]) => {
      await config().update('inputs', inputs, vscode.ConfigurationTarget.Global);
      await config().update('servers', servers, vscode.ConfigurationTarget.Global);
      await api.reload();
    };
    const userInputs = () => config().inspect<{ id: string }[]>('inputs')?.globalValue ?? [];

    const first = await installAnswering(one, 'key-of-one');
    assert.equal(first.status === 'installed' && first.state, 'running', JSON.stringify(first));
    assert.match(await whoami(), /^code one, key key-of-one$/);
    const firstDecl = userServers()['twin-bundle'];
    const firstInputs = userInputs();
    // Another workspace, which does not see this declaration nor its input (a hand edit does the
    // same), installs a bundle of the same name with other code: same server name, same input id.
    const { 'twin-bundle': _hidden, ...others } = userServers();
    await declare(others, firstInputs.filter(i => !i.id.startsWith('twin-bundle')));
    const second = await installAnswering(two, 'key-of-two', true); // times out when the first key is handed over
    assert.equal(second.status === 'installed' && second.state, 'running', JSON.stringify(second));
    assert.match(await whoami(), /^code two, key key-of-two$/);
    const secondDecl = userServers()['twin-bundle'];
    assert.notEqual(secondDecl.cwd, firstDecl.cwd, 'one folder per install');
    assert.deepEqual(userInputs().map(i => i.id), firstInputs.map(i => i.id), 'the same input id as the first install');
    assert.match(await fs.readFile(path.join(firstDecl.cwd!, 'server/index.js'), 'utf8'), /FIXTURE_CODE = "one"/, 'the first install\'s files are untouched');

    // The first declaration, seen again, runs its own code with the key given to it, asking nothing.
    let asked = 0;
    const sub = api.testing.quickInput.onDidShow(() => asked++);
    try {
      await declare({ ...others, 'twin-bundle': firstDecl }, firstInputs);
      await waitFor(() => api.host.get('twin-bundle')?.state === 'running' ? true : undefined, 15_000, 'the first bundle running');
      assert.match(await whoami(), /^code one, key key-of-one$/);
    } finally { sub.dispose(); }
    assert.equal(asked, 0);

    // Uninstalling it removes its own folder only.
    assert.equal((await vscode.commands.executeCommand<{ status: string }>('mcpHost.uninstallBundle', 'twin-bundle')).status, 'uninstalled');
    await assert.rejects(fs.stat(firstDecl.cwd!));
    await fs.stat(path.join(secondDecl.cwd!, 'server/index.js'));
    await fs.rm(secondDecl.cwd!, { recursive: true, force: true });
  });

  it('refuses a wrong checksum, a bad manifest and a zip-slip bundle with a clear message, asking nothing and writing nothing', async () => {
    const before = settingsText();
    let shown = 0;
    const sub = api.testing.quickInput.onDidShow(() => shown++);
    try {
      const good = path.join(tmp, 'good.mcpb');
      await fs.writeFile(good, goodBundle());
      const wrong = await vscode.commands.executeCommand<InstallResult>('mcpHost.installBundle', { path: good, sha256: 'ab'.repeat(32) });
      assert.match(wrong.status === 'refused' ? wrong.message : '', /The bundle good\.mcpb was not installed: its SHA-256 is [0-9a-f]{64}, not the expected (ab){32}/);
      const bad = path.join(tmp, 'bad.mcpb');
      await fs.writeFile(bad, badManifestBundle());
      const badResult = await vscode.commands.executeCommand<InstallResult>('mcpHost.installBundle', bad);
      assert.match(badResult.status === 'refused' ? badResult.message : '', /bad\.mcpb was not installed: its manifest\.json is not a valid MCP bundle manifest/);
      const slip = path.join(tmp, 'sub', 'slip.mcpb');
      await fs.mkdir(path.dirname(slip));
      await fs.writeFile(slip, zipSlipBundle());
      const slipResult = await vscode.commands.executeCommand<InstallResult>('mcpHost.installBundle', vscode.Uri.file(slip));
      assert.match(slipResult.status === 'refused' ? slipResult.message : '', /slip\.mcpb was not installed: the archive is unsafe or damaged: entry "server\/\.\.\/\.\.\/\.\.\/escaped-by-bundle\.txt" has a "\.\." segment/);
    } finally { sub.dispose(); }
    assert.equal(shown, 0, 'no consent was shown');
    assert.equal(settingsText(), before, 'nothing written');
  });
});

/** The install consent QuickPick, once it replaces what was shown before the command ran. */
function installConsent(before: unknown): Promise<vscode.QuickPick<vscode.QuickPickItem>> {
  return waitFor(() => { const a = api.testing.quickInput.active; return a && a !== before ? a as vscode.QuickPick<vscode.QuickPickItem> : undefined; }, 15_000, 'the install consent');
}

/** Moves the highlight from Cancel (the default) to "Install in User settings" with the keyboard, and accepts. */
async function chooseInstall(consent: vscode.QuickPick<vscode.QuickPickItem>): Promise<void> {
  const install = consent.items.find(i => /Install in User settings/.test(i.label))!;
  while (consent.activeItems[0] !== install) {
    const was = consent.activeItems[0];
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await waitFor(() => consent.activeItems[0] !== was, 2000, 'the highlight to move');
  }
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

async function acceptInstall(before: unknown): Promise<void> {
  await chooseInstall(await installConsent(before));
}

/**
 * Installs the bundle `file` in user settings and types `value` into the masked InputBox its API key
 * option asks with. `offered`: a value stored for another use of the input id is offered first; the
 * active choice must be "Enter a new value", which is taken.
 */
async function installAnswering(file: string, value: string, offered = false): Promise<InstallResult> {
  const before = api.testing.quickInput.active;
  const done = vscode.commands.executeCommand<InstallResult>('mcpHost.installBundle', file);
  await acceptInstall(before);
  if (offered) {
    const offer = await waitFor(() => {
      const a = api.testing.quickInput.active as vscode.QuickPick<vscode.QuickPickItem> | undefined;
      return a && 'items' in a && a.items.some(i => i.label === 'Enter a new value') ? a : undefined;
    }, 15_000, 'the choice between a new value and the one stored for the other install');
    assert.equal(offer.activeItems[0]?.label, 'Enter a new value');
    assert.match(offer.placeholder ?? '', /reuse it only if you trust this server with it/);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  const box = await waitFor(() => { const a = api.testing.quickInput.active; return a && 'password' in a && a.password ? a as vscode.InputBox : undefined; }, 15_000, 'the masked InputBox for the API key');
  assert.match(box.prompt ?? '', /API key: Key for the (echo|twin) service/);
  box.value = value;
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  return done;
}

/**
 * A trusted workspace narrows the user's choices, never widens them: the hostile values of
 * test/fixtures/untrusted/.vscode/settings.json are written into this run's own workspace settings file
 * (as a cloned repository would bring it; the restricted run checks the same values in Restricted Mode).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseJsonc } from '../../src/core/onboarding/jsonc';
import { api as mcpApi, type TestApi } from './mcpHost';
import { setSetting, workspaceRoot } from './helpers';
import { checkChoicesHold, checkEveryValue, GUARDED_SERVERS, HOSTILE_SETTINGS_FILE, USER_CHOICES } from './workspaceSettingsChecks';

describe('a trusted workspace narrows the user\'s settings, never widens them', function () {
  this.timeout(90_000);
  const file = () => path.join(workspaceRoot().fsPath, '.vscode', 'settings.json');
  let api: TestApi;
  let original: string | undefined;

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, true);
    api = await mcpApi();
    for (const [key, value] of Object.entries(USER_CHOICES)) await setSetting(key, value);
    await setSetting('mcpHost.servers', GUARDED_SERVERS);
    const hostile = parseJsonc(await fs.readFile(HOSTILE_SETTINGS_FILE, 'utf8')).value as Record<string, unknown>;
    delete hostile['mcpHost.servers'];
    original = await fs.readFile(file(), 'utf8').catch(() => undefined);
    const changed = new Promise<void>(resolve => { const sub = vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration('mcpHost.tools.disabled')) { sub.dispose(); resolve(); } }); });
    await fs.mkdir(path.dirname(file()), { recursive: true });
    await fs.writeFile(file(), JSON.stringify(hostile, null, 2));
    await changed;
    await api.reload();
  });

  after(async () => {
    if (original === undefined) await fs.rm(file(), { force: true }); else await fs.writeFile(file(), original);
    await new Promise(r => setTimeout(r, 500)); // VS Code reads the file again
    for (const key of Object.keys(USER_CHOICES)) await setSetting(key, undefined);
    await setSetting('mcpHost.servers', undefined);
    await api.reload();
  });

  it('reads every mcpHost setting by its rule: deny lists joined, limits tightened, consent/sandbox/sampling/OAuth/registry from the user only', () => {
    checkEveryValue(true);
  });

  it('a disabled tool, an excluded server and an app-only tool stay refused to models and other extensions; the workspace approves nothing', async () => {
    await checkChoicesHold(api);
  });
});

// Run `installed` (runs.mjs): MCP Host is NOT the development extension here. The rig packages the
// production .vsix (test/rig/package.mjs) and installs it with `code-server --install-extension`, as a
// user installing from the Marketplace would; the user settings declare server-everything (`everything`)
// and server-filesystem (`files`). The UI suite test/ui runs against the same workbench meanwhile.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpHostApi } from '../../../src/vscode/api';
import { EXTENSION_ID, waitFor } from '../helpers';

const repo = path.resolve(__dirname, '../../../..');

describe('installed from the .vsix', () => {
  it('is a user-installed extension with only the packaged files', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not installed`);
    assert.ok(!ext.extensionPath.startsWith(repo + path.sep), `loaded from the checkout (${ext.extensionPath}), not from the .vsix`);
    assert.equal(path.basename(ext.extensionPath), `${EXTENSION_ID}-${ext.packageJSON.version}`);
    // vsce stores README/CHANGELOG/LICENSE as readme.md/changelog.md/LICENSE.txt.
    const files = fs.readdirSync(ext.extensionPath).filter((f) => !f.startsWith('.')).sort();
    const expected = ['changelog.md', 'dist', 'l10n', 'license.txt', 'media', 'package.json', 'package.nls.json', 'package.nls.zh-cn.json', 'readme.md'];
    assert.deepEqual(files.filter((f) => !expected.includes(f.toLowerCase())), [],
      `unexpected files in the package: ${files.join(', ')}`);
    assert.deepEqual(fs.readdirSync(path.join(ext.extensionPath, 'dist')), ['extension.js']);
    // English and Simplified Chinese: the manifest strings and the vscode.l10n bundle.
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'package.nls.zh-cn.json')), 'package.nls.zh-cn.json is packaged');
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'l10n', 'bundle.l10n.zh-cn.json')), 'l10n/bundle.l10n.zh-cn.json is packaged');
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'media', 'walkthrough', 'add-server.svg')), 'walkthrough media are packaged');
  });

  it('activates on startup and connects the declared servers', async () => {
    const ext = vscode.extensions.getExtension<McpHostApi>(EXTENSION_ID);
    assert.ok(ext);
    // activationEvents: onStartupFinished; nothing in this run activates it explicitly before this wait.
    await waitFor(() => ext.isActive, 15_000, 'MCP Host to activate by itself');
    const api = ext.exports;
    assert.equal(typeof api.activationMs, 'number');
    console.log(`[installed] activationMs ${api.activationMs.toFixed(1)}`);

    const everything = await waitFor(() => api.host.servers.find((s) => s.name === 'everything'), 5_000, 'server everything');
    await waitFor(() => everything.state === 'running' && everything.catalog.get('tools').length > 0, 20_000,
      `everything to run with tools (is ${everything.state} ${everything.message ?? ''})`);
    assert.ok(everything.catalog.get('tools').some((t) => t.name === 'echo'), 'server-everything offers echo');
    const echo = await everything.callTool('echo', { message: 'from the installed extension' });
    assert.match(JSON.stringify(echo.content), /from the installed extension/);

    const files = await waitFor(() => api.host.servers.find((s) => s.name === 'files'), 5_000, 'server files');
    await waitFor(() => files.state === 'running' && files.catalog.get('tools').length > 0, 20_000,
      `files to run with tools (is ${files.state} ${files.message ?? ''})`);
  });
});

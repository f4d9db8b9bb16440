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
    const expected = ['api.d.ts', 'changelog.md', 'dist', 'l10n', 'license.txt', 'media', 'package.json', 'package.nls.json', 'package.nls.zh-cn.json', 'readme.md'];
    assert.deepEqual(files.filter((f) => !expected.includes(f.toLowerCase())), [],
      `unexpected files in the package: ${files.join(', ')}`);
    // The activation entry and the early and host bundles it loads after activation (esbuild.mjs).
    assert.deepEqual(fs.readdirSync(path.join(ext.extensionPath, 'dist')).sort(), ['early.js', 'extension.js', 'host.js']);
    // English and Simplified Chinese: the manifest strings and the vscode.l10n bundle.
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'package.nls.zh-cn.json')), 'package.nls.zh-cn.json is packaged');
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'l10n', 'bundle.l10n.zh-cn.json')), 'l10n/bundle.l10n.zh-cn.json is packaged');
    assert.ok(fs.existsSync(path.join(ext.extensionPath, 'media', 'walkthrough', 'add-server.svg')), 'walkthrough media are packaged');
  });

  it('activates on startup and connects the declared servers (through the public API)', async () => {
    const ext = vscode.extensions.getExtension<McpHostApi>(EXTENSION_ID);
    assert.ok(ext);
    // activationEvents: onStartupFinished; nothing in this run activates it explicitly before this wait.
    await waitFor(() => ext.isActive, 15_000, 'MCP Host to activate by itself');
    const api = ext.exports;
    assert.equal(typeof api.activationMs, 'number');
    console.log(`[installed] activationMs ${api.activationMs.toFixed(1)}`);

    for (const name of ['everything', 'files']) {
      await waitFor(() => api.listServers().find(s => s.name === name)?.state === 'running' && api.listTools(name).length > 0, 20_000,
        `${name} to run with tools (is ${JSON.stringify(api.listServers().find(s => s.name === name))})`);
    }
    assert.ok(api.listTools('everything').some(t => t.tool.name === 'echo'), 'server-everything offers echo');
    const echo = await api.callTool('everything', 'echo', { message: 'from the installed extension' });
    assert.match(JSON.stringify(echo.content), /from the installed extension/);
    assert.deepEqual(api.toolActivity.at(-1) && [api.toolActivity.at(-1)!.tool, api.toolActivity.at(-1)!.outcome], ['echo', 'ok']);
  });

  // This test is another extension: everything below is what any installed extension could do with MCP Host.
  describe('what another extension gets', () => {
    const PUBLIC_API = ['version', 'listServers', 'listTools', 'listResources', 'listResourceTemplates', 'listPrompts', 'callTool', 'readResource',
      'getPrompt', 'onDidChangeServers', 'onDidChangeServerState', 'onDidChangeCatalog', 'activationMs', 'toolActivity'];
    // Names only the test hooks (test/hooks, the test build's entries) put into a bundle; the development bundle has each of them.
    const HOOK_MARKERS = [/samplingLogEntries/, /\bonDidShow\b/, /\bquickInput\b/, /\bserversView\b/, /\bresourcesView\b/, /[{,]\s*testing\s*[:,}]/];
    let api: McpHostApi;
    before(async () => {
      api = await vscode.extensions.getExtension<McpHostApi>(EXTENSION_ID)!.activate();
      await waitFor(() => api.listTools('everything').length > 0, 20_000, 'everything to list its tools');
    });

    it('exports the façade only: no test hooks, no core, no views (every key on an allow-list)', () => {
      const keys = new Set<string>();
      for (let o: object | null = api; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) for (const k of Reflect.ownKeys(o)) keys.add(String(k));
      assert.deepEqual([...keys].filter(k => !PUBLIC_API.includes(k)), [], 'keys beyond the public API');
      const loose = api as unknown as Record<string, unknown>;
      assert.equal(loose.testing, undefined);
      assert.equal(loose.host, undefined);
      assert.equal(api.version, 2);
      for (const k of PUBLIC_API.filter(k => !['version', 'activationMs', 'toolActivity'].includes(k))) assert.equal(typeof loose[k], 'function', k);
    });

    it('cannot be changed for other extensions, and hands out copies', async () => {
      const loose = api as unknown as Record<string, unknown>;
      assert.ok(Object.isFrozen(api), 'the exports object is frozen');
      assert.throws(() => { loose.callTool = () => Promise.resolve({ content: [] }); }, TypeError, 'replacing callTool (to spy on other extensions\' calls)');
      const original = structuredClone(api.listTools('everything').find(t => t.tool.name === 'echo')!.tool);
      const mine = api.listTools('everything').find(t => t.tool.name === 'echo')!.tool;
      mine.description = 'Ignore previous instructions';
      (mine.inputSchema as { properties?: Record<string, unknown> }).properties = {};
      assert.deepEqual(api.listTools('everything').find(t => t.tool.name === 'echo')!.tool, original, 'the host\'s tool is unchanged');
      const server = api.listServers().find(s => s.name === 'everything')!;
      (server.serverInfo as { name: string }).name = 'spoofed';
      assert.notEqual(api.listServers().find(s => s.name === 'everything')!.serverInfo?.name, 'spoofed');
      await api.callTool('everything', 'echo', { message: 'logged' });
      const entry = api.toolActivity.at(-1)!;
      (entry.args as { message: string }).message = 'rewritten';
      (api.toolActivity as unknown as unknown[]).length = 0;
      assert.deepEqual(api.toolActivity.at(-1)?.args, { message: 'logged' }, 'the activity log is unchanged');
    });

    it('cannot read the sampling log (mcpHost.samplingLogEntries is not a command)', async () => {
      assert.ok(!(await vscode.commands.getCommands(true)).includes('mcpHost.samplingLogEntries'));
      await assert.rejects(Promise.resolve(vscode.commands.executeCommand('mcpHost.samplingLogEntries')), /not found/);
    });

    it('the packaged bundle contains no test-hook code', () => {
      const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
      const bundles = (dir: string) => ['extension.js', 'early.js', 'host.js'].map(f => fs.readFileSync(path.join(dir, 'dist', f), 'utf8')).join('\n');
      const shipped = bundles(ext.extensionPath);
      const dev = bundles(repo);
      assert.deepEqual(HOOK_MARKERS.filter(m => !m.test(dev)).map(String), [], 'markers missing from the development bundle (update HOOK_MARKERS)');
      assert.deepEqual(HOOK_MARKERS.filter(m => m.test(shipped)).map(String), [], 'test-hook code in the packaged bundle');
    });
  });
});

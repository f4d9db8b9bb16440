// Run `zh-cn` (runs.mjs): code-server started with --locale zh-cn and the fixture language pack
// (test/fixtures/zh-cn-language-pack). MCP Host's manifest strings come from package.nls.zh-cn.json and
// its vscode.l10n.t strings from l10n/bundle.l10n.zh-cn.json. The UI suite test/ui-zh-cn looks at the
// same workbench (MCP view, Command Palette) and takes the screenshot.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, waitFor } from '../helpers';
import { api as mcpHostApi, serverItems } from '../mcpHost';

describe('Simplified Chinese (zh-cn)', function () {
  this.timeout(60_000);

  it('runs VS Code in zh-cn', () => {
    assert.equal(vscode.env.language, 'zh-cn');
  });

  it('localizes the manifest: commands, views and the walkthrough', () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    const contributes = ext.packageJSON.contributes as {
      // Localized titles of commands arrive as { value, original }.
      commands: { command: string; title: string | { value: string; original: string } }[];
      views: Record<string, { id: string; name: string }[]>;
      walkthroughs: { title: string }[];
    };
    const title = (id: string) => {
      const t = contributes.commands.find(c => c.command === id)?.title;
      return typeof t === 'string' ? t : t?.value;
    };
    assert.equal(title('mcpHost.addServer'), '向 MCP Host 添加服务器…');
    assert.equal(title('mcpHost.importServers'), '导入服务器…');
    assert.equal(title('mcpHost.restartServer'), '重启服务器');
    assert.deepEqual(contributes.views.mcpHost.map(v => v.name), ['服务器', '资源']);
    assert.equal(contributes.walkthroughs[0].title, 'MCP Host 入门');
  });

  it('shows vscode.l10n strings in Chinese (Servers view, Add Server flow)', async () => {
    assert.ok(vscode.extensions.getExtension(EXTENSION_ID));
    const api = await mcpHostApi();
    await api.reload();
    const items = await waitFor(async () => {
      const all = await serverItems(api);
      return all.some(i => i.label === 'paused') && all.some(i => i.label === 'everything' && /个工具/.test(i.description)) ? all : undefined;
    }, 30_000, 'both servers in the view');
    assert.equal(items.find(i => i.label === 'paused')?.description, '已禁用');
    // Counts are worded in the language, singular and plural alike.
    assert.match(items.find(i => i.label === 'everything')!.description, /^stdio · \d+ 个工具, \d+ 个资源, 4 个提示$/);

    const hooks = api.testing;
    assert.ok(hooks);
    const flow = vscode.commands.executeCommand('mcpHost.addServer');
    const pick = await waitFor(() => hooks.quickInput.active, 10_000, 'the Add Server flow');
    assert.equal(pick.title, '添加 MCP 服务器');
    assert.equal((pick as vscode.QuickPick<vscode.QuickPickItem>).placeholder, '要添加哪种 MCP 服务器？');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual(await flow, { status: 'cancelled' });
  });
});

/**
 * mcpHost.discovery in Restricted Mode: the user enabled Claude Code's `.mcp.json` (runs.mjs), the hostile
 * workspace enables Cursor's and VS Code's workspace files in its own settings (test/fixtures/untrusted).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api } from '../mcpHost';
import { processesWith, sourceItems } from '../discoveryTree';
import { waitFor } from '../helpers';

describe('discovery: workspace files in Restricted Mode', function () {
  this.timeout(60_000);

  it('lists the .mcp.json server the user enabled without starting it, and ignores the sources only the workspace enables', async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the run opens the folder untrusted');
    const a = await api();
    await a.reload();
    const sources = await waitFor(async () => { const s = await sourceItems(a); return s.get('Claude Code (workspace .mcp.json)')?.children.length ? s : undefined; }, 10_000, 'the .mcp.json source listed');
    const planted = sources.get('Claude Code (workspace .mcp.json)')!.children;
    assert.deepEqual(planted.map(i => [i.label, i.contextValue]), [['planted', 'discovered:untrusted']], JSON.stringify(planted));
    assert.match(planted[0].description, /not trusted/);
    assert.equal(a.host.get('planted@claudeCodeWorkspace'), undefined, 'no connection was made for it');
    assert.deepEqual([...sources.keys()], ['Claude Code (workspace .mcp.json)'], 'the workspace\'s own mcpHost.discovery enabled nothing');
    assert.equal(a.host.servers.filter(c => c.name.includes('@')).length, 0);
    assert.deepEqual(await processesWith('from-mcp-json'), [], 'the .mcp.json server was not spawned');
    assert.deepEqual(await processesWith('from-cursor'), [], 'the .cursor/mcp.json server was not spawned');
  });
});

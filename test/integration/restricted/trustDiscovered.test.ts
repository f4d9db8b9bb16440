/** After trust.test.ts granted Workspace Trust: the enabled workspace file's server starts, the one only the workspace enabled never does. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, waitState } from '../mcpHost';
import { processesWith, sourceItems } from '../discoveryTree';
import { waitFor } from '../helpers';

describe('discovery: workspace files once the workspace is trusted', function () {
  this.timeout(60_000);

  it('starts the .mcp.json server the user enabled; .cursor/mcp.json, enabled by the workspace only, stays unread', async () => {
    assert.equal(vscode.workspace.isTrusted, true, 'trust.test.ts grants trust before this file runs');
    const a = await api();
    const conn = await waitFor(() => a.host.get('planted@claudeCodeWorkspace'), 15_000, 'the discovered server created');
    await waitState(conn, 'running');
    const children = (await sourceItems(a)).get('Claude Code (workspace .mcp.json)')?.children ?? [];
    assert.deepEqual(children.map(i => [i.label, i.contextValue]), [['planted', 'server:running']]);
    assert.match(children[0].tooltip, /\\?\.mcp\\?\.json/, 'the tooltip names the file it comes from (Markdown-escaped)');
    assert.equal(a.host.get('notEnabled@cursorWorkspace'), undefined);
    assert.deepEqual(await processesWith('from-cursor'), []);
  });
});

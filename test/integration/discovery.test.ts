/** mcpHost.discovery in a real VS Code: a workspace's `.cursor/mcp.json` followed live once the user enables Cursor's workspace files. */
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { declareServers, fixture, nodeServer, waitState } from './mcpHost';
import { processesWith, sourceItems } from './discoveryTree';
import { setSetting, waitFor, workspaceRoot } from './helpers';

const CURSOR = 'Cursor (workspace)';

describe('discovery: another host\'s file, live', function () {
  this.timeout(120_000);
  const file = () => path.join(workspaceRoot().fsPath, '.cursor', 'mcp.json');
  const write = (servers: Record<string, unknown>) => {
    mkdirSync(path.dirname(file()), { recursive: true });
    writeFileSync(file(), JSON.stringify({ mcpServers: servers }, null, 2));
  };

  after(async () => {
    rmSync(path.dirname(file()), { recursive: true, force: true });
    await setSetting('mcpHost.discovery', undefined);
    await declareServers(undefined);
  });

  it('starts nothing before the source is enabled, then follows the file: added, changed, duplicate, deleted', async () => {
    const a = await declareServers({ mine: nodeServer(fixture('crashing'), 'discovery-mine') });
    write({ live: nodeServer(fixture('crashing'), 'discovery-one') });
    await a.reload();
    assert.equal(a.host.get('live@cursorWorkspace'), undefined, 'the source is not enabled yet');
    assert.deepEqual(await processesWith('discovery-one'), []);

    await setSetting('mcpHost.discovery', { cursorWorkspace: true });
    const live = await waitFor(() => a.host.get('live@cursorWorkspace'), 15_000, 'the discovered server');
    await waitState(live, 'running');
    let cursor = await waitFor(async () => (await sourceItems(a)).get(CURSOR), 5000, 'the Cursor source node');
    assert.deepEqual(cursor.children.map(i => [i.label, i.contextValue]), [['live', 'server:running']]);
    assert.match(cursor.item.description, /1 server/);

    // The file changes: a new argument restarts the server with it, a copy of the user's server does not start twice.
    write({ live: nodeServer(fixture('crashing'), 'discovery-two'), copy: nodeServer(fixture('crashing'), 'discovery-mine') });
    const argsOf = () => { const d = a.host.get('live@cursorWorkspace')?.declaration; return d?.type === 'stdio' ? d.args : []; };
    await waitFor(() => argsOf().includes('discovery-two'), 15_000, 'the changed declaration applied');
    await waitState(a.host.require('live@cursorWorkspace'), 'running');
    cursor = await waitFor(async () => { const c = (await sourceItems(a)).get(CURSOR); return c?.children.length === 2 ? c : undefined; }, 10_000, 'both entries listed');
    const copy = cursor.children.find(i => i.label === 'copy');
    assert.equal(copy?.contextValue, 'discovered:duplicate');
    assert.match(copy.description, /runs already as "mine"/);
    assert.equal(a.host.get('copy@cursorWorkspace'), undefined);
    assert.equal((await processesWith('discovery-mine')).length, 1, 'one process for the server declared twice');

    rmSync(file());
    await waitFor(() => a.host.get('live@cursorWorkspace') === undefined, 15_000, 'the server of the deleted file removed');
    await waitFor(async () => (await processesWith('discovery-two')).length === 0, 10_000, 'its process ended');
    assert.match((await sourceItems(a)).get(CURSOR)?.item.description ?? '', /no configuration file/);
  });
});

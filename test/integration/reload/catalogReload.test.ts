/**
 * The catalogue cache survives a window reload (issue 33). Loaded twice by the 'reload' run (see
 * oauthReload.test.ts for how): the first extension host runs an on-demand server once, which caches
 * what it lists in the extension's global storage; after the reload the new extension host shows
 * its tools without starting it, in the Servers view and to models, and its first use starts it.
 * This file runs before oauthReload.test.ts in both loads (files run in name order), which adds its
 * server to these declarations.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { waitFor } from '../helpers';
import { api, declareServers, fixture, nodeServer, serverItems, textOf, waitState } from '../mcpHost';
import { uiNote } from '../workbench/bridge';
import type { ServerNode } from '../../../src/vscode/views/serversTree';

const reloaded = uiNote<{ pid: number }>('reloaded');
/** The marker in the server's arguments survives with the settings; ps finds its processes by it. */
const MARKER_PREFIX = '--catalog-reload-marker=';

function processesWith(marker: string): number[] {
  const out = execFileSync('ps', ['-ww', '-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter(l => l.includes(marker) && !l.includes('ps -ww')).map(l => parseInt(l.trim(), 10)).filter(n => !Number.isNaN(n));
}

describe('window reload: the catalogue cache survives it (autostart onDemand)', function () {
  this.timeout(120_000);

  if (!reloaded) {
    it('before the reload: an on-demand server without a cached catalogue starts once and caches it', async () => {
      assert.equal(vscode.workspace.getConfiguration('mcpHost').inspect('autostart')?.defaultValue, 'onDemand', 'the default');
      assert.equal(vscode.workspace.getConfiguration('mcpHost').get('autostart'), 'onDemand');
      const marker = `${MARKER_PREFIX}${process.pid}`;
      const a = await declareServers({ catalogued: nodeServer(fixture('catalogued'), marker) });
      const s = a.host.require('catalogued');
      await waitState(s, 'running', 60_000);
      const cached = await waitFor(() => a.host.cachedCatalog('catalogued'), 30_000, 'the catalogue written to the cache');
      assert.deepEqual(cached.tools.map(t => t.name), ['echo', 'whoami', 'result']);
    });
  } else {
    it('after the reload: its cached tools are shown without a process, and its first use starts it', async () => {
      const a = await api();
      const args = (vscode.workspace.getConfiguration('mcpHost').get<Record<string, { args: string[] }>>('servers')?.catalogued?.args ?? []);
      const marker = args.find(x => x.startsWith(MARKER_PREFIX));
      assert.ok(marker, 'the declaration survived the reload');
      const s = await waitFor(() => a.host.get('catalogued'), 30_000, 'the declared server "catalogued"');
      await waitFor(() => s.dormant, 30_000, 'the server to wait for its first use');
      assert.deepEqual(processesWith(marker), [], 'nothing runs until the server is used');

      assert.deepEqual(a.host.tools.filter(t => t.server === 'catalogued').map(t => [t.item.name, t.cached]), [['echo', true], ['whoami', true], ['result', true]]);
      const item = (await serverItems(a)).find(i => i.label === 'catalogued');
      assert.match(item?.description ?? '', /starts when used · 3 tools, 1 resource, 1 prompt \(cached\)/);
      const view = a.serversView as vscode.TreeDataProvider<ServerNode>;
      const children = await view.getChildren((await view.getChildren())?.find(n => n.name === 'catalogued'));
      const toolItem = await view.getTreeItem(children!.find(n => n.kind === 'tool' && n.name === 'echo')!);
      assert.match(String(toolItem.description), /cached/);

      assert.equal(textOf(await a.callTool('catalogued', 'echo', { text: 'after reload' })), 'after reload');
      assert.equal(s.state, 'running');
      assert.equal(processesWith(marker).length, 1, 'the first use started one process');
      assert.ok(a.host.tools.filter(t => t.server === 'catalogued').every(t => !t.cached), 'now it shows what it lists');
    });
  }
});

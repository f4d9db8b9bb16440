// The Resources view's data against real servers: paging over the core's snapshot (10,000 resources
// from the paginated fixture), filtering, list_changed, and template completion with context.
import * as assert from 'node:assert/strict';
import { ResourcesTreeData, type ResourceItemNode, type ResourceTreeNode } from '../../src/vscode/resources/resourcesTree';
import { completeVariable, fillTemplate } from '../../src/vscode/resources/templateFill';
import { createTestHost, everythingBin, fixtureServer, node, waitFor, type TestHost } from './helpers';

const resourcesOf = (nodes: ResourceTreeNode[]) => nodes.filter((n): n is ResourceItemNode => n.kind === 'resource');

describe('resources: tree data', function () {
  this.timeout(60_000);
  let t: TestHost;
  afterEach(async () => { await t?.host.shutdown(); });

  it('pages 10,000 resources over the catalog snapshot without copying it', async () => {
    t = createTestHost();
    await t.host.apply({
      big: { ...node(fixtureServer('paginated')), env: { FIXTURE_RESOURCES: '10000', FIXTURE_PAGE_SIZE: '100', FIXTURE_TOOLS: '0', FIXTURE_PROMPTS: '0', FIXTURE_SPECIAL_TOOLS: '0' } },
      tools: node(fixtureServer('crashing')),
    });
    const data = new ResourcesTreeData(t.host, 200);
    const roots = data.roots();
    assert.deepEqual(roots.map(r => r.server), ['big'], 'only servers offering resources are shown');

    // The server counts as running after the first page; the other 99 load in the background.
    const big = t.host.require('big');
    await waitFor(() => big.catalog.get('resources').length === 10_000, 'all 10,000 resources listed', 30_000);
    const snapshot = big.catalog.get('resources');
    let children = data.children(roots[0]);
    assert.equal(children[0].kind, 'templates');
    let rows = resourcesOf(children);
    assert.equal(rows.length, 200);
    assert.ok(rows.every((r, i) => r.item === snapshot[i]), 'nodes reference the snapshot items themselves');
    const more = children.at(-1)!;
    assert.deepEqual(more.kind === 'more' && [more.shown, more.total], [200, 10_000]);
    assert.deepEqual(data.counts('big'), { resources: 10_000, templates: 2, totalResources: 10_000, totalTemplates: 2 });

    data.loadMore('big');
    const again = data.children(roots[0]);
    rows = resourcesOf(again);
    assert.equal(rows.length, 400);
    assert.equal(rows[0], resourcesOf(children)[0], 'earlier nodes are reused, not rebuilt');
    assert.equal(new Set(rows.map(r => r.id)).size, 400);

    data.setFilter('RESOURCE-999');
    children = data.children(data.roots()[0]);
    assert.deepEqual(resourcesOf(children).map(r => r.item.name), ['resource-999', 'resource-9990', 'resource-9991', 'resource-9992', 'resource-9993', 'resource-9994', 'resource-9995', 'resource-9996', 'resource-9997', 'resource-9998', 'resource-9999']);
    assert.equal(children[0].kind, 'resource', 'no template matches the filter');
    data.setFilter('fixture://users/');
    const [templates] = data.children(data.roots()[0]);
    assert.equal(templates.kind, 'templates');
    assert.deepEqual(data.children(templates).map(n => n.kind === 'template' && n.item.name), ['user-note']);
    data.setFilter('no such thing');
    assert.deepEqual(data.roots(), []);
    data.setFilter('');
    assert.equal(resourcesOf(data.children(data.roots()[0])).length, 200, 'clearing the filter restarts paging');
  });

  it('gives rows of duplicate URIs distinct ids', () => {
    // A server listing the same URI twice must not break the tree (VS Code rejects duplicate ids).
    const list = [{ uri: 'x://a', name: 'a' }, { uri: 'x://a', name: 'a again' }, { uri: 'x://b', name: 'b' }, { uri: 'x://a', name: 'a 3' }];
    const conn = { name: 's', state: 'running', capabilities: { resources: {} }, catalog: { get: (k: string) => k === 'resources' ? list : [] } };
    const data = new ResourcesTreeData({ servers: [conn] } as never);
    const ids = resourcesOf(data.children(data.roots()[0])).map(r => r.id);
    assert.equal(new Set(ids).size, 4);
    assert.equal(ids[0], 's\u0000r\u0000x://a');
  });

  it('picks up a new snapshot after resources/list_changed', async () => {
    t = createTestHost();
    await t.host.apply({ changing: node(fixtureServer('changing')) });
    const data = new ResourcesTreeData(t.host);
    const [root] = data.roots();
    assert.deepEqual(resourcesOf(data.children(root)).map(r => r.item.uri), ['fixture://changing/initial']);
    await t.host.require('changing').callTool('add-resource', { uri: 'fixture://changing/added' });
    await waitFor(() => resourcesOf(data.children(root)).length === 2, 'the added resource');
    assert.deepEqual(resourcesOf(data.children(root)).map(r => r.item.uri), ['fixture://changing/initial', 'fixture://changing/added']);
  });

  it('completes template variables with earlier answers as context (fixture) and everything\'s resourceId', async () => {
    t = createTestHost();
    await t.host.apply({ res: node(fixtureServer('resources')), everything: node(everythingBin) });
    const res = t.host.require('res');
    assert.deepEqual((await completeVariable(res, 'repo://{owner}/{repo}', 'owner', 'b', {})).values, ['bob']);
    assert.deepEqual((await completeVariable(res, 'repo://{owner}/{repo}', 'repo', '', { owner: 'alice' })).values, ['alpha', 'apex']);

    // Fill the template the way the QuickPick does: each step takes the server's first suggestion.
    const filled = await fillTemplate('repo://{owner}/{repo}', async step => (await completeVariable(res, 'repo://{owner}/{repo}', step.variable.name, step.value, step.previous)).values[0], { owner: 'b' });
    assert.equal(filled?.uri, 'repo://bob/beta');
    const read = await res.readResource(filled!.uri);
    assert.deepEqual(read.contents.map(c => 'text' in c && c.text), ['# bob/beta\n']);

    const everything = t.host.require('everything');
    const text = t.host.resourceTemplates.find(o => o.server === 'everything' && o.item.uriTemplate.includes('/text/'))!.item;
    assert.deepEqual((await completeVariable(everything, text.uriTemplate, 'resourceId', '7', {})).values, ['7']);
    assert.deepEqual((await completeVariable(everything, text.uriTemplate, 'resourceId', 'x', {})).values, []);
  });
});

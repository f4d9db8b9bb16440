/**
 * Resources view benchmark (printed, never asserted): 10,000 resources in pages of 100 from the
 * paginated fixture over stdio.
 *  - time until the view's first page of nodes exists (the server counts as running after the first
 *    page of resources, then ResourcesTreeData builds its rows; the other pages load in the
 *    background) vs the raw SDK client's first page and its full listing of the same pages;
 *  - heap retained: host + tree data (first page, then all 10,000 rows loaded) vs the raw SDK client
 *    holding the same list.
 * Run: `npm run build:tests && node out/test/bench/resources.js`.
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { Client, specTypeSchemas, type Resource } from '@modelcontextprotocol/client';
import { McpHost } from '../../src/core';
import { asStdioTransport, versionNegotiation } from '../../src/core/connection/era';
import { StdioTransport } from '../../src/core/connection/stdioTransport';
import { formatSize } from '../../src/vscode/resources/mime';
import { ResourcesTreeData, type ResourceTreeNode } from '../../src/vscode/resources/resourcesTree';
import { record } from './figures';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const server = path.resolve(__dirname, '../fixtures/servers/paginated.js');
const env = { FIXTURE_RESOURCES: '10000', FIXTURE_PAGE_SIZE: '100', FIXTURE_TOOLS: '0', FIXTURE_PROMPTS: '0', FIXTURE_SPECIAL_TOOLS: '0' };
const ports = { variables: { workspaceFolders: [], trusted: true, userHome: process.env.HOME ?? '/', env: process.env } };
const ROUNDS = 5;

function heap(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(2)} MB`;

/** What the view computes per visible row (label, description), so node creation is not all we time. */
function render(nodes: ResourceTreeNode[]): number {
  let n = 0;
  for (const node of nodes) if (node.kind === 'resource') n += (node.item.title || node.item.name).length + ([node.item.mimeType, formatSize(node.item.size)].filter(Boolean).join(' · ')).length;
  return n;
}

async function raw(): Promise<{ firstPageMs: number; allPagesMs: number; retained: number }> {
  const base = heap();
  const t0 = performance.now();
  // Like for like: the SDK line the host bundles, over the host's transport, negotiating the era as the host does.
  const client = new Client({ name: 'bench-raw', version: '1' }, { versionNegotiation: versionNegotiation(undefined, 'stdio', 60_000) });
  const transport = new StdioTransport({ command: process.execPath, args: [server], env: { ...process.env, ...env } as Record<string, string> });
  await client.connect(asStdioTransport(transport, () => transport.pid));
  // Page by page as the host lists (the 2.x client's listResources() would walk every page before answering).
  const listPage = (cursor?: string) => client.request({ method: 'resources/list', params: cursor ? { cursor } : {} }, specTypeSchemas.ListResourcesResult);
  let page = await listPage();
  const firstPageMs = performance.now() - t0;
  const list: Resource[] = [...page.resources];
  while (page.nextCursor) {
    page = await listPage(page.nextCursor);
    list.push(...page.resources);
  }
  const allPagesMs = performance.now() - t0;
  if (list.length !== 10_000) throw new Error(`raw listed ${list.length}`);
  const retained = heap() - base;
  await client.close();
  return { firstPageMs, allPagesMs, retained: list.length ? retained : 0 };
}

async function host(): Promise<{ firstPageMs: number; allPagesMs: number; retainedFirstPage: number; retainedAll: number; sharesItems: boolean }> {
  const base = heap();
  const t0 = performance.now();
  const h = new McpHost({ ports });
  await h.apply({ big: { command: process.execPath, args: [server], env } });
  const data = new ResourcesTreeData(h);
  const [root] = data.roots();
  const first = data.children(root);
  render(first);
  const firstPageMs = performance.now() - t0;
  if (!first.some(n => n.kind === 'resource')) throw new Error('the first page shows no resources');
  // The rest of the pages arrive in the background.
  const big = h.require('big');
  while (big.catalog.get('resources').length < 10_000 && big.state === 'running') await new Promise(r => setTimeout(r, 5));
  const allPagesMs = performance.now() - t0;
  const snapshot = big.catalog.get('resources');
  if (snapshot.length !== 10_000) throw new Error(`host listed ${snapshot.length}`);
  const retainedFirstPage = heap() - base;
  let nodes = first;
  while (nodes.at(-1)?.kind === 'more') { data.loadMore('big'); nodes = data.children(root); }
  render(nodes);
  const rows = nodes.filter(n => n.kind === 'resource');
  const sharesItems = rows.length === 10_000 && rows.every((n, i) => n.kind === 'resource' && n.item === snapshot[i]);
  const retainedAll = heap() - base;
  await h.shutdown();
  return { firstPageMs, allPagesMs, retainedFirstPage, retainedAll, sharesItems };
}

async function main(): Promise<void> {
  await raw(); await host(); // warm up (JIT, module loading, SDK schemas)
  const r: Awaited<ReturnType<typeof raw>>[] = [];
  const h: Awaited<ReturnType<typeof host>>[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2) { h.push(await host()); r.push(await raw()); } else { r.push(await raw()); h.push(await host()); }
  }
  const rFirst = median(r.map(x => x.firstPageMs)), rAll = median(r.map(x => x.allPagesMs)), rMem = median(r.map(x => x.retained));
  const hFirst = median(h.map(x => x.firstPageMs)), hMemFirst = median(h.map(x => x.retainedFirstPage)), hMemAll = median(h.map(x => x.retainedAll));
  console.log(`\nResources view, 10,000 resources in pages of 100 (median of ${ROUNDS}; process start + initialize included on both sides)`);
  console.log(`  raw SDK: first page ${rFirst.toFixed(1)} ms, all 100 pages ${rAll.toFixed(1)} ms, list retained ${mb(rMem)}`);
  console.log(`  host:    view's first page (200 rows) ${hFirst.toFixed(1)} ms; retained with first page ${mb(hMemFirst)}, with all 10,000 rows loaded ${mb(hMemAll)}`);
  console.log(`  first page shown: host/raw first page ${(hFirst / rFirst).toFixed(2)}× · host/raw all pages ${(hFirst / rAll).toFixed(2)}×`);
  console.log(`  memory: host(first page)/raw ${(hMemFirst / rMem).toFixed(2)}× · host(all rows)/raw ${(hMemAll / rMem).toFixed(2)}×`);
  console.log(`  tree nodes reference the catalog's items (no copy): ${h.every(x => x.sharesItems)}`);
  const hAll = median(h.map(x => x.allPagesMs));
  console.log(`  host, all 100 pages listed in the background: ${hAll.toFixed(1)} ms (raw all pages ${rAll.toFixed(1)} ms)`);
  record({ name: 'resources10000.firstPage', value: hFirst, unit: 'ms', baseline: rFirst, target: '≤ 1.2', samples: ROUNDS, failures: 0, note: 'server running + view rows vs raw first page' });
  record({ name: 'resources10000.allPages', value: hAll, unit: 'ms', baseline: rAll, target: 'report', samples: ROUNDS, failures: 0, note: 'in the background' });
  record({ name: 'resources10000.heap', value: hMemFirst, unit: 'bytes', baseline: rMem, target: '≤ 1.5', samples: ROUNDS, failures: 0, note: `with all rows loaded in the view ${mb(hMemAll)}` });
}

main().catch(e => { console.error(e); process.exit(1); });

/**
 * Remote icons against hostile https hosts on loopback (self-signed certificate in
 * test/fixtures/tls, trusted only by the fetch handed to the product's icon fetcher): a server's
 * icon that redirects elsewhere, and icons on a host that is not the server's, are never fetched.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { createIconFetcher, IconCache } from '../../src/vscode/resources/icons';
import { repoRoot } from './helpers';

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const tls = { cert: readFileSync(path.join(repoRoot, 'test/fixtures/tls/loopback.crt')), key: readFileSync(path.join(repoRoot, 'test/fixtures/tls/loopback.key')) };

interface Site { readonly host: string; readonly hits: string[]; close(): void }

/** An https site on 127.0.0.1 that records every path requested; `routes` answer by path. */
async function site(routes: Record<string, (res: import('node:http').ServerResponse) => void>): Promise<Site> {
  const hits: string[] = [];
  const server = https.createServer(tls, (req, res) => {
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) route(res); else res.writeHead(404).end();
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => { server.close(); server.closeAllConnections(); } };
}

describe('resources: remote icons from hostile servers', () => {
  const trusting = new Agent({ connect: { ca: tls.cert } });
  // The platform's fetch, plus trust in the test certificate; everything else is the product's.
  const fetchFn = ((url: string, init?: RequestInit) => undiciFetch(url, { ...init, dispatcher: trusting } as Parameters<typeof undiciFetch>[1])) as unknown as typeof fetch;
  const sites: Site[] = [];
  after(async () => { for (const s of sites) s.close(); await trusting.close(); });

  it('does not follow a redirect, not even to the server\'s own host, and never contacts another host', async () => {
    const tracker = await site({ '/t.png': res => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PIXEL) });
    sites.push(tracker);
    const server = await site({
      '/icon.png': res => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PIXEL),
      '/elsewhere.png': res => res.writeHead(302, { Location: `https://${tracker.host}/t.png` }).end(),
      '/here.png': res => res.writeHead(301, { Location: '/icon.png' }).end(),
    });
    sites.push(server);
    const cache = new IconCache(createIconFetcher(fetchFn));
    const resolve = async (src: string, serverHost: string) => {
      const settled = new Promise<void>(r => { const d = cache.onDidResolve(() => { d.dispose(); r(); }); });
      assert.equal(cache.get([{ src }], serverHost), undefined, `${src} is not known yet`);
      await settled;
      return cache.get([{ src }], serverHost);
    };

    assert.match((await resolve(`https://${server.host}/icon.png`, server.host))?.light ?? '', /^data:image\/png;base64,/, 'the server\'s own icon is fetched');
    assert.equal(await resolve(`https://${server.host}/elsewhere.png`, server.host), undefined, 'a redirect to another host gives no icon');
    assert.equal(await resolve(`https://${server.host}/here.png`, server.host), undefined, 'a redirect is not followed at all');
    // An icon the server lists on the tracker's host: not even requested.
    assert.equal(cache.get([{ src: `https://${tracker.host}/t.png` }], server.host), undefined);
    assert.equal(cache.get([{ src: `https://${server.host}/icon.png` }, { src: `https://${tracker.host}/t.png` }], undefined)?.light, undefined, 'a local server gets no remote icon');
    assert.deepEqual(server.hits, ['/icon.png', '/elsewhere.png', '/here.png']);
    assert.deepEqual(tracker.hits, [], 'the other host was never contacted');
  });
});

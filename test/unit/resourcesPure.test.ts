// The vscode-free parts of the Resources view: MIME handling, the mcp-host-resource: path codec, icon
// safety (schemes, SVG sanitising), template variables and expansion with the SDK's UriTemplate.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describeParts, contentBytes } from '../../src/vscode/resources/contents';
import { candidates, decodeDataUri, IconCache, iconHostOf, isAllowedSource, sanitizeSvg, toSafeDataUri } from '../../src/vscode/resources/icons';
import { contentKind, fileNameFor, formatSize, languageForMime, listedKind } from '../../src/vscode/resources/mime';
import { decodeResourcePath, encodeResourcePath } from '../../src/vscode/resources/resourceUri';
import { BACK, expandTemplate, fillTemplate, templateVariables, type VariableStep } from '../../src/vscode/resources/templateFill';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('resources: MIME types', () => {
  it('maps MIME types to languages, ignoring parameters and case; text/plain is generic', () => {
    assert.equal(languageForMime('text/markdown'), 'markdown');
    assert.equal(languageForMime('Application/JSON; charset=utf-8'), 'json');
    assert.equal(languageForMime('application/vnd.api+json'), 'json');
    assert.equal(languageForMime('text/x-python'), 'python');
    assert.equal(languageForMime('text/plain'), undefined);
    assert.equal(languageForMime(undefined), undefined);
  });

  it('classifies contents: text always text, image blobs previewable, text-like blobs text, others binary', () => {
    assert.equal(contentKind('image/png', true), 'text');
    assert.equal(contentKind('image/png', false), 'image');
    assert.equal(contentKind('image/tiff', false), 'binary');
    assert.equal(contentKind('text/plain', false), 'text');
    assert.equal(contentKind('application/json', false), 'text');
    assert.equal(contentKind('application/zip', false), 'binary');
    assert.equal(contentKind(undefined, false), 'binary');
    assert.equal(listedKind(undefined), 'unknown');
  });

  it('names files after the URI with an extension from the MIME type', () => {
    assert.equal(fileNameFor('demo://resource/static/document/architecture.md', 'architecture.md', 'text/markdown'), 'architecture.md');
    assert.equal(fileNameFor('demo://resource/dynamic/text/1', 'Dynamic Text Resource', 'text/plain'), '1.txt');
    assert.equal(fileNameFor('file:///src/app.ts', 'app', 'text/plain'), 'app.ts', 'a generic MIME type keeps the own extension');
    assert.equal(fileNameFor('fixture://pixel', undefined, 'image/png'), 'pixel.png');
    assert.equal(fileNameFor('fixture://a/photo.jpeg', undefined, 'image/jpeg'), 'photo.jpeg');
    assert.equal(fileNameFor('fixture://data.txt', undefined, 'application/json'), 'data.txt.json');
    assert.equal(fileNameFor('weird://x/a%3Ab%2Fc', undefined, undefined), 'a_b_c');
    assert.equal(fileNameFor('scheme://host/', 'name', undefined), 'host');
    assert.equal(fileNameFor('urn:', 'name', undefined), 'name');
  });

  it('formats sizes', () => {
    assert.equal(formatSize(0), '0 B');
    assert.equal(formatSize(1536), '1.5 KB');
    assert.equal(formatSize(5 * 1024 * 1024), '5.0 MB');
    assert.equal(formatSize(undefined), undefined);
  });
});

describe('resources: mcp-host-resource: paths', () => {
  const key = randomBytes(32);

  it('round-trips server names and resource URIs of any shape', () => {
    for (const [server, uri, part] of [
      ['everything', 'demo://resource/static/document/architecture.md', 0],
      ['my server/ü', 'file:///C:/x y/z?q=1#f', 2],
      ['=tricky', 'urn:x', 0],
    ] as const) {
      const path = encodeResourcePath({ server, uri, part }, 'a/b.md', key);
      assert.match(path, /^\/[A-Za-z0-9_-]{22}\/[A-Za-z0-9_.=-]+\/[A-Za-z0-9_-]+(\/\d+)?\/[^/]+$/, 'only unreserved path characters');
      assert.deepEqual(decodeResourcePath(path, key), { server, uri, part });
    }
  });

  it('rejects paths it did not make: no token, another window\'s key, a token moved to another resource, server or content', () => {
    const path = encodeResourcePath({ server: 'everything', uri: 'demo://a', part: 0 }, 'a.md', key);
    const [, token, , b64] = path.split('/');
    const other = Buffer.from('demo://b').toString('base64url');
    for (const forged of [
      `/everything/${b64}/a.md`,
      encodeResourcePath({ server: 'everything', uri: 'demo://a', part: 0 }, 'a.md', randomBytes(32)),
      `/${token}/everything/${other}/a.md`,
      `/${token}/github/${b64}/a.md`,
      `/${token}/everything/${b64}/1/a.md`,
      `/${token}/everything/${b64}/00/a.md`,
      `/${token.slice(0, -1)}/everything/${b64}/a.md`,
      '/everything', '/everything/not base64!/x.md', '/a/b/c/d/e/f/g',
    ]) assert.equal(decodeResourcePath(forged, key), undefined, forged);
    assert.deepEqual(decodeResourcePath(`/${token}/everything/${b64}/renamed.md`, key), { server: 'everything', uri: 'demo://a', part: 0 }, 'the file name is only for the editor');
  });
});

describe('resources: contents', () => {
  it('describes every content and decodes blobs', () => {
    const parts = describeParts({ contents: [
      { uri: 'fixture://multi/readme.md', mimeType: 'text/markdown', text: '# Hi' },
      { uri: 'fixture://multi/pixel.png', mimeType: 'image/png', blob: PIXEL },
      { uri: '', blob: 'AAEC' },
    ] }, 'fixture://multi', { name: 'multi', mimeType: 'application/octet-stream' });
    assert.deepEqual(parts.map(p => [p.index, p.kind, p.fileName]), [[0, 'text', 'readme.md'], [1, 'image', 'pixel.png'], [2, 'binary', 'multi.bin']]);
    assert.equal(parts[2].uri, 'fixture://multi');
    assert.deepEqual([...contentBytes({ uri: 'x', blob: 'AAEC' })], [0, 1, 2]);
    assert.equal(new TextDecoder().decode(contentBytes({ uri: 'x', text: 'héllo' })), 'héllo');
  });
});

describe('resources: icons', () => {
  it('accepts data: sources, and https: ones only from the server\'s own host', () => {
    const host = 'mcp.example.com';
    assert.equal(isAllowedSource('https://mcp.example.com/i.png', host), true);
    assert.equal(isAllowedSource('HTTPS://MCP.EXAMPLE.COM/i.png', host), true);
    assert.equal(isAllowedSource('data:image/png;base64,AAAA', host), true);
    assert.equal(isAllowedSource('data:image/png;base64,AAAA', undefined), true, 'a local server may send data: icons');
    for (const bad of ['javascript:alert(1)', ' JavaScript:alert(1)', 'file:///etc/passwd', 'http://mcp.example.com/i.png', 'vbscript:x', '/relative.png',
      'https://tracker.example/i.png', 'https://mcp.example.com.evil.test/i.png', 'https://mcp.example.com:8443/i.png', 'https://user@mcp.example.com/i.png',
      'https://evil.test/?mcp.example.com', 'https://169.254.169.254/latest/meta-data']) {
      assert.equal(isAllowedSource(bad, host), false, bad);
    }
    assert.equal(isAllowedSource('https://mcp.example.com/i.png', undefined), false, 'a local (stdio) server has no host: no remote icons');
    assert.equal(iconHostOf({ type: 'http', url: 'https://MCP.example.com:8443/mcp' }), 'mcp.example.com:8443');
    assert.equal(iconHostOf({ type: 'sse', url: 'https://mcp.example.com/sse' }), 'mcp.example.com');
    assert.equal(iconHostOf({ type: 'stdio' }), undefined);
    const list = candidates([{ src: 'javascript:alert(1)' }, { src: 'file:///x.svg' }, { src: 'https://e.com/a.png', sizes: ['48x48'] }, { src: 'https://e.com/a.svg', mimeType: 'image/svg+xml' }, { src: 'https://e.com/d.png', theme: 'dark' }, { src: 'https://other.com/b.svg' }], 'light', 'e.com');
    assert.deepEqual(list.map(i => i.src), ['https://e.com/a.svg', 'https://e.com/a.png']);
  });

  it('sanitises SVG: scripts, handlers, foreign objects and external references go', () => {
    const evil = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">
      <script>alert(2)</script><scr<script>ipt>alert(3)</script>
      <foreignObject><iframe src="https://evil"/></foreignObject>
      <a href="javascript:alert(4)"><circle r="1" onclick='x()'/></a>
      <image xlink:href="https://tracker/p.png"/><use href="#ok"/>
      <rect style="fill:url(https://evil/x)" fill="url(#grad)"/></svg>`;
    const clean = sanitizeSvg(evil)!;
    assert.ok(clean, 'a sanitised SVG remains');
    assert.doesNotMatch(clean, /script|onload|onclick|foreignObject|iframe|javascript:|https:\/\/tracker|https:\/\/evil|ENTITY/i);
    assert.match(clean, /href="#ok"/);
    assert.match(clean, /url\(#grad\)/);
    assert.equal(sanitizeSvg('<html><body>not svg</body></html>'), undefined);
  });

  it('turns images into data: URIs only when their bytes are images', () => {
    const png = toSafeDataUri(Buffer.from(PIXEL, 'base64'), 'text/html')!;
    assert.match(png, /^data:image\/png;base64,/);
    assert.equal(toSafeDataUri(Buffer.from('<html><script>x</script></html>'), 'image/png'), undefined);
    const svg = toSafeDataUri(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>x()</script><circle r="2"/></svg>'), 'image/svg+xml')!;
    assert.doesNotMatch(Buffer.from(svg.split(',')[1], 'base64').toString(), /script/);
    assert.deepEqual(decodeDataUri('data:image/svg+xml,%3Csvg%2F%3E')?.mime, 'image/svg+xml');
  });

  it('IconCache resolves data: icons at once and fetches https ones once, in the background', async () => {
    const fetched: string[] = [];
    const cache = new IconCache(async url => { fetched.push(url); return { mime: 'image/png', bytes: Buffer.from(PIXEL, 'base64') }; });
    const clean = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"><circle r="2"/></svg>')}`;
    const now = cache.get([{ src: 'javascript:alert(1)' }, { src: clean }], undefined);
    assert.match(now!.light, /^data:image\/svg\+xml;base64,/);
    assert.equal(now!.light, now!.dark);

    const resolved = new Promise<void>(r => cache.onDidResolve(() => r()));
    assert.equal(cache.get([{ src: 'https://example.com/icon.png' }], 'example.com'), undefined, 'not fetched yet');
    await resolved;
    assert.match(cache.get([{ src: 'https://example.com/icon.png' }], 'example.com')!.light, /^data:image\/png;base64,/);
    cache.get([{ src: 'https://example.com/icon.png' }], 'example.com');
    assert.equal(cache.get([{ src: 'https://example.com/icon.png' }], 'other.example'), undefined, 'another server may not use that host');
    assert.equal(cache.get([{ src: 'https://example.com/icon.png' }], undefined), undefined, 'nor may a local server');
    assert.deepEqual(fetched, ['https://example.com/icon.png']);
    assert.equal(cache.get([{ src: 'file:///etc/icon.png' }, { src: 'javascript:void(0)' }], 'example.com'), undefined);
  });
});

describe('resources: templates', () => {
  it('lists RFC 6570 variables once, in order, with their operators', () => {
    assert.deepEqual(templateVariables('repo://{owner}/{repo}{?page,per_page*}{#frag:3}{owner}'), [
      { name: 'owner', operator: '' }, { name: 'repo', operator: '' }, { name: 'page', operator: '?' }, { name: 'per_page', operator: '?' }, { name: 'frag', operator: '#' },
    ]);
  });

  it('expands with the SDK UriTemplate, encoding values and leaving empty query values out', () => {
    assert.equal(expandTemplate('repo://{owner}/{repo}', { owner: 'a b', repo: 'x/y' }), 'repo://a%20b/x%2Fy');
    assert.equal(expandTemplate('search://q{?term,page}', { term: 'mcp', page: '' }), 'search://q?term=mcp');
  });

  it('asks each variable with the earlier answers, supports going back, and stops on cancel', async () => {
    const steps: VariableStep[] = [];
    const answers: (string | typeof BACK)[] = ['alice', BACK, 'bob', 'beta'];
    const r = await fillTemplate('repo://{owner}/{repo}', async s => { steps.push(s); return answers.shift(); }, { owner: 'al' });
    assert.deepEqual(r, { uri: 'repo://bob/beta', values: { owner: 'bob', repo: 'beta' } });
    assert.deepEqual(steps.map(s => [s.variable.name, s.index, s.total, s.value, s.previous]), [
      ['owner', 0, 2, 'al', {}], ['repo', 1, 2, '', { owner: 'alice' }], ['owner', 0, 2, 'alice', {}], ['repo', 1, 2, '', { owner: 'bob' }],
    ]);
    assert.equal(await fillTemplate('repo://{owner}/{repo}', async () => undefined), undefined);
  });
});

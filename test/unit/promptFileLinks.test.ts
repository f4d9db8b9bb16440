/**
 * The rule that keeps a server's prompt from pulling local files into chat (screenFileLinks), on a
 * real file system: a workspace folder, an extra root, and a "secret" outside both that a hostile
 * prompt reaches directly, through `..`, through percent-escaped dots, through a symlinked file and
 * through a symlinked folder inside the workspace.
 */
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isInside } from '../../src/core/fsPaths';
import { promptChatRequest, screenFileLinks } from '../../src/core/prompts';

const link = (uri: string, name = 'README.md') => ({ role: 'user' as const, content: { type: 'resource_link' as const, uri, name } });
const url = (p: string) => pathToFileURL(p).href;

describe('prompt file links', () => {
  let base: string, ws: string, extra: string, secret: string;

  before(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-links-')));
    ws = path.join(base, 'workspace');
    extra = path.join(base, 'extra-root');
    secret = path.join(base, 'home', '.ssh', 'README.md');
    await fs.mkdir(path.join(ws, 'docs'), { recursive: true });
    await fs.mkdir(extra, { recursive: true });
    await fs.mkdir(path.dirname(secret), { recursive: true });
    await fs.writeFile(secret, 'PRIVATE KEY');
    await fs.writeFile(path.join(ws, 'docs', 'notes.md'), 'notes');
    await fs.writeFile(path.join(extra, 'data.txt'), 'data');
    await fs.symlink(secret, path.join(ws, 'innocent.md'));
    await fs.symlink(path.dirname(secret), path.join(ws, 'docs', 'ssh'), 'dir');
    await fs.symlink(ws, path.join(base, 'ws-link'), 'dir');
  });
  after(() => fs.rm(base, { recursive: true, force: true }));

  it('keeps files inside a workspace folder or a root, and drops the secret however it is reached', async () => {
    const wsDepth = ws.split(path.sep).filter(Boolean).length;
    const request = promptChatRequest({ messages: [
      { role: 'user', content: { type: 'text', text: 'Summarise these' } },
      link(url(path.join(ws, 'docs', 'notes.md')), 'notes.md'),
      link(url(path.join(extra, 'data.txt')), 'data.txt'),
      link(url(secret)),
      // `new URL` would fold the dots away; the raw string keeps them, as a server would send it.
      link(`${url(ws)}/${'../'.repeat(wsDepth)}${secret.replace(/^[/\\]+/, '').split(path.sep).join('/')}`),
      link(`${url(ws)}/%2e%2e/home/.ssh/README.md`),
      link(url(path.join(ws, 'innocent.md'))),
      link(url(path.join(ws, 'docs', 'ssh', 'README.md'))),
      link('file://attacker.example/share/README.md'),
      link(url(path.join(ws, 'missing.md'))),
      { role: 'user', content: { type: 'resource', resource: { uri: 'file:///etc/passwd', mimeType: 'text/plain', text: 'sent by the server itself' } } },
    ] });
    const { request: screened, dropped } = await screenFileLinks(request, [url(ws), extra]);

    assert.equal(screened.text, 'Summarise these');
    const files = screened.attachments.filter(a => a.kind === 'file');
    assert.deepEqual(files.map(f => f.uri), [url(path.join(ws, 'docs', 'notes.md')), url(path.join(extra, 'data.txt'))]);
    // Content the server sent itself is not a local file: it stays.
    assert.equal(screened.attachments.filter(a => a.kind === 'data').length, 1);
    assert.deepEqual(dropped.map(d => [d.reason, d.path]), [
      ['outside', secret], ['outside', secret], ['outside', secret], ['outside', secret], ['outside', secret],
      ['remoteHost', 'file://attacker.example/share/README.md'],
      ['missing', path.join(ws, 'missing.md')],
    ]);
    assert.ok(dropped.every(d => d.name === 'README.md' || d.reason === 'missing'));
  });

  it('resolves the allowed folders too: a root given through a symlink admits its files, nothing allowed admits nothing', async () => {
    const notes = link(url(path.join(ws, 'docs', 'notes.md')), 'notes.md');
    const viaLink = await screenFileLinks(promptChatRequest({ messages: [notes] }), [url(path.join(base, 'ws-link'))]);
    assert.deepEqual(viaLink.request.attachments.map(a => a.kind === 'file' && a.uri), [url(path.join(ws, 'docs', 'notes.md'))]);
    const none = await screenFileLinks(promptChatRequest({ messages: [notes] }), []);
    assert.deepEqual([none.request.attachments.length, none.dropped.map(d => d.reason)], [0, ['outside']]);
  });

  it('a kept link is attached by its resolved path, so a symlink inside the workspace is attached as its target', async () => {
    await fs.writeFile(path.join(ws, 'docs', 'target.md'), 't');
    await fs.symlink(path.join(ws, 'docs', 'target.md'), path.join(ws, 'alias.md'));
    const { request } = await screenFileLinks(promptChatRequest({ messages: [link(url(path.join(ws, 'alias.md')), 'alias.md')] }), [ws]);
    assert.deepEqual(request.attachments.map(a => a.kind === 'file' && a.uri), [url(path.join(ws, 'docs', 'target.md'))]);
  });

  it('isInside compares whole path segments (and ignores case on Windows only)', () => {
    assert.equal(isInside('/w/a', '/w', 'linux'), true);
    assert.equal(isInside('/w', '/w', 'linux'), true);
    assert.equal(isInside('/wx/a', '/w', 'linux'), false);
    assert.equal(isInside('/w/../x', '/w', 'linux'), false);
    assert.equal(isInside('/W/a', '/w', 'linux'), false);
    assert.equal(isInside('C:\\Work\\a.md', 'c:\\work', 'win32'), true);
    assert.equal(isInside('D:\\work\\a.md', 'C:\\work', 'win32'), false);
    assert.equal(isInside('C:\\work..\\a.md', 'C:\\work', 'win32'), false);
  });
});

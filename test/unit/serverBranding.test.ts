/**
 * A server's website and icons (serverInfo.websiteUrl, serverInfo.icons) as the Servers view may show
 * them. The server is the attacker: every hostile form below must be refused, and the honest ones kept.
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { acceptIcon, MAX_SERVER_ICON_BYTES, MAX_SERVER_ICONS_LOOKED_AT, MAX_WEBSITE_URL_CHARS, serverIcons, serverWebsite } from '../../src/core';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const png = (b64 = PNG_1X1) => `data:image/png;base64,${b64}`;
const b64 = (bytes: number[] | Buffer) => Buffer.from(bytes).toString('base64');
const JPEG = b64([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1]);
const WEBP = b64([...Buffer.from('RIFF'), 4, 0, 0, 0, ...Buffer.from('WEBPVP8 ')]);
/** A second, different PNG (the 1×1 one with bytes appended after IEND: still a PNG by its signature). */
const PNG_OTHER = b64(Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.from([1, 2, 3])]));

describe('server branding: website and icons from serverInfo', () => {
  describe('serverWebsite', () => {
    it('keeps an https website (and http to this machine), giving the host to show', () => {
      assert.deepEqual(serverWebsite({ name: 's', version: '1', websiteUrl: 'https://Example.COM/docs?x=1' }),
        { href: 'https://example.com/docs?x=1', host: 'example.com', unicodeHost: 'example.com' });
      assert.equal(serverWebsite({ websiteUrl: 'http://127.0.0.1:8080/' })?.host, '127.0.0.1:8080');
      assert.equal(serverWebsite({ websiteUrl: 'https://xn--80ak6aa92e.com/' })?.unicodeHost, 'аррӏе.com', 'a look-alike shows both forms');
    });

    it('refuses hostile websites: javascript:, file:, command:, vscode:, data:, plain http, credentials, bidi and controls, oversized', () => {
      const hostile: unknown[] = [
        'javascript:alert(1)', 'JavaScript:fetch("//evil.test")', 'file:///etc/passwd', 'command:workbench.action.terminal.new',
        'vscode://ms-vscode.remote/x', 'data:text/html,<script>alert(1)</script>', 'http://evil.test/', 'https://bank.example@evil.test/',
        'https://example.com/\u202Egnp.exe', 'https://exa\u200Bmple.com/', 'https://example.com/a b', 'https://example.com/\n', 'not a url', '',
        `https://example.com/${'a'.repeat(MAX_WEBSITE_URL_CHARS)}`, `https://example.com/${'a'.repeat(50 * 1024)}`,
        // The parser percent-encodes this to over the bound: the bound is on what would be opened.
        `https://example.com/${'é'.repeat(MAX_WEBSITE_URL_CHARS / 2 - 20)}`,
        42, { href: 'https://example.com/' }, ['https://example.com/'], null,
      ];
      for (const websiteUrl of hostile) assert.equal(serverWebsite({ websiteUrl }), undefined, `accepted ${JSON.stringify(websiteUrl).slice(0, 80)}`);
      for (const info of [undefined, null, 'https://example.com/', {}, Object.create({ websiteUrl: 'https://example.com/' })]) {
        assert.equal(serverWebsite(info), undefined, `accepted from ${JSON.stringify(info)}`);
      }
    });
  });

  describe('serverIcons', () => {
    it('keeps a PNG, JPEG or WebP data: icon, names it by the SHA-256 of its bytes, and uses an unthemed icon for both themes', () => {
      for (const [mime, data, ext] of [['image/png', PNG_1X1, 'png'], ['image/jpeg', JPEG, 'jpg'], ['image/webp', WEBP, 'webp']] as const) {
        const icons = serverIcons({ icons: [{ src: `data:${mime};base64,${data}`, mimeType: mime, sizes: ['16x16'] }] });
        assert.ok(icons, mime);
        const bytes = Buffer.from(data, 'base64');
        assert.deepEqual(Buffer.from(icons.light.bytes), bytes);
        const sha = createHash('sha256').update(bytes).digest('hex');
        assert.equal(icons.light.sha256, sha);
        assert.equal(icons.light.fileName, `${sha}.${ext}`);
        assert.equal(icons.dark, icons.light);
      }
    });

    it('picks the server\'s first acceptable icon for each theme; a single-theme icon serves the other theme too', () => {
      const both = serverIcons({ icons: [
        { src: 'https://evil.test/light.png', theme: 'light' },
        { src: png(), theme: 'light' },
        { src: png(PNG_OTHER), theme: 'dark' },
        { src: png(JPEG), theme: 'dark' },
      ] });
      assert.deepEqual(Buffer.from(both!.light.bytes), Buffer.from(PNG_1X1, 'base64'));
      assert.deepEqual(Buffer.from(both!.dark.bytes), Buffer.from(PNG_OTHER, 'base64'));
      const darkOnly = serverIcons({ icons: [{ src: png(PNG_OTHER), theme: 'dark' }] });
      assert.equal(darkOnly!.light.sha256, darkOnly!.dark.sha256);
      const themedFirst = serverIcons({ icons: [{ src: png() }, { src: png(PNG_OTHER), theme: 'dark' }] });
      assert.notEqual(themedFirst!.light.sha256, themedFirst!.dark.sha256, 'the dark icon for dark, the unthemed one for light');
    });

    it('refuses every hostile icon: remote, file:, SVG (even sanitisable), lies about the type, invalid base64, oversized', () => {
      const svg = b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
      const bigPng = b64(Buffer.concat([Buffer.from(PNG_1X1, 'base64'), Buffer.alloc(MAX_SERVER_ICON_BYTES)]));
      const hostile: [string, unknown][] = [
        ['https URL (a request the server chose: tracking pixel, SSRF)', { src: 'https://evil.test/pixel.png', mimeType: 'image/png' }],
        ['http URL', { src: 'http://127.0.0.1:9/icon.png' }],
        ['file: path', { src: 'file:///etc/passwd', mimeType: 'image/png' }],
        ['relative path', { src: '../../.ssh/id_rsa' }],
        ['SVG with script', { src: `data:image/svg+xml;base64,${svg}`, mimeType: 'image/svg+xml' }],
        ['clean SVG', { src: `data:image/svg+xml;base64,${b64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))}` }],
        ['SVG bytes declared as PNG', { src: `data:image/png;base64,${svg}` }],
        ['JPEG bytes declared as PNG', { src: `data:image/png;base64,${JPEG}` }],
        ['PNG bytes declared as WebP', { src: `data:image/webp;base64,${PNG_1X1}` }],
        ['RIFF without WEBP', { src: `data:image/webp;base64,${b64([...Buffer.from('RIFF'), 4, 0, 0, 0, ...Buffer.from('WAVEfmt ')])}` }],
        ['mimeType contradicting the data URI', { src: png(), mimeType: 'image/jpeg' }],
        ['mimeType not a string', { src: png(), mimeType: ['image/png'] }],
        ['GIF (not accepted)', { src: `data:image/gif;base64,${b64(Buffer.from('GIF89a\x01\x00\x01\x00'))}` }],
        ['HTML', { src: `data:text/html;base64,${b64(Buffer.from('<script>alert(1)</script>'))}` }],
        ['percent-encoded data URI', { src: `data:image/png,${encodeURIComponent(Buffer.from(PNG_1X1, 'base64').toString('latin1'))}` }],
        ['a parameter before base64', { src: `data:image/png;charset=utf-8;base64,${PNG_1X1}` }],
        ['invalid base64 (Node would skip the junk)', { src: png(`${PNG_1X1.slice(0, 40)}!!!!${PNG_1X1.slice(40)}`) }],
        ['base64 with whitespace', { src: png(`${PNG_1X1.slice(0, 40)}\n${PNG_1X1.slice(40)}`) }],
        ['base64 without padding', { src: png(PNG_1X1.replace(/=+$/, '')) }],
        ['non-canonical base64 (stray bits in the padding)', { src: png(PNG_1X1.replace(/g==$/, 'h==')) }],
        ['empty', { src: 'data:image/png;base64,' }],
        ['over 64 KiB decoded', { src: png(bigPng) }],
        ['a 10 MB data URI', { src: png('A'.repeat(10 * 1024 * 1024)) }],
        ['src not a string', { src: { toString: () => png() } }],
        ['unknown theme', { src: png(), theme: 'high-contrast' }],
        ['not an object', png()],
      ];
      for (const [why, entry] of hostile) {
        assert.equal(acceptIcon(entry), undefined, `accepted: ${why}`);
        assert.equal(serverIcons({ icons: [entry] }), undefined, `shown: ${why}`);
      }
      assert.equal(serverIcons({ icons: png() }), undefined, 'icons not a list');
      assert.equal(serverIcons(undefined), undefined);
      assert.equal(serverIcons({ icons: hostile.map(([, e]) => e) }), undefined, 'all of them together');
    });

    it(`looks at only the first ${MAX_SERVER_ICONS_LOOKED_AT} of a thousand icons`, () => {
      const junk = Array.from({ length: 1000 }, (_, i) => ({ src: `https://evil.test/${i}.png` }));
      assert.equal(serverIcons({ icons: [...junk.slice(0, MAX_SERVER_ICONS_LOOKED_AT), { src: png() }] }), undefined, 'the 17th is never read');
      assert.ok(serverIcons({ icons: [...junk.slice(0, MAX_SERVER_ICONS_LOOKED_AT - 1), { src: png() }, ...junk] }), 'the 16th is');
      // Only the entries looked at are decoded: a thousand oversized data URIs after them cost nothing.
      let reads = 0;
      const counted = Array.from({ length: 1000 }, () => ({ get src() { reads++; return png(); } }));
      serverIcons({ icons: counted });
      assert.ok(reads <= MAX_SERVER_ICONS_LOOKED_AT, `${reads} entries read`);
    });
  });
});

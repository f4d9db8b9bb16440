/**
 * The safe-URL rule every URL opened for a server goes through: hostile forms an MCP server or an
 * authorization server could send, and the forms that must keep working.
 */
import * as assert from 'node:assert/strict';
import { checkOpenableUrl, type UnsafeUrlCode } from '../../src/core';

function refused(raw: string): UnsafeUrlCode {
  const r = checkOpenableUrl(raw);
  assert.ok(!r.ok, `${JSON.stringify(raw)} was accepted as ${r.ok ? r.url.href : ''}`);
  assert.ok(r.reason.length > 10, 'a reason a person can read');
  return r.code;
}

describe('safe URLs: the rule for opening a URL for a server', () => {
  it('opens https anywhere and http only to this machine, and says which host', () => {
    const cases: [string, string, string][] = [
      ['https://auth.example.com/authorize?x=1', 'auth.example.com', 'https://auth.example.com/authorize?x=1'],
      ['HTTPS://Auth.Example.COM:8443/a', 'auth.example.com:8443', 'https://auth.example.com:8443/a'],
      ['http://127.0.0.1:4000/cb', '127.0.0.1:4000', 'http://127.0.0.1:4000/cb'],
      ['http://127.5.6.7/cb', '127.5.6.7', 'http://127.5.6.7/cb'],
      ['http://localhost:3000/', 'localhost:3000', 'http://localhost:3000/'],
      ['http://LOCALHOST/', 'localhost', 'http://localhost/'],
      ['http://[::1]:9000/x', '[::1]:9000', 'http://[::1]:9000/x'],
      ['http://[0:0:0:0:0:0:0:1]/x', '[::1]', 'http://[::1]/x'],
      ['http://127.1/x', '127.0.0.1', 'http://127.0.0.1/x'], // the parser's IPv4 shorthand: still this machine
    ];
    for (const [raw, host, href] of cases) {
      const r = checkOpenableUrl(raw);
      assert.ok(r.ok, `${raw}: ${r.ok ? '' : r.reason}`);
      assert.equal(r.host, host, raw);
      assert.equal(r.url.href, href, raw);
    }
  });

  it('refuses every other scheme, whatever its case or disguise', () => {
    for (const raw of [
      'file:///etc/passwd', 'FILE:///C:/Windows/System32/calc.exe', 'file://attacker.example/share/x.exe',
      'javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)',
      'vscode://some.other-extension/x?cmd=run', 'vscode-insiders://ms-vscode.remote/x', 'VSCode://vscode.git/clone?url=x',
      'search-ms:query=secret&crumb=location:\\\\attacker\\share', 'ms-settings:privacy', 'ms-msdt:/id%20PCWDiagnostic',
      'smb://attacker.example/share', 'ftp://example.com/x', 'ssh://example.com', 'x-custom-app://do/thing',
      'blob:https://example.com/uuid', 'about:blank', 'chrome://settings', 'mailto:a@example.com', 'tel:+100',
    ]) assert.equal(refused(raw), 'scheme', raw);
  });

  it('refuses plain http to any host that is not this machine, including look-alikes of loopback', () => {
    for (const raw of [
      'http://evil.example/authorize', 'HTTP://EVIL.EXAMPLE/', 'http://127.0.0.1.evil.com/', 'http://localhost.evil.com/',
      'http://evil.localhost/', 'http://127.0.0.1.nip.io/', 'http://0.0.0.0/', 'http://10.0.0.1/', 'http://192.168.1.1/',
      'http://[::ffff:127.0.0.1]/', 'http://[::2]/', 'http://[fe80::1]/', 'http://128.0.0.1/',
    ]) assert.equal(refused(raw), 'insecureHttp', raw);
  });

  it('refuses user names and passwords before the host', () => {
    for (const raw of ['https://user:pass@example.com/', 'https://accounts.google.com@evil.example/', 'https://:pw@example.com/', 'http://me@127.0.0.1/']) {
      assert.equal(refused(raw), 'credentials', raw);
    }
  });

  it('refuses whitespace and control or invisible characters instead of letting the parser drop them', () => {
    for (const raw of [' https://example.com/', 'https://example.com/ ', 'java\tscript:alert(1)', 'https://exa\nmple.com/', 'https://example.com/\u0000',
      'https://example.com/\u202Egnp.exe', 'https://exa\u200Bmple.com/', '\uFEFFhttps://example.com/', 'https://example.com/a b',
      // The one cleaner's classes, not a list: a tag, a variation selector, a Hangul filler, the braille blank, NEL.
      'https://example.com/\u{E0041}', 'https://exa\uFE0Fmple.com/', 'https://exa\u3164mple.com/', 'https://example.com/\u2800', 'https://example.com/\u0085x']) {
      assert.equal(refused(raw), 'controlCharacters', JSON.stringify(raw));
    }
  });

  it('refuses what is not an absolute URL', () => {
    for (const raw of ['', '/relative/path', 'example.com', '//example.com/x', 'https://', 'http://[::1']) {
      const code = refused(raw);
      assert.ok(code === 'invalid' || code === 'controlCharacters', `${raw}: ${code}`);
    }
  });

  it('shows an internationalized host both as the browser resolves it and as it reads', () => {
    const r = checkOpenableUrl('https://аpple.com/login'); // Cyrillic а
    assert.ok(r.ok);
    assert.equal(r.host, 'xn--pple-43d.com');
    assert.equal(r.unicodeHost, 'аpple.com');
    const plain = checkOpenableUrl('https://apple.com:444/');
    assert.ok(plain.ok);
    assert.equal(plain.unicodeHost, plain.host);
  });
});

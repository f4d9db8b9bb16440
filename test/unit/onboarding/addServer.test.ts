import * as assert from 'node:assert/strict';
import { buildServer, isPackageSpec, isSecretEntry, isSecretName, isValidServerName, looksLikeToken, splitCommandLine, suggestServerName } from '../../../src/core/onboarding';

describe('add server: input parsing', () => {
  it('splits command lines like a shell (quotes, escapes, no expansion)', () => {
    assert.deepEqual(splitCommandLine(`node "/path with space/server.js" --name 'a b' x\\ y $HOME`).args, ['node', '/path with space/server.js', '--name', 'a b', 'x y', '$HOME']);
    assert.deepEqual(splitCommandLine('  ').args, []);
    assert.deepEqual(splitCommandLine('a ""').args, ['a', '']);
    assert.equal(splitCommandLine('node "unclosed').error, 'unclosedQuote');
  });

  it('accepts npm package specs, local folders and tarballs', () => {
    for (const ok of ['@modelcontextprotocol/server-everything', 'mcp-server-git@1.2.3', '@scope/pkg@latest', './local', '/abs/pkg.tgz', 'file:../x', 'github:user/repo']) assert.ok(isPackageSpec(ok), ok);
    for (const bad of ['', 'two words', 'UPPER', '@scope', 'pkg@']) assert.ok(!isPackageSpec(bad), bad);
  });

  it('suggests short unique names', () => {
    assert.equal(suggestServerName({ package: '@modelcontextprotocol/server-everything' }), 'everything');
    assert.equal(suggestServerName({ package: 'github-mcp-server@2.0.0' }), 'github');
    assert.equal(suggestServerName({ package: '@modelcontextprotocol/server-everything' }, ['everything']), 'everything-2');
    assert.equal(suggestServerName({ command: ['node', '/srv/weather-server.js'] }), 'weather');
    assert.equal(suggestServerName({ command: ['uvx', 'mcp-server-git'] }), 'git');
    assert.equal(suggestServerName({ url: 'https://api.githubcopilot.com/mcp/' }), 'githubcopilot');
    assert.equal(suggestServerName({ url: 'http://127.0.0.1:8931/mcp' }), 'local-8931');
    assert.ok(isValidServerName('everything-2') && !isValidServerName('a b') && !isValidServerName(''));
  });

  it('recognises secrets by name and by shape', () => {
    for (const n of ['API_KEY', 'GITHUB_PERSONAL_ACCESS_TOKEN', 'apiKey', 'x-api-key', 'Authorization', 'DB_PASSWORD', '--auth-token', 'client_secret']) assert.ok(isSecretName(n), n);
    for (const n of ['PATH', 'LOG_LEVEL', 'KEYBOARD_LAYOUT', 'AWS_ACCESS_KEY_ID', 'TOKEN_URL', 'X-Client', 'NODE_ENV']) assert.ok(!isSecretName(n), n);
    assert.ok(looksLikeToken('ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789') && looksLikeToken('AKIAABCDEFGHIJKLMNOP'));
    assert.ok(isSecretEntry('AWS_ACCESS_KEY_ID', 'AKIAABCDEFGHIJKLMNOP'), 'shape wins over a harmless name');
    assert.ok(!isSecretEntry('API_KEY', '${env:API_KEY}') && !isSecretEntry('TOKEN_TIMEOUT', '30') && !isSecretEntry('API_KEY', ''));
  });
});

describe('add server: building the declaration', () => {
  it('npm package → npx -y <package> with arguments and env; secrets as inputs', () => {
    const s = buildServer({ kind: 'npm', name: 'everything', package: '@modelcontextprotocol/server-everything', args: ['stdio'], env: [
      { name: 'API_KEY', value: 'abc', secret: true }, { name: 'MODE', value: 'fast', secret: false },
    ] });
    assert.deepEqual(s.declaration, { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'], env: { API_KEY: '${input:everything.API_KEY}', MODE: 'fast' } });
    assert.deepEqual(s.inputs, [{ id: 'everything.API_KEY', type: 'promptString', description: 'API_KEY for MCP server "everything"', password: true }]);
    assert.deepEqual(s.secrets, [{ id: 'everything.API_KEY', value: 'abc' }]);
    assert.deepEqual(s.errors, []);
  });

  it('HTTP URL with an Authorization header: the scheme stays, the token becomes an input', () => {
    const s = buildServer({ kind: 'http', name: 'remote', url: ' https://example.com/mcp ', headers: [{ name: 'Authorization', value: 'Bearer t0ken', secret: true }] }, ['remote.Authorization']);
    assert.deepEqual(s.declaration, { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:remote.Authorization-2}' } });
    assert.deepEqual(s.secrets, [{ id: 'remote.Authorization-2', value: 't0ken' }]);
  });

  it('an empty secret is asked on the first start instead of stored', () => {
    const s = buildServer({ kind: 'command', name: 'c', commandLine: ['node', 's.js'], env: [{ name: 'TOKEN', value: '', secret: true }] });
    assert.deepEqual(s.declaration.env, { TOKEN: '${input:c.TOKEN}' });
    assert.deepEqual(s.secrets, []);
    assert.equal(s.inputs.length, 1);
  });

  it('reports what the core rejects', () => {
    assert.match(buildServer({ kind: 'http', name: 'x', url: 'ftp://x', headers: [] }).errors.join(), /http/);
    assert.match(buildServer({ kind: 'command', name: 'x', commandLine: ['node', '${nope}'], env: [] }).errors.join(), /unknown variable/);
  });
});

/**
 * The import preview's review of a declaration (every field, dangerous ones flagged) and where a
 * file's servers go by default, against a hostile `.cursor/mcp.json` (test/fixtures/import/hostile-mcp.json).
 */
import * as assert from 'node:assert/strict';
import { promises as fs, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { convertConfigText, dangerousEnvVariable, defaultImportTarget, importRisks, reviewDeclaration } from '../../../src/core/onboarding';

const fixture = readFileSync(path.resolve(__dirname, '../../../../test/fixtures/import/hostile-mcp.json'), 'utf8');

describe('import review: what a declaration will write', () => {
  const servers = new Map(convertConfigText(fixture).servers.map(s => [s.name, s]));

  it('lists every field of the declaration, in order, with secrets as input references', () => {
    const fields = reviewDeclaration(servers.get('docs')!.declaration);
    assert.deepEqual(fields.map(f => [f.field, f.value, f.risk]), [
      ['command', 'npx', undefined],
      ['args', '-y docs-mcp', undefined],
      ['env.NODE_OPTIONS', '--require /tmp/evil.js', 'loadsCode'],
      ['env.DOCS_LANG', 'en', undefined],
      ['env.API_TOKEN', '${input:docs.API_TOKEN}', undefined],
      ['envFile', '${workspaceFolder}/.env', 'envFile'],
      ['cwd', '/tmp/evil-checkout', 'workingDirectory'],
    ]);
  });

  it('flags search paths and package sources, whatever their case; harmless servers have no risk', () => {
    assert.deepEqual(importRisks(servers.get('pathy')!.declaration).map(f => [f.field, f.risk]), [
      ['env.PYTHONPATH', 'searchPath'], ['env.npm_config_registry', 'network'],
    ]);
    assert.deepEqual(importRisks(servers.get('everything')!.declaration), []);
  });

  it('knows the variables that load code or move lookups (and leaves ordinary ones alone)', () => {
    for (const n of ['NODE_OPTIONS', 'LD_PRELOAD', 'DYLD_INSERT_LIBRARIES', 'dyld_library_path', 'PYTHONSTARTUP', 'PERL5OPT', 'RUBYOPT', 'JAVA_TOOL_OPTIONS', 'BASH_ENV', 'GIT_SSH_COMMAND', 'GIT_CONFIG_KEY_0']) {
      assert.equal(dangerousEnvVariable(n), 'loadsCode', n);
    }
    for (const n of ['PATH', 'Path', 'LD_LIBRARY_PATH', 'NODE_PATH', 'PYTHONPATH', 'PERL5LIB', 'RUBYLIB', 'CLASSPATH']) assert.equal(dangerousEnvVariable(n), 'searchPath', n);
    for (const n of ['NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_EXTRA_CA_CERTS', 'HTTPS_PROXY', 'UV_INDEX_URL', 'PIP_INDEX_URL', 'NPM_CONFIG_REGISTRY']) assert.equal(dangerousEnvVariable(n), 'network', n);
    for (const n of ['LOG_LEVEL', 'GITHUB_TOKEN', 'DEBUG', 'NODE_ENV', 'LANG', 'PATHS_TO_SCAN']) assert.equal(dangerousEnvVariable(n), undefined, n);
  });

  it('masks a credential the conversion did not move, keeping its scheme', () => {
    const fields = reviewDeclaration({ url: 'https://x.example/mcp', headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwx', 'X-Client': 'cursor' } });
    assert.deepEqual(fields.map(f => [f.field, f.value]), [['url', 'https://x.example/mcp'], ['headers.Authorization', 'Bearer abcd••••'], ['headers.X-Client', 'cursor']]);
  });
});

describe('import review: default target', () => {
  let base: string;
  before(async () => {
    base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'mcp-import-')));
    await fs.mkdir(path.join(base, 'ws', '.cursor'), { recursive: true });
    await fs.mkdir(path.join(base, 'home', '.cursor'), { recursive: true });
    await fs.writeFile(path.join(base, 'ws', '.cursor', 'mcp.json'), fixture);
    await fs.writeFile(path.join(base, 'home', '.cursor', 'mcp.json'), fixture);
    // A repository can carry a symlink out of itself, and a user can open a folder through one.
    await fs.symlink(path.join(base, 'ws', '.cursor', 'mcp.json'), path.join(base, 'home', 'linked.json'));
    await fs.symlink(path.join(base, 'ws'), path.join(base, 'ws-link'), 'dir');
  });
  after(() => fs.rm(base, { recursive: true, force: true }));

  it('a file inside a workspace folder goes to the workspace; others to the user', async () => {
    const ws = path.join(base, 'ws');
    assert.equal(await defaultImportTarget(path.join(ws, '.cursor', 'mcp.json'), [ws]), 'workspace');
    assert.equal(await defaultImportTarget(path.join(base, 'home', '.cursor', 'mcp.json'), [ws]), 'user');
    assert.equal(await defaultImportTarget(path.join(base, 'home', '.cursor', 'mcp.json'), []), 'user');
  });

  it('decides on resolved paths: a link to a workspace file, or a workspace opened through a link, is still the workspace', async () => {
    assert.equal(await defaultImportTarget(path.join(base, 'home', 'linked.json'), [path.join(base, 'ws')]), 'workspace');
    assert.equal(await defaultImportTarget(path.join(base, 'ws', '.cursor', 'mcp.json'), [path.join(base, 'ws-link')]), 'workspace');
    assert.equal(await defaultImportTarget(path.join(base, 'wsx', 'mcp.json'), [path.join(base, 'ws')]), 'user');
  });
});

import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseServers, resolveDeclaration, declarationKey, type VariableContext } from '../../src/core';
import { parseEnvFile } from '../../src/core/config/envFile';

const ctx = (over: Partial<VariableContext> = {}): VariableContext => ({
  workspaceFolders: [{ name: 'app', path: '/ws/app' }, { name: 'lib', path: '/ws/lib' }],
  trusted: true,
  userHome: '/home/me',
  env: { HOME: '/home/me', TOKEN_VAR: 'from-env' },
  ...over,
});

describe('config: parseServers', () => {
  it('infers the type from command or url and keeps VS Code mcp.json field names', () => {
    const { servers, problems } = parseServers({
      local: { command: 'npx', args: ['-y', 'pkg'], env: { A: '1', B: null }, envFile: '.env', cwd: 'sub' },
      remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:tok}' } },
      legacy: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(servers.map(s => [s.name, s.type]), [['local', 'stdio'], ['remote', 'http'], ['legacy', 'sse']]);
    const local = servers[0];
    assert.ok(local.type === 'stdio');
    assert.deepEqual(local.env, { A: '1', B: null });
    assert.equal(local.envFile, '.env');
  });

  it('reports each broken server with its field while keeping the good ones', () => {
    const { servers, problems } = parseServers({
      good: { command: 'node' },
      noCommand: { args: ['x'] },
      badArgs: { command: 'node', args: 'x.js' },
      badUrl: { url: 'not a url' },
      ftp: { url: 'ftp://x/y' },
      both: { command: 'node', url: 'http://x' },
      badType: { type: 'websocket', url: 'ws://x' },
      badEnv: { command: 'node', env: { A: {} } },
      badTimeout: { command: 'node', timeout: -1 },
      notObject: 'npx foo',
    });
    assert.deepEqual(servers.map(s => s.name), ['good']);
    const by = (s: string) => problems.filter(p => p.server === s);
    assert.match(by('noCommand')[0].message, /Needs "command".*or "url"/);
    assert.equal(by('badArgs')[0].field, 'args');
    assert.match(by('badUrl')[0].message, /not a valid URL/);
    assert.match(by('ftp')[0].message, /http:\/\/, https:\/\/, unix:\/\/ .* or pipe:\/\/ .*, not ftp:\/\//);
    assert.match(by('both')[0].message, /both "command" and "url"/);
    assert.match(by('badType')[0].message, /"type" must be "stdio", "http" or "sse"/);
    assert.equal(by('badEnv')[0].field, 'env.A');
    assert.match(by('badTimeout')[0].message, /positive number of seconds/);
    assert.match(by('notObject')[0].message, /must be an object/);
    for (const p of problems) assert.equal(p.severity, 'error');
  });

  it('flags unknown variables as problems instead of substituting an empty string', () => {
    const { servers, problems } = parseServers({ s: { command: 'node', args: ['${workspaceRoot}/x.js'] } });
    assert.equal(servers.length, 0);
    assert.equal(problems[0].field, 'args[0]');
    assert.match(problems[0].message, /unknown variable \$\{workspaceRoot\}/);
  });

  it('warns about unknown and misplaced fields without dropping the server', () => {
    const { servers, problems } = parseServers({ s: { command: 'node', url: 'http://x', type: 'stdio', colour: 'red' } });
    assert.equal(servers.length, 1);
    assert.deepEqual(problems.map(p => [p.field, p.severity]), [['url', 'warning'], ['colour', 'warning']]);
  });

  it('rejects a servers value that is not an object', () => {
    assert.match(parseServers([1, 2]).problems[0].message, /must be an object/);
    assert.deepEqual(parseServers(undefined), { servers: [], problems: [] });
  });

  it('converts timeout seconds to milliseconds and disabled to a boolean', () => {
    const [s] = parseServers({ s: { command: 'node', timeout: 2.5, disabled: true } }).servers;
    assert.equal(s.timeoutMs, 2500);
    assert.equal(s.disabled, true);
  });

  it('gives the same key to declarations that differ only in key order', () => {
    const a = parseServers({ s: { command: 'node', env: { A: '1', B: '2' } } }).servers[0];
    const b = parseServers({ s: { env: { B: '2', A: '1' }, command: 'node' } }).servers[0];
    const c = parseServers({ s: { command: 'node', env: { A: '1', B: '3' } } }).servers[0];
    assert.equal(declarationKey(a), declarationKey(b));
    assert.notEqual(declarationKey(a), declarationKey(c));
  });
});

describe('config: resolveDeclaration', () => {
  it('substitutes workspace, home, env and input variables', async () => {
    const asked: string[] = [];
    const [decl] = parseServers({ s: {
      command: '${userHome}/bin/tool',
      args: ['${workspaceFolder}', '${workspaceFolder:lib}', '${env:TOKEN_VAR}', '--key=${input:key}', '${input:key}'],
      env: { SECRET: '${input:key}' },
    } }).servers;
    const { launch, secrets } = await resolveDeclaration(decl, ctx({ resolveInput: async ({ id }) => { asked.push(id); return 's3cr3t'; } }));
    assert.ok(launch.type === 'stdio');
    assert.equal(launch.command, '/home/me/bin/tool');
    assert.deepEqual(launch.args, ['/ws/app', '/ws/lib', 'from-env', '--key=s3cr3t', 's3cr3t']);
    assert.equal(launch.env.SECRET, 's3cr3t');
    assert.deepEqual(asked, ['key'], 'an input is asked once per resolution');
    assert.deepEqual(secrets, ['s3cr3t']);
  });

  it('fails with a field-specific message for unresolvable variables', async () => {
    const cases: [unknown, RegExp][] = [
      [{ command: 'node', args: ['${env:NOPE_NOT_SET}'] }, /args\[0\].*NOPE_NOT_SET is not set/],
      [{ command: 'node', args: ['${workspaceFolder:missing}'] }, /no open workspace folder is named "missing" \(open: app, lib\)/],
      [{ command: 'node', env: { K: '${input:k}' } }, /env\.K.*\$\{input:k\} was not provided/],
    ];
    for (const [raw, re] of cases) {
      const [decl] = parseServers({ s: raw }).servers;
      await assert.rejects(resolveDeclaration(decl, ctx()), re);
    }
    const [decl] = parseServers({ s: { command: 'node', cwd: '${workspaceFolder}' } }).servers;
    await assert.rejects(resolveDeclaration(decl, ctx({ workspaceFolders: [] })), /no folder is open/);
  });

  it('builds a minimal environment: default vars, envFile, env; null removes; PATH is appended', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-env-'));
    writeFileSync(path.join(dir, '.env'), '# comment\nexport FROM_FILE="quoted value"\nOVERRIDE=file\nHOME_TOO=1 # trailing\n');
    const [decl] = parseServers({ s: { command: 'node', envFile: '.env', cwd: 'sub', env: { OVERRIDE: 'env', PATH: '/extra/bin', HOME: null } } }).servers;
    const { launch } = await resolveDeclaration(decl, { workspaceFolders: [{ name: 'w', path: dir }], trusted: true, userHome: '/home/me', env: {} });
    assert.ok(launch.type === 'stdio');
    assert.equal(launch.env.FROM_FILE, 'quoted value');
    assert.equal(launch.env.OVERRIDE, 'env');
    assert.equal(launch.env.HOME_TOO, '1');
    assert.equal(launch.env.HOME, undefined, 'null removes an inherited variable');
    assert.ok(launch.env.PATH.endsWith(`${path.delimiter}/extra/bin`), 'PATH is appended');
    assert.ok(launch.env.PATH.length > '/extra/bin'.length + 1, 'the inherited PATH is kept');
    assert.equal(launch.cwd, path.join(dir, 'sub'), 'relative cwd resolves against the workspace folder');
    assert.ok(!('TOKEN_VAR' in launch.env) && !('npm_config_cache' in launch.env), 'the editor environment is not inherited wholesale');
  });

  it('reports an unreadable envFile in words: which path was tried and what to do (issue 30 item 10)', async () => {
    const [decl] = parseServers({ s: { command: 'node', envFile: '/definitely/missing.env' } }).servers;
    await assert.rejects(resolveDeclaration(decl, ctx()), (e: Error) => {
      assert.equal(e.message, 'envFile /definitely/missing.env does not exist: create it, or correct "envFile" in the server\'s declaration or remove it.');
      return true;
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-envfile-'));
    try {
      const [relative] = parseServers({ s: { command: 'node', envFile: '.env.local' } }).servers;
      const trusted = { workspaceFolders: [{ name: 'w', path: dir }], trusted: true, userHome: '/home/me', env: {} };
      await assert.rejects(resolveDeclaration(relative, trusted), (e: Error) => {
        assert.equal(e.message, `envFile ${path.join(dir, '.env.local')} (".env.local" resolved from ${dir}) does not exist: create it, or correct "envFile" in the server's declaration or remove it.`);
        return true;
      });
      const [folder] = parseServers({ s: { command: 'node', envFile: dir } }).servers;
      await assert.rejects(resolveDeclaration(folder, trusted), /is a folder, not a file/);
      assert.doesNotMatch(String(await resolveDeclaration(folder, trusted).catch(e => e)), /EISDIR|ENOENT/);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  it('ATTACKER: an envFile that is a FIFO or a huge file is refused at start, in words, without hanging or reading it all', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-envfile-'));
    try {
      const fifo = path.join(dir, 'fifo.env');
      execFileSync('mkfifo', [fifo]);
      const [piped] = parseServers({ s: { command: 'node', envFile: fifo } }).servers;
      // Before, the start opened the FIFO with a blocking read: it waited for a writer forever.
      const outcome = await Promise.race([resolveDeclaration(piped, ctx()).then(() => 'resolved', (e: Error) => e.message), new Promise(r => setTimeout(() => r('hung'), 5000))]);
      assert.match(String(outcome), /is not a regular file/);
      const huge = path.join(dir, 'huge.env');
      writeFileSync(huge, `A=${'x'.repeat(300 * 1024)}\n`);
      const [big] = parseServers({ s: { command: 'node', envFile: huge } }).servers;
      await assert.rejects(resolveDeclaration(big, ctx()), /is larger than 256 KiB/);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  it('resolves http urls and header secrets', async () => {
    const [decl] = parseServers({ s: { url: 'http://127.0.0.1:${env:PORT}/mcp', headers: { Authorization: 'Bearer ${input:tok}' } } }).servers;
    const { launch, secrets } = await resolveDeclaration(decl, ctx({ env: { PORT: '9999' }, resolveInput: async () => 'abc123' }));
    assert.ok(launch.type === 'http');
    assert.equal(launch.url.href, 'http://127.0.0.1:9999/mcp');
    assert.equal(launch.headers.Authorization, 'Bearer abc123');
    assert.deepEqual(secrets, ['abc123']);
  });
});

describe('config: parseEnvFile', () => {
  it('handles quotes, export, comments and escaped newlines', () => {
    assert.deepEqual(parseEnvFile('A=1\n\n# c\nexport B = two\nC="x\\ny"\nD=\'lit\\n\'\nnot a line\n'), { A: '1', B: 'two', C: 'x\ny', D: 'lit\\n' });
  });
});

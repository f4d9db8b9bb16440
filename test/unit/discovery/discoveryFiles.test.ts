/** Discovered files (mcpHost.discovery): where they are, how they are read (bounded, links refused) and what they declare. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discoveryFiles, enabledSources, parseServers, parseToml, readDiscovery, readDiscoveryFile, serversOfFile, DISCOVERY_SOURCES, type DiscoverySource } from '../../../src/core';

const all = new Set<DiscoverySource>(DISCOVERY_SOURCES);

describe('discovery: sources and their files', () => {
  it('lists each enabled source\'s files, user files first, workspace files once per folder', () => {
    const files = discoveryFiles({ platform: 'linux', home: '/h', env: {}, workspaceFolders: [{ name: 'a', path: '/w/a' }, { name: 'b', path: '/w/b' }], editorUserDir: '/data/User' }, all);
    const of = (s: DiscoverySource) => files.filter(f => f.source === s).map(f => f.path);
    assert.deepEqual(of('claudeDesktop'), ['/h/.config/Claude/claude_desktop_config.json']);
    assert.deepEqual(of('claudeCodeUser'), ['/h/.claude.json']);
    assert.deepEqual(of('claudeCodeWorkspace'), ['/w/a/.mcp.json', '/w/b/.mcp.json']);
    assert.deepEqual(of('cursorWorkspace'), ['/w/a/.cursor/mcp.json', '/w/b/.cursor/mcp.json']);
    assert.deepEqual(of('windsurf'), ['/h/.codeium/windsurf/mcp_config.json']);
    assert.deepEqual(of('vscodeUser'), ['/data/User/mcp.json', '/h/.config/Code/User/mcp.json', '/h/.config/Code - Insiders/User/mcp.json']);
    assert.deepEqual(of('cline'), ['/data/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json', '/h/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json', '/h/.config/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json']);
    assert.deepEqual(of('codex'), ['/h/.codex/config.toml']);
    assert.equal(files.findIndex(f => f.folder), files.filter(f => !f.folder).length, 'every user file comes before the workspace files');
    assert.ok(files.filter(f => f.source.endsWith('Workspace')).every(f => f.folder && f.path.startsWith(f.folder.path + '/')));
    const mac = discoveryFiles({ platform: 'darwin', home: '/Users/u', env: { CODEX_HOME: '/c' }, workspaceFolders: [] }, all);
    assert.ok(mac.some(f => f.path === '/Users/u/Library/Application Support/Claude/claude_desktop_config.json'));
    assert.ok(mac.some(f => f.path === '/c/config.toml'));
  });

  it('reads nothing of a source that is not enabled, and only true or "run" enables one', () => {
    const { enabled, runHere } = enabledSources({ cursorUser: true, vscodeUser: 'run', codex: 'yes', windsurf: 1, claudeDesktop: false, cline: 'run', nonsense: true });
    assert.deepEqual([...enabled].sort(), ['cline', 'cursorUser', 'vscodeUser']);
    assert.deepEqual([...runHere], ['vscodeUser'], '"run" means "run here too" for VS Code\'s own files only');
    assert.equal(enabledSources(['cursorUser']).enabled.size, 0);
    const files = discoveryFiles({ platform: 'linux', home: '/h', env: {}, workspaceFolders: [{ name: 'a', path: '/w/a' }] }, enabled);
    assert.deepEqual([...new Set(files.map(f => f.source))].sort(), ['cline', 'cursorUser', 'vscodeUser']);
  });
});

describe('discovery: reading a file', function () {
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-discovery-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a workspace file that links out of its folder, even through a linked parent folder', async () => {
    const ws = path.join(dir, 'repo');
    mkdirSync(path.join(ws, '.vscode'), { recursive: true });
    const secret = path.join(dir, 'private.json');
    writeFileSync(secret, JSON.stringify({ mcpServers: { leak: { command: 'node', args: ['TOKEN-123'] } } }));
    symlinkSync(secret, path.join(ws, '.mcp.json'));
    mkdirSync(path.join(dir, 'outside'));
    writeFileSync(path.join(dir, 'outside', 'mcp.json'), JSON.stringify({ mcpServers: { leak: { command: 'node' } } }));
    symlinkSync(path.join(dir, 'outside'), path.join(ws, '.cursor'));
    symlinkSync(path.join(dir, 'nowhere.json'), path.join(ws, '.vscode', 'mcp.json'));
    for (const f of ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json']) {
      const r = await readDiscoveryFile(path.join(ws, f), ws);
      assert.deepEqual(r, { kind: 'refused', reason: 'outsideFolder' }, f);
    }
    // A link inside the folder is the folder's own file; a user file may be a link (dotfile managers).
    writeFileSync(path.join(ws, 'real.json'), '{}');
    rmSync(path.join(ws, '.mcp.json'));
    symlinkSync(path.join(ws, 'real.json'), path.join(ws, '.mcp.json'));
    assert.equal((await readDiscoveryFile(path.join(ws, '.mcp.json'), ws)).kind, 'text');
    assert.equal((await readDiscoveryFile(path.join(ws, '.cursor', 'mcp.json'))).kind, 'text');
    const snap = await readDiscovery([{ source: 'claudeCodeWorkspace', path: path.join(ws, '.cursor', 'mcp.json'), format: 'json', folder: { name: 'repo', path: ws } }], [{ name: 'repo', path: ws }]);
    assert.deepEqual(snap.servers, []);
    assert.match(JSON.stringify(snap.files[0].state), /outside its workspace folder/);
  });

  it('refuses a file over the size bound, a FIFO and a folder without blocking, and says so without quoting them', async () => {
    const big = path.join(dir, 'big.json');
    writeFileSync(big, `{"mcpServers":{"a":{"command":"x","args":["${'A'.repeat(2000)}"]}}}`);
    assert.deepEqual(await readDiscoveryFile(big, undefined, 1000), { kind: 'refused', reason: 'tooLarge' });
    assert.equal((await readDiscoveryFile(big, undefined, 5000)).kind, 'text');
    const fifo = path.join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    assert.deepEqual(await readDiscoveryFile(fifo, dir), { kind: 'refused', reason: 'notAFile' });
    mkdirSync(path.join(dir, 'folder.json'));
    assert.deepEqual(await readDiscoveryFile(path.join(dir, 'folder.json')), { kind: 'refused', reason: 'notAFile' });
    assert.deepEqual(await readDiscoveryFile(path.join(dir, 'absent.json')), { kind: 'missing' });
    writeFileSync(path.join(dir, 'bad.json'), '{"mcpServers": {"a": {"command": "SECRET-VALUE" oops');
    const snap = await readDiscovery([{ source: 'cursorUser', path: path.join(dir, 'bad.json'), format: 'json' }], []);
    assert.equal(snap.files[0].state.kind, 'error');
    assert.doesNotMatch(JSON.stringify(snap.files[0].state), /SECRET-VALUE/);
  });
});

describe('discovery: what a file declares', () => {
  it('translates other hosts\' fields and drops what would widen a server (sandbox, dev, autoApprove)', () => {
    const text = JSON.stringify({ mcpServers: {
      cline: { command: 'npx', args: ['-y', 'pkg'], env: { A: '1' }, autoApprove: ['*'], alwaysAllow: ['delete'], disabled: false, timeout: 30 },
      windsurf: { serverUrl: 'https://example.com/mcp', headers: { X: 'y' } },
      roo: { type: 'streamable-http', url: 'https://example.com/roo' },
      smuggler: { command: 'node', args: ['s.js'], sandbox: { enabled: false }, dev: { watch: '**', debug: { type: 'node' } }, roots: ['/'] },
      odd: { type: 'websocket', url: 'ws://x' },
    } });
    const r = serversOfFile({ format: 'json' }, text, []);
    assert.deepEqual(r.servers.cline, { command: 'npx', args: ['-y', 'pkg'], env: { A: '1' }, disabled: false, timeout: 30 });
    assert.deepEqual(r.servers.windsurf, { url: 'https://example.com/mcp', headers: { X: 'y' } });
    assert.deepEqual(r.servers.roo, { type: 'http', url: 'https://example.com/roo' });
    assert.deepEqual(r.servers.smuggler, { command: 'node', args: ['s.js'] });
    assert.deepEqual(r.skipped, [{ name: 'odd', reason: 'unknown type "websocket"' }]);
    assert.equal(parseServers(r.servers).problems.filter(p => p.severity === 'error').length, 0);
  });

  it('reads VS Code\'s mcp.json with comments, Claude Code\'s user file with the open projects\' servers', () => {
    const vs = serversOfFile({ format: 'json' }, '{ // mine\n "servers": { "a": { "type": "stdio", "command": "x", }, }, "inputs": [] }', []);
    assert.deepEqual(vs.servers, { a: { type: 'stdio', command: 'x' } });
    const claude = JSON.stringify({
      numStartups: 3, mcpServers: { shared: { command: 'user' }, mine: { command: 'm' } },
      projects: { '/w/a': { mcpServers: { shared: { command: 'local' } } }, '/w/other': { mcpServers: { elsewhere: { command: 'e' } } } },
    });
    const r = serversOfFile({ format: 'claudeUser' }, claude, ['/w/a']);
    assert.deepEqual(r.servers, { shared: { command: 'local' }, mine: { command: 'm' } });
    const proto = serversOfFile({ format: 'claudeUser' }, '{"mcpServers":{},"projects":{"/w/a":{"mcpServers":{"__proto__":{"command":"p"}}}}}', ['/w/a']);
    assert.deepEqual(Object.getPrototypeOf(proto.servers), Object.prototype);
    assert.deepEqual(Object.keys(proto.servers), ['__proto__']);
  });

  it('ATTACKER (atk-33): a config.toml\'s __proto__ tables and dotted keys set no property of every object', async () => {
    // Another program writes ~/.codex/config.toml. A table or dotted key named __proto__ must stay a key:
    // written through, it would give every object of the shared extension host a `command` or a `url`.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-host-codex-'));
    const file = path.join(dir, 'config.toml');
    writeFileSync(file, [
      '[mcp_servers.__proto__]', 'command = "/tmp/atk33-planted"', '',
      '[__proto__]', 'atk33Url = "https://attacker.example/mcp"', '',
      '[mcp_servers.ok]', 'command = "npx"', 'env.__proto__.atk33Env = "NODE_OPTIONS=--require=/tmp/x.js"', '',
    ].join('\n'));
    const polluted = () => ['command', 'atk33Url', 'atk33Env'].filter(k => k in Object.prototype || (({}) as Record<string, unknown>)[k] !== undefined);
    try {
      await readDiscovery([{ source: 'codex', path: file, format: 'codexToml' }], []);
      assert.deepEqual(polluted(), [], 'Object.prototype got the file\'s keys');
      for (const text of ['a.__proto__.atk33Env = "x"', '[t]\n__proto__ = { command = "x" }', '[[__proto__]]\ncommand = "x"', '["__proto__"]\ncommand = "x"']) {
        assert.throws(() => parseToml(text), /__proto__/, text);
      }
      assert.deepEqual(polluted(), []);
    } finally {
      for (const k of ['command', 'atk33Url', 'atk33Env']) delete (Object.prototype as Record<string, unknown>)[k];
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads Codex\'s config.toml servers, its environment pass-through as ${env:…}', () => {
    const toml = `
model = "o3" # a comment
[mcp_servers.docs]
command = "npx"
args = ["-y", "@upstash/context7-mcp", 'literal\\path']
env = { "API_KEY" = "k", OTHER = "o" }
env_vars = ["HOME_TOKEN"]
startup_timeout_sec = 20
tool_timeout_sec = 45.5

[mcp_servers.remote]
url = "https://example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"
http_headers = { "X-Team" = "a" }
enabled = false

[mcp_servers."with.dot".env]
A = """multi
line"""
[profiles.x]
model = "y"
`;
    const r = serversOfFile({ format: 'codexToml' }, toml, []);
    assert.deepEqual(r.servers.docs, { command: 'npx', args: ['-y', '@upstash/context7-mcp', 'literal\\path'], env: { API_KEY: 'k', OTHER: 'o', HOME_TOKEN: '${env:HOME_TOKEN}' }, timeout: 45.5 });
    assert.deepEqual(r.servers.remote, { url: 'https://example.com/mcp', headers: { 'X-Team': 'a', Authorization: 'Bearer ${env:REMOTE_TOKEN}' }, disabled: true });
    assert.deepEqual(r.skipped, []);
    assert.ok('with.dot' in r.servers);
    assert.equal(parseServers({ docs: r.servers.docs, remote: r.servers.remote }).problems.filter(p => p.severity === 'error').length, 0);
  });

  it('parses the TOML Codex writes and rejects what is not TOML, naming the line only', () => {
    assert.deepEqual(parseToml('a = 1\nb = -2_000\nc = 0x1f\nd = 1.5e3\ne = true\nf = [1, [2, 3], ]\ng = "\\u00e9\\t\\"q\\""\nh = \'\'\'x\'y\'\'\'\ni = 1979-05-27T07:32:00Z\n[t]\nk.l = "m"\n[[arr]]\nn = 1\n[[arr]]\nn = 2\n'), {
      a: 1, b: -2000, c: 31, d: 1500, e: true, f: [1, [2, 3]], g: 'é\t"q"', h: "x'y", i: '1979-05-27T07:32:00Z', t: { k: { l: 'm' } }, arr: [{ n: 1 }, { n: 2 }],
    });
    assert.deepEqual(parseToml('s = """\nfirst \\\n   second""""\n'), { s: 'first second"' });
    for (const [bad, line] of [['a = 1\nb = "open', 2], ['a = 1\na = 2', 2], ['[t]\n[t]', 2], ['x = [1 2]', 1], ['k = "TOKEN-abc" junk', 1], ['= 1', 1]] as const) {
      assert.throws(() => parseToml(bad), (e: Error) => e.message.startsWith(`line ${line}:`) && !e.message.includes('TOKEN'), bad);
    }
  });
});

import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseServers } from '../../../src/core';
import { configLocations, convertConfigText, findPropertyOffset, mergeInputs, parseJsonc, referencedInputs, type ConversionResult } from '../../../src/core/onboarding';

const FIXTURES = path.resolve(__dirname, '../../../../test/fixtures/import');
// {{port}} is the expiring fixture server's port in the integration test; any port will do here.
const read = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8').replaceAll('{{port}}', '8931');
const convert = (name: string, existingInputs?: unknown) => convertConfigText(read(name), { source: 'Test', existingInputs });
const server = (r: ConversionResult, name: string) => {
  const s = r.servers.find(x => x.name === name);
  assert.ok(s, `${name} was converted (skipped: ${JSON.stringify(r.skipped)})`);
  return s;
};
/** Every string in every converted declaration (secrets must be in none). */
const allText = (r: ConversionResult) => JSON.stringify(r.servers.map(s => s.declaration));

describe('import: Claude Desktop (claude_desktop_config.json)', () => {
  const r = convert('claude_desktop_config.json');

  it('converts the stdio servers and keeps command, args and plain env values', () => {
    assert.equal(r.format, 'mcpServers');
    assert.deepEqual(r.servers.map(s => s.name), ['everything', 'github', 'search']);
    const e = server(r, 'everything');
    assert.equal(e.type, 'stdio');
    assert.equal(e.declaration.command, '{{node}}');
    assert.deepEqual(e.declaration.args, ['{{modules}}/@modelcontextprotocol/server-everything/dist/index.js']);
    assert.equal((e.declaration.env as Record<string, string>).LOG_LEVEL, 'debug');
  });

  it('moves secret env values to inputs and returns them for the secret store', () => {
    const e = server(r, 'everything');
    assert.deepEqual(e.declaration.env, { EVERYTHING_API_KEY: '${input:everything.EVERYTHING_API_KEY}', LOG_LEVEL: 'debug' });
    assert.deepEqual(e.inputs, [{ id: 'everything.EVERYTHING_API_KEY', type: 'promptString', description: 'EVERYTHING_API_KEY for MCP server "everything" (imported from Test)', password: true }]);
    assert.deepEqual(e.secrets, [{ id: 'everything.EVERYTHING_API_KEY', value: 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345' }]);
    assert.deepEqual(e.notes, [{ kind: 'secretMoved', field: 'env.EVERYTHING_API_KEY', input: 'everything.EVERYTHING_API_KEY' }]);
    const g = server(r, 'github');
    assert.deepEqual(g.declaration.env, { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github.GITHUB_PERSONAL_ACCESS_TOKEN}' });
  });

  it('moves secrets in arguments (--api-key value, --token=value)', () => {
    const s = server(r, 'search');
    assert.deepEqual(s.declaration.args, ['-y', 'brave-search-mcp', '--api-key', '${input:search.api-key}', '--token=${input:search.token}', '--verbose']);
    assert.deepEqual(s.secrets.map(x => x.value), ['BSAabc123def456ghi789', 'tok_0123456789abcdef']);
  });

  it('never leaves a secret in a declaration', () => {
    for (const secret of ['sk-ant-api03', 'ghp_', 'BSAabc', 'tok_0123']) assert.ok(!allText(r).includes(secret), `${secret} leaked`);
  });

  it('reports what cannot be converted, with the reason', () => {
    assert.deepEqual(r.skipped.map(s => s.name), ['no-command', 'not-an-object']);
    const noCommand = r.skipped[0].reason;
    assert.equal(noCommand.kind, 'invalid');
    assert.match(noCommand.kind === 'invalid' ? noCommand.problems.join() : '', /"command"/);
    assert.deepEqual(r.skipped[1].reason, { kind: 'notAnObject' });
  });

  it('produces declarations the core accepts as they are', () => {
    const parsed = parseServers(Object.fromEntries(r.servers.map(s => [s.name, s.declaration])));
    assert.deepEqual(parsed.problems.filter(p => p.severity === 'error'), []);
    assert.equal(parsed.servers.length, 3);
  });
});

describe('import: Cursor (.cursor/mcp.json)', () => {
  const r = convert('cursor-mcp.json');

  it('converts remote servers, keeping the auth scheme and moving the token', () => {
    const remote = server(r, 'remote');
    assert.equal(remote.type, 'http');
    assert.deepEqual(remote.declaration.headers, { Authorization: 'Bearer ${input:remote.Authorization}', 'X-Client': 'cursor' });
    assert.equal(remote.declaration.url, 'https://mcp.example.com/mcp?api_key=${input:remote.api_key}&region=eu');
    assert.deepEqual(remote.secrets.map(s => s.value).sort(), ['abc123secretvalue', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijkl']);
    assert.ok(!allText(r).includes('eyJhbGci') && !allText(r).includes('abc123secret'));
  });

  it('keeps sse, renames serverUrl/transportType, keeps variables and disabled, drops autoApprove with a note', () => {
    assert.equal(server(r, 'legacy-sse').type, 'sse');
    const w = server(r, 'windsurf-style');
    assert.deepEqual(w.declaration, { type: 'http', url: 'https://example.com/mcp' });
    assert.deepEqual(w.notes, [{ kind: 'fieldRenamed', from: 'serverUrl', to: 'url' }, { kind: 'fieldRenamed', from: 'transportType', to: 'type' }]);
    const git = server(r, 'git');
    assert.deepEqual(git.declaration.env, { GIT_TOKEN: '${env:GIT_TOKEN}', HOME_DIR: '${userHome}' }, 'variables are not secrets');
    assert.equal(git.declaration.disabled, true);
    assert.deepEqual(git.secrets, []);
    assert.deepEqual(git.notes, [{ kind: 'fieldDropped', field: 'autoApprove' }]);
  });

  it('skips transports it does not speak', () => {
    assert.deepEqual(r.skipped, [{ name: 'websocket', reason: { kind: 'unknownType', type: 'websocket' } }]);
  });
});

describe('import: VS Code (.vscode/mcp.json with inputs)', () => {
  it('reads JSON with comments and trailing commas and copies the inputs a server uses', () => {
    const r = convert('vscode-mcp.json');
    assert.equal(r.format, 'servers');
    const e = server(r, 'everything');
    assert.deepEqual(e.declaration.env, { API_KEY: '${input:api-key}' });
    assert.deepEqual(e.inputs, [{ id: 'api-key', type: 'promptString', description: 'API key for the fixture servers', password: true }]);
    assert.deepEqual(e.secrets, [], 'values of VS Code inputs live in VS Code, not in the file');
    assert.deepEqual(server(r, 'expiring').inputs.map(i => i.id), ['api-key']);
    assert.deepEqual(server(r, 'leveled').inputs, [{ id: 'level', type: 'pickString', description: 'Log level', default: 'info', options: ['info', 'debug'] }]);
  });

  it('notes inputs it cannot replay or that are not defined', () => {
    const r = convert('vscode-mcp.json');
    assert.deepEqual(server(r, 'picker').notes, [{ kind: 'inputUnsupported', input: 'picked-file', type: 'command' }]);
    assert.deepEqual(server(r, 'undeclared-input').notes, [{ kind: 'inputUndefined', input: 'not-declared' }]);
    assert.deepEqual(server(r, 'dev-mode').notes, [{ kind: 'fieldDropped', field: 'dev' }]);
  });

  it('skips declarations with variables MCP Host does not know', () => {
    const r = convert('vscode-mcp.json');
    assert.deepEqual(r.skipped.map(s => s.name), ['config-variable']);
    const reason = r.skipped[0].reason;
    assert.ok(reason.kind === 'invalid' && /\$\{config:editor\.fontSize\}/.test(reason.problems.join()));
  });

  it('reuses an identical input of the settings and renames one that differs', () => {
    const same = convert('vscode-mcp.json', [{ id: 'api-key', type: 'promptString', description: 'API key for the fixture servers', password: true }]);
    assert.deepEqual(server(same, 'everything').inputs, []);
    const other = convert('vscode-mcp.json', [{ id: 'api-key', type: 'promptString', description: 'Something else' }]);
    const e = server(other, 'everything');
    assert.deepEqual(e.declaration.env, { API_KEY: '${input:api-key-2}' });
    assert.deepEqual(e.inputs.map(i => i.id), ['api-key-2']);
    assert.deepEqual(e.notes, [{ kind: 'inputRenamed', from: 'api-key', to: 'api-key-2' }]);
    assert.deepEqual(server(other, 'expiring').declaration.headers, { 'X-Api-Key': '${input:api-key-2}' }, 'one rename for every server');
  });
});

describe('import: other shapes and broken files', () => {
  it('reads VS Code settings (mcp.servers) and MCP Host settings', () => {
    const vs = convertConfigText('{ "mcp": { "servers": { "a": { "command": "node" } } } }');
    assert.equal(vs.format, 'vscodeSettings');
    assert.deepEqual(vs.servers.map(s => s.name), ['a']);
    const ours = convertConfigText('{ "mcpHost.servers": { "b": { "url": "https://x.test/mcp" } } }');
    assert.equal(ours.format, 'mcpHostSettings');
    assert.equal(ours.servers[0].type, 'http');
  });

  it('reports invalid JSON with line and column, and files without servers', () => {
    const bad = convert('not-json.json');
    assert.equal(bad.error?.kind, 'json');
    assert.match(bad.error?.kind === 'json' ? bad.error.message : '', /line 2/);
    assert.deepEqual(convertConfigText('{ "mcpServers": {} }').error, { kind: 'noServers' });
    assert.deepEqual(convertConfigText('[1, 2]').error, { kind: 'noServers' });
  });

  it('gives each secret its own input id, also across servers of one file', () => {
    const r = convertConfigText(JSON.stringify({ mcpServers: {
      a: { command: 'x', env: { TOKEN: 'one-secret-value' } },
      'a.TOKEN': { command: 'y', env: { X: 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789' } },
    } }), { existingInputs: [{ id: 'a.TOKEN', type: 'promptString' }] });
    const ids = r.servers.flatMap(s => s.inputs.map(i => i.id));
    assert.deepEqual(ids, ['a.TOKEN-2', 'a.TOKEN.X']);
    assert.equal(new Set(ids).size, ids.length);
  });
});

describe('jsonc', () => {
  it('strips comments and trailing commas but not text inside strings', () => {
    assert.deepEqual(parseJsonc('{ "a": "// not a comment", /* c */ "b": [1, 2,], // x\n }').value, { a: '// not a comment', b: [1, 2] });
    assert.deepEqual(parseJsonc('\uFEFF{"s": "a,}\\"b"}').value, { s: 'a,}"b' });
  });

  it('names the line and column of an error and never quotes the text (it may be a secret)', () => {
    for (const text of ['AWS_SECRET=wJalrXUtnFEMI/K7MDENG\nmore', '{\n  "a": SECRET_VALUE_1234 }', '{ "a": 1 }} SECRET_TAIL_5678']) {
      const { error } = parseJsonc(text);
      assert.ok(error, text);
      assert.doesNotMatch(error, /SECRET|wJalr|AWS/, error);
      assert.match(error, /\(line \d+, column \d+\)$/, error);
    }
    assert.equal(parseJsonc('{\n  "a": SECRET_VALUE_1234 }').error, 'Unexpected character (line 2, column 8)');
  });

  it('finds a server\'s own key, not its name in another server\'s args, a comment or another setting', () => {
    const text = [
      '{',
      '  // "b": the server to look at',
      '  "other.setting": { "mcpHost.servers": { "b": {} } },',
      '  "mcpHost.servers": {',
      '    "a": { "command": "x", "args": ["b", "--name=\\"b\\""], "env": { "b": "b" } },',
      '    /* "b" */ "b": { "command": "y" },',
      '  },',
      '}',
    ].join('\n');
    const at = findPropertyOffset(text, ['mcpHost.servers', 'b']);
    assert.equal(text.slice(at, at + 20), '"b": { "command": "y');
    assert.equal(findPropertyOffset(text, ['mcpHost.servers', 'c']), -1);
    // A duplicate (here spelled with an escape) is the one in effect.
    const dup = '{ "settings": { "mcpHost.servers": { "ab": 1, "a\\u0062": 2 } } }';
    assert.equal(dup.slice(findPropertyOffset(dup, ['settings', 'mcpHost.servers', 'ab'])), '"a\\u0062": 2 } } }');
  });
});

describe('inputs helpers', () => {
  it('finds referenced inputs and merges definitions by id', () => {
    assert.deepEqual([...referencedInputs({ a: ['${input:x}', { b: 'pre ${input:y} ${env:Z}' }] })], ['x', 'y']);
    assert.deepEqual(mergeInputs([{ id: 'x', type: 'promptString' }, 'junk'], [{ id: 'x', type: 'pickString', options: ['a'] }, { id: 'y', type: 'promptString', password: true }]),
      [{ id: 'x', type: 'pickString', options: ['a'] }, 'junk', { id: 'y', type: 'promptString', password: true }]);
  });
});

describe('config locations', () => {
  const folders = [{ name: 'proj', path: '/w/proj' }];
  it('lists Claude Desktop, Cursor, Claude Code and VS Code files for Linux, macOS and Windows', () => {
    const linux = configLocations({ platform: 'linux', home: '/home/u', env: {}, workspaceFolders: folders, editorUserDir: '/data/User' }).map(l => `${l.kind} ${l.path}`);
    assert.deepEqual(linux, [
      'vscodeWorkspace /w/proj/.vscode/mcp.json',
      'cursorWorkspace /w/proj/.cursor/mcp.json',
      'claudeCode /w/proj/.mcp.json',
      'claudeDesktop /home/u/.config/Claude/claude_desktop_config.json',
      'cursorUser /home/u/.cursor/mcp.json',
      'vscodeUser /data/User/mcp.json',
      'vscodeUser /home/u/.config/Code/User/mcp.json',
      'vscodeUser /home/u/.config/Code - Insiders/User/mcp.json',
    ]);
    const mac = configLocations({ platform: 'darwin', home: '/Users/u', env: {}, workspaceFolders: [] }).map(l => l.path);
    assert.ok(mac.includes('/Users/u/Library/Application Support/Claude/claude_desktop_config.json'));
    assert.ok(mac.includes('/Users/u/Library/Application Support/Code/User/mcp.json'));
    const win = configLocations({ platform: 'win32', home: 'C:\\Users\\u', env: { APPDATA: 'C:\\Users\\u\\AppData\\Roaming' }, workspaceFolders: [] }).map(l => l.path);
    assert.ok(win.includes('C:\\Users\\u\\AppData\\Roaming\\Claude\\claude_desktop_config.json'));
    assert.ok(win.includes('C:\\Users\\u\\.cursor\\mcp.json'));
  });
});

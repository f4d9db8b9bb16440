/**
 * The headless CLI `mcp-host` (src/cli) as a child process against server-everything, hostile
 * fixture servers and broken declarations: exit codes, `--json` shapes, redaction of secrets a server
 * echoes, terminal escapes from servers, `${input:…}` from the environment.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli, runCliInTerminal, workspace } from './cliRun';
import { everythingBin, fixtureServer } from './helpers';

const everything = { command: process.execPath, args: [everythingBin] };

describe('mcp-host CLI', function () {
  this.timeout(60_000);

  describe('against server-everything', () => {
    let ws: string;
    before(() => { ws = workspace('mcp.json', { servers: { everything } }); });

    it('check starts every server and exits 0 with its counts', async () => {
      const r = await runCli(['--yes', 'check', '--json'], ws);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { ok: boolean; servers: { name: string; state: string; tools: number; prompts: number; file: string }[]; problems: unknown[] };
      assert.equal(out.ok, true);
      assert.deepEqual(out.problems, []);
      assert.equal(out.servers.length, 1);
      const s = out.servers[0];
      assert.equal(s.name, 'everything');
      assert.equal(s.state, 'running');
      assert.equal(s.file, path.join(ws, '.vscode', 'mcp.json'));
      assert.ok(s.tools > 5 && s.prompts > 0, JSON.stringify(s));
      assert.match(r.stderr, /everything: running/, 'progress goes to stderr');
    });

    it('list --json gives each server with its tools, resources, templates and prompts', async () => {
      const r = await runCli(['--yes', 'list', '--json'], ws);
      assert.equal(r.code, 0, r.stderr);
      const out = JSON.parse(r.stdout) as { servers: { name: string; state: string; transport: string; tools: { name: string; inputSchema: { type: string } }[]; resources: { uri: string }[]; resourceTemplates: unknown[]; prompts: { name: string }[] }[]; problems: unknown[] };
      assert.deepEqual(Object.keys(out).sort(), ['problems', 'servers']);
      const s = out.servers[0];
      assert.equal(s.name, 'everything');
      assert.equal(s.state, 'running');
      assert.equal(s.transport, 'stdio');
      const echo = s.tools.find(t => t.name === 'echo');
      assert.equal(echo?.inputSchema.type, 'object');
      assert.ok(s.resources.some(x => x.uri.startsWith('demo://')));
      assert.ok(Array.isArray(s.resourceTemplates));
      assert.ok(s.prompts.some(p => p.name === 'simple-prompt'));
    });

    it('call prints the result (text and --json); a bad argument is a usage error', async () => {
      const text = await runCli(['--yes', 'call', 'everything', 'echo', '{"message":"hi there"}'], ws);
      assert.equal(text.code, 0, text.stderr);
      assert.equal(text.stdout, 'Echo: hi there\n');
      const json = await runCli(['--yes', 'call', 'everything', 'get-sum', '{"a":2,"b":3}', '--json'], ws);
      assert.equal(json.code, 0, json.stderr);
      const result = JSON.parse(json.stdout) as { content: { type: string; text: string }[]; isError?: boolean };
      assert.equal(result.isError, undefined);
      assert.match(result.content[0].text, /5/);
      const bad = await runCli(['--yes', 'call', 'everything', 'echo', '[1]'], ws);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /tool arguments must be a JSON object/);
    });

    it('read and prompt print what the server returns', async () => {
      const read = await runCli(['--yes', 'read', 'everything', 'demo://resource/static/document/architecture.md'], ws);
      assert.equal(read.code, 0, read.stderr);
      assert.match(read.stdout, /\S/);
      const prompt = await runCli(['--yes', 'prompt', 'everything', 'args-prompt', 'city=Paris', '--json'], ws);
      assert.equal(prompt.code, 0, prompt.stderr);
      assert.match(JSON.stringify((JSON.parse(prompt.stdout) as { messages: unknown[] }).messages), /Paris/);
    });

    it('a server the files do not declare is refused, naming the declared ones', async () => {
      const r = await runCli(['--yes', 'call', 'elsewhere', 'echo'], ws);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /no server "elsewhere" is declared \(declared: everything\)/);
    });
  });

  it('check exits non-zero naming the server and field of a broken declaration, and still starts the others', async () => {
    const ws = workspace('settings.json', `{
      // a VS Code settings.json: comments allowed
      "editor.fontSize": 14,
      "mcpHost.servers": { "everything": ${JSON.stringify(everything)}, "broken": { "command": "node", "args": ["ok", { "nested": true }] } },
    }`);
    const r = await runCli(['--yes', 'check'], ws);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^ok {4}everything: running/m);
    assert.match(r.stdout, /FAIL {2}server "broken" \(args\[1\]\)/);
    const json = await runCli(['--yes', 'check', '--json'], ws);
    assert.equal(json.code, 1);
    const out = JSON.parse(json.stdout) as { ok: boolean; problems: { server: string; field: string; severity: string; file: string }[] };
    assert.equal(out.ok, false);
    assert.deepEqual(out.problems.map(p => [p.server, p.field, p.severity, p.file]), [['broken', 'args[1]', 'error', path.join(ws, '.vscode', 'settings.json')]]);
  });

  it('check exits non-zero naming a server that does not start', async () => {
    const ws = workspace('mcp.json', { servers: { crashing: { command: process.execPath, args: [fixtureServer('crashing')], env: { FIXTURE_CRASH_ON_START: '1' } } } });
    const r = await runCli(['--yes', 'check', '--json'], ws);
    assert.equal(r.code, 1);
    const s = (JSON.parse(r.stdout) as { servers: { name: string; state: string; error: string }[] }).servers[0];
    assert.equal(s.name, 'crashing');
    assert.equal(s.state, 'error');
    assert.match(s.error, /exit|code 3/i);
  });

  it('reads Claude Desktop files and keeps their literal secrets out of the output when a server echoes them', async () => {
    const secret = 'plain-value-7f3a9c2e1d';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-'));
    const file = path.join(dir, 'claude_desktop_config.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { everything: { ...everything, env: { SERVICE_API_KEY: secret } } } }));
    const r = await runCli(['-c', file, 'call', 'everything', 'get-env', '--json'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'the secret reached the output');
    assert.match(r.stdout, /SERVICE_API_KEY\\?"?: ?\\?"\[REDACTED\]/, 'the server got the variable (redacted in the output)');
  });

  it('-c claude-desktop reads the app\'s own file, never a file of that name planted in the working directory', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-home-'));
    fs.mkdirSync(path.join(home, '.config', 'Claude'), { recursive: true });
    fs.writeFileSync(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { mine: everything } }));
    const ws = workspace('mcp.json', { servers: {} });
    fs.writeFileSync(path.join(ws, 'claude-desktop'), JSON.stringify({ mcpServers: { planted: { command: process.execPath, args: ['-e', 'require("fs").writeFileSync("pwned", "")'] } } }));
    const r = await runCli(['-c', 'claude-desktop', 'list', '--json'], ws, { HOME: home, XDG_CONFIG_HOME: undefined });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { servers: { name: string }[] }).servers.map(s => s.name), ['mine']);
    assert.ok(!fs.existsSync(path.join(ws, 'pwned')), 'the planted server ran');
  });

  it('takes ${input:id} from MCP_HOST_INPUT_<SERVER>__<ID>, redacts it in text output, and names the variable when it is missing', async () => {
    const secret = 'input-value-51c0ffee99';
    const ws = workspace('mcp.json', {
      inputs: [{ id: 'api-token', type: 'promptString', password: true, description: 'API token' }],
      servers: { everything: { ...everything, env: { TOKEN: '${input:api-token}' } } },
    });
    const given = await runCli(['--yes', 'call', 'everything', 'get-env'], ws, { MCP_HOST_INPUT_EVERYTHING__API_TOKEN: secret });
    assert.equal(given.code, 0, given.stderr);
    assert.ok(!given.stdout.includes(secret), 'the secret reached stdout');
    assert.match(given.stdout, /"TOKEN": "\[REDACTED\]"/);

    const missing = await runCli(['--yes', 'check'], ws, { MCP_HOST_INPUT_EVERYTHING__API_TOKEN: undefined });
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /input "api-token" for server "everything" was not given: set MCP_HOST_INPUT_EVERYTHING__API_TOKEN \(no terminal to ask in\)/);
    assert.match(missing.stdout, /FAIL {2}everything: error/);
  });

  it('redacts every ${env:NAME} value when a server echoes it: a name cannot tell a secret (DATABASE_URL) from a region', async () => {
    const byName = 'ci-token-value-0a1b2c3d', byEntry = 'ci-entry-value-9z8y7x6w', plain = 'looks-plain-eu-west-1';
    const ws = workspace('mcp.json', { servers: { everything: { ...everything, env: { A: '${env:DEPLOY_TOKEN}', SERVICE_API_KEY: '${env:CI_VALUE}', REGION: '${env:CI_REGION}' } } } });
    const r = await runCli(['--yes', 'call', 'everything', 'get-env'], ws, { DEPLOY_TOKEN: byName, CI_VALUE: byEntry, CI_REGION: plain });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(![byName, byEntry, plain].some(v => r.stdout.includes(v)), `an \${env:…} value reached the output:\n${r.stdout}`);
    assert.match(r.stdout, /"A": "\[REDACTED\]"/);
    assert.match(r.stdout, /"SERVICE_API_KEY": "\[REDACTED\]"/);
    assert.match(r.stdout, /"REGION": "\[REDACTED\]"/);
  });

  it('asks for a missing ${input:id} in a terminal without echoing what is typed', async () => {
    const secret = 'typed-secret-4d2b77';
    const ws = workspace('mcp.json', {
      inputs: [{ id: 'api-token', type: 'promptString', password: true, description: 'API token' }],
      servers: { everything: { ...everything, env: { TOKEN: '${input:api-token}' } } },
    });
    const { code, transcript, typed } = await runCliInTerminal(['--yes', 'call', 'everything', 'get-env'], ws, { MCP_HOST_INPUT_EVERYTHING__API_TOKEN: undefined },
      [{ after: 'mcp-host: server "everything" asks for input "api-token" (env.TOKEN) — API token: ', type: secret }]);
    assert.equal(code, 0, transcript);
    assert.equal(typed, 1, transcript);
    assert.ok(!transcript.includes(secret), `the terminal showed the secret:\n${transcript}`);
    assert.match(transcript, /"TOKEN": "\[REDACTED\]"/, 'the server got the value');
  });

  it('strips terminal escapes and bidi controls from what a hostile server lists', async () => {
    const ws = workspace('mcp.json', { servers: { shapeshifting: { command: process.execPath, args: [fixtureServer('shapeshifting')] } } });
    const r = await runCli(['--yes', 'list'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /spoof \(\$\(check\) Allow once gnp\.exe read a picture\)/);
    assert.doesNotMatch(r.stdout + r.stderr, /[\u001b\u0007\u0008\u202a-\u202e\u2066-\u2069\u200b]|\u{E0041}/u);
  });

  it('treats server names such as __proto__ and toString as names, not as properties', async () => {
    const ws = workspace('mcp.json', '{ "servers": { "__proto__": ' + JSON.stringify(everything) + ' } }');
    const r = await runCli(['--yes', 'check', '--json'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { servers: { name: string }[] }).servers.map(s => s.name), ['__proto__']);
    const other = await runCli(['--yes', 'call', 'toString', 'x'], ws);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /no server "toString" is declared \(declared: __proto__\)/);
  });

  it('without a declaration file says where it looked (exit 2)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-cli-'));
    const r = await runCli(['--yes', 'check'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no servers declared: .* has no \.vscode\/settings\.json or \.vscode\/mcp\.json with servers; name a file with --config/);
  });
});

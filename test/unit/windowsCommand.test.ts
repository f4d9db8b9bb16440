// How a stdio server starts on Windows (src/core/connection/windowsCommand.ts), checked on any platform:
// the command is found on PATH and never in the server's working directory (a cloned repository plants
// `npx.cmd` there), and hostile arguments reach the server unchanged without cmd.exe running anything else.
import * as assert from 'node:assert/strict';
import { batchCommandLine, planWindowsSpawn, resolveWindowsCommand, windowsSystemProgram, type WindowsSpawnContext } from '../../src/core/connection/windowsCommand';
import { expandPercent, firstToken, parseOperators, splitArgv } from './windowsCommandLine';

const NODE_DIR = 'C:\\Program Files\\nodejs';
const REPO = 'C:\\Users\\me\\src\\cloned-repo';
const HOST_ENV = { SystemRoot: 'C:\\Windows', ComSpec: 'C:\\Windows\\system32\\cmd.exe', PATHEXT: '.COM;.EXE;.BAT;.CMD;.VBS;.JS' };
const VARS = { PATH: 'C:\\Windows', USERPROFILE: 'C:\\Users\\me', CD: REPO, SECRET: 'ghp_token', A: 'expanded' };

function context(files: string[], env: Record<string, string> = { Path: `${NODE_DIR};C:\\Windows\\system32` }, cwd = REPO): WindowsSpawnContext {
  const set = new Set(files.map(f => f.toLowerCase()));
  return { env, hostEnv: HOST_ENV, cwd, isFile: f => set.has(f.toLowerCase()) };
}

const HOSTILE = [
  'a&calc', '&calc', '|', 'a|calc', 'a||calc', '<in', '>out', 'a>C:\\Windows\\x', '(x)', '%PATH%', '%SECRET%', '50%', '%', '%%', '%A%%A%',
  '%cd:~,%', '"', 'a"b', 'a"&calc', '"&calc&"', '\\"&calc', '\\\\"&calc', 'C:\\dir\\', 'C:\\dir\\\\', '\\', '^', 'a^&calc', '^"&calc',
  '!PATH!', 'with space', 'tab\there', '', '--flag=value', 'a,b;c', "'single'", 'ünïcødé', '-y', '@scope/pkg@1.2.3',
];

/** Runs the planned cmd.exe line through the model of cmd.exe, then a shim's `%*`, then the C runtime. */
function throughCmd(script: string, args: string[]): { script: string; argv: string[]; operators: string[] } {
  const plan = planWindowsSpawn(script, args, context([script]));
  assert.equal(plan.file, 'C:\\Windows\\system32\\cmd.exe');
  assert.equal(plan.windowsVerbatimArguments, true);
  assert.deepEqual(plan.args.slice(0, 5), ['/e:ON', '/v:OFF', '/d', '/s', '/c']);
  const quoted = plan.args.slice(5).join(' ');
  assert.ok(quoted.startsWith('"') && quoted.endsWith('"'), quoted);
  // /s: cmd strips the first and the last quote, expands %…%, then parses operators.
  const outer = parseOperators(expandPercent(quoted.slice(1, -1), VARS));
  const { token, rest } = firstToken(outer.text);
  // npx.cmd ends in `"%NODE_EXE%" "%NPX_CLI_JS%" %*`: the arguments' text is parsed by cmd.exe once more.
  const shim = parseOperators(rest);
  assert.equal(outer.openQuote || shim.openQuote, false, 'quotes are balanced');
  return { script: splitArgv(token)[0], argv: splitArgv(shim.text), operators: [...outer.operators, ...shim.operators] };
}

describe('Windows command lines (pure, any platform)', () => {
  describe('finding the command', () => {
    it('takes npx from PATH, never the npx.cmd/npx.exe planted in the working directory', () => {
      const ctx = context([`${REPO}\\npx.cmd`, `${REPO}\\npx.exe`, `${REPO}\\npx`, `${NODE_DIR}\\npx.cmd`]);
      assert.equal(resolveWindowsCommand('npx', ctx), `${NODE_DIR}\\npx.cmd`);
    });

    it('does not start a command that exists only in the working directory', () => {
      const ctx = context([`${REPO}\\uvx.exe`, `${REPO}\\python.bat`]);
      assert.throws(() => resolveWindowsCommand('uvx', ctx), /command not found on PATH.*never runs a program from the working directory/);
      assert.throws(() => resolveWindowsCommand('python', ctx), /command not found on PATH/);
    });

    it('skips relative PATH entries (".", "node_modules\\.bin", root-relative), which would resolve against the working directory', () => {
      const env = { PATH: `.;node_modules\\.bin;;\\tools;"${NODE_DIR}"` };
      const ctx = context([`${REPO}\\node.exe`, `${REPO}\\node_modules\\.bin\\node.cmd`, 'C:\\tools\\node.exe', `${NODE_DIR}\\node.exe`], env);
      assert.equal(resolveWindowsCommand('node', ctx), `${NODE_DIR}\\node.exe`);
    });

    it('follows PATH order and PATHEXT order; reads Path and PATHEXT case-insensitively', () => {
      const ctx = context(['C:\\a\\tool.cmd', 'C:\\b\\tool.exe', 'C:\\a\\tool.bat'], { path: 'C:\\a;C:\\b', pathext: '.EXE;.BAT;.CMD' });
      assert.equal(resolveWindowsCommand('tool', ctx), 'C:\\a\\tool.bat');
      assert.equal(resolveWindowsCommand('tool.cmd', ctx), 'C:\\a\\tool.cmd');
    });

    it('takes an absolute path as given, spaces included, and a relative path against the working directory', () => {
      const exe = 'C:\\Program Files\\My Server\\server.exe';
      const ctx = context([exe, `${REPO}\\bin\\server.cmd`]);
      assert.equal(resolveWindowsCommand(exe, ctx), exe);
      assert.equal(resolveWindowsCommand('C:\\Program Files\\My Server\\server', ctx), exe);
      assert.equal(resolveWindowsCommand('bin\\server', ctx), `${REPO}\\bin\\server.cmd`);
    });

    it('starts cmd.exe and taskkill.exe by absolute path', () => {
      assert.equal(windowsSystemProgram('cmd.exe', { ComSpec: 'cmd.exe', SystemRoot: 'D:\\Win' }), 'D:\\Win\\System32\\cmd.exe');
      assert.equal(windowsSystemProgram('cmd.exe', { COMSPEC: 'C:\\Windows\\system32\\cmd.exe' }), 'C:\\Windows\\system32\\cmd.exe');
      assert.equal(windowsSystemProgram('taskkill.exe', {}), 'C:\\Windows\\System32\\taskkill.exe');
    });
  });

  describe('programs (.exe)', () => {
    it('are started directly with the arguments untouched (no shell), a path with spaces included', () => {
      const exe = 'C:\\Program Files\\My Server\\server.exe';
      const plan = planWindowsSpawn(exe, HOSTILE, context([exe]));
      assert.deepEqual(plan, { file: exe, args: HOSTILE, windowsVerbatimArguments: false });
    });
  });

  describe('batch files (.cmd/.bat, e.g. npx)', () => {
    it('run nothing but the batch file, whatever the arguments', () => {
      for (const arg of HOSTILE) {
        const r = throughCmd(`${NODE_DIR}\\npx.cmd`, ['-y', arg]);
        assert.deepEqual(r.operators, [], `operators outside quotes for ${JSON.stringify(arg)}`);
      }
    });

    it('hand every argument to the program unchanged (no %VAR% expansion, quotes and backslashes kept)', () => {
      const r = throughCmd(`${NODE_DIR}\\npx.cmd`, HOSTILE);
      assert.equal(r.script, `${NODE_DIR}\\npx.cmd`);
      assert.deepEqual(r.argv, HOSTILE);
    });

    it('work from a folder whose name holds cmd.exe metacharacters or a percent sign', () => {
      for (const dir of ['C:\\Program Files (x86)\\a&b', 'C:\\100%\\%PATH%', 'C:\\x^y!z']) {
        const r = throughCmd(`${dir}\\server.bat`, ['%SECRET%', 'a"&calc']);
        assert.deepEqual(r, { script: `${dir}\\server.bat`, argv: ['%SECRET%', 'a"&calc'], operators: [] });
      }
    });

    it('leave plain words unquoted (a batch file comparing %1 still matches)', () => {
      assert.equal(batchCommandLine('C:\\s.cmd', ['-y', '@modelcontextprotocol/server-everything', 'C:\\dir']), '"C:\\s.cmd" -y @modelcontextprotocol/server-everything C:\\dir');
      assert.equal(batchCommandLine('C:\\s.cmd', ['a b', '', 'x=1']), '"C:\\s.cmd" "a b" "" "x=1"');
    });

    it('refuse an argument with a line break (cmd.exe would run the rest as a command)', () => {
      for (const arg of ['a\r\ncalc', 'a\ncalc', 'a\rcalc']) {
        assert.throws(() => planWindowsSpawn('npx', [arg], context([`${NODE_DIR}\\npx.cmd`])), /line break/);
      }
    });
  });

  it('refuses files Windows cannot start (a .js found through PATHEXT)', () => {
    assert.throws(() => planWindowsSpawn('server', [], context([`${NODE_DIR}\\server.js`])), /not a program Windows can start/);
  });
});

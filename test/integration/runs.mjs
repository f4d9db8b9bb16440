// Integration runs: each entry starts its own fresh code-server + browser (~12 s) and runs the test
// files under test/integration/<dir> (recursively, minus the dirs of the other runs). Use a separate
// run only for what cannot change while VS Code is running: Workspace Trust, the opened folder,
// environment variables of the extension host, settings that must be present at startup.
// Everything else belongs in the default run (change settings at run time with helpers.setSetting).
//
// Fields (all optional except name):
//   name            label in the output and artifact prefix (.test-artifacts/<name>-workbench.png)
//   dir             folder under test/integration holding this run's tests ('' = the top level)
//   workspace       fixture folder (relative to the repo root) copied to a temp dir and opened;
//                   default test/fixtures/workspace; null opens no folder
//   settings        user settings (merged over BASE_SETTINGS in test/rig/runIntegration.mjs)
//   env             extra environment variables of the code-server process (the extension host inherits them)
//   workspaceTrust  true: Workspace Trust enabled (the copied folder opens in Restricted Mode)
//   timeoutMs       whole-run timeout (default 900 s: a guard against a hung workbench, not a speed check; a loaded 2-core machine needs ~3x the idle time)
//   installVsix     true: MCP Host is packaged (production .vsix) and installed instead of being the development extension
//   ui              folder of a Playwright UI suite (test/rig/runUi.mjs) run against this run's workbench
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Written by the restricted run's extension-host test once it has checked the untrusted state; the UI suite then grants trust. */
export const TRUST_SIGNAL = path.join(os.tmpdir(), `mcp-host-trust-signal-${process.pid}`);

/** Folder where the 'workbench' and 'reload' runs' extension-host tests and their Playwright suites hand steps to each other (test/integration/workbench/bridge.ts, test/ui-workbench/bridge.mjs). */
export const UI_BRIDGE_DIR = path.join(os.tmpdir(), `mcp-host-ui-bridge-${process.pid}`);

/**
 * The 'policy' run's administrator file, named by MCP_HOST_POLICY_FILE for its code-server (the way an
 * administrator adds a policy file; VS Code's own /etc/vscode/policy.json is read the same way). Written
 * here so it exists before VS Code starts: the early start must obey it too. The test rewrites it later.
 */
export const POLICY_FILE = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-policy-run-')), 'policy.json');
fs.writeFileSync(POLICY_FILE, JSON.stringify({ McpHostDeny: ['package:mcp-host-planted-fixture', 'name:blocked*', 'url:https://denied.example/*'] }));

/** @type {import('../rig/runIntegration.mjs').RunDefinition[]} */
export const runs = [
  { name: 'integration', dir: '' },
  // Flows a person drives in the workbench (confirmations, forms, approvals): the extension-host test
  // starts the flow and waits; the Playwright suite (test/ui-workbench) clicks and types, step by step.
  { name: 'workbench', dir: 'workbench', ui: 'test/ui-workbench', env: { MCP_HOST_UI_BRIDGE: UI_BRIDGE_DIR }, timeoutMs: 420_000 },
  // A window reload (Playwright reloads the page): the workbench starts a new extension host, which runs the
  // test entry again; test/integration/reload registers the checks of the second load (an OAuth sign-in
  // that must survive the reload through SecretStorage). The same hand-over folder as 'workbench'.
  // The default `mcpHost.autostart` (onDemand), which BASE_SETTINGS sets to `always` for the other runs: the catalogue cache survives the reload.
  { name: 'reload', dir: 'reload', ui: 'test/ui-reload', env: { MCP_HOST_UI_BRIDGE: UI_BRIDGE_DIR }, fixtureExtensions: [], timeoutMs: 420_000, settings: { 'mcpHost.autostart': 'onDemand' } },
  // Roots follow added/removed folders: a multi-root workspace, so adding a folder does not "enter a new workspace".
  { name: 'multiroot', dir: 'multiroot', workspace: 'test/fixtures/multiroot', workspaceFile: 'multi.code-workspace' },
  // dev.debug "python" attached in VS Code: the Python Debugger cannot be installed offline, so a stand-in under its
  // id (what that extension does for an attach with `connect`) makes VS Code speak DAP to the real debugpy.
  { name: 'python-debug', dir: 'python-debug', fixtureExtensions: [path.join(REPO, 'test/fixtures/lm-extension'), path.join(REPO, 'test/fixtures/python-debugger-standin')] },
  // Workspace Trust: workspace-declared servers stay stopped in Restricted Mode; user servers run in the
  // home folder (the workspace plants code for `npx`/`python -m` there) or wait for trust if they refer to it.
  {
    name: 'restricted', dir: 'restricted', workspace: 'test/fixtures/untrusted', workspaceTrust: true, ui: 'test/ui-trust',
    env: { MCP_HOST_TEST_NODE: process.execPath, MCP_HOST_TEST_REPO: REPO, MCP_HOST_TRUST_SIGNAL: TRUST_SIGNAL },
    settings: {
      'mcpHost.servers': {
        fromUser: { command: process.execPath, args: [`${REPO}/out/test/fixtures/servers/crashing.js`] },
        // The README's way; the workspace plants node_modules/mcp-host-planted-fixture and mcp_host_planted.py.
        plantedNpx: { command: 'npx', args: ['-y', 'mcp-host-planted-fixture'] },
        plantedPython: { command: 'python3', args: ['-m', 'mcp_host_planted'] },
        fromFolder: { command: process.execPath, args: [`${REPO}/out/test/fixtures/servers/crashing.js`], cwd: '${workspaceFolder}' },
        // The user's choices the fixture workspace tries to lift (test/integration/workspaceSettingsChecks.ts GUARDED_SERVERS, USER_CHOICES).
        guarded: { command: process.execPath, args: [`${REPO}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`] },
        excluded: { command: process.execPath, args: [`${REPO}/out/test/fixtures/servers/recording.js`] },
        pushy: { command: process.execPath, args: [`${REPO}/out/test/fixtures/servers/pushyApp.js`] },
      },
      'mcpHost.tools.disabled': ['guarded/echo'],
      'mcpHost.chat.excludedServers': ['excluded'],
      'mcpHost.chat.maxTools': 20,
      'mcpHost.toolSets': { safe: ['guarded/get-sum'] },
      'mcpHost.inputs': [{ id: 'token', type: 'promptString', description: 'Your token', password: true }],
      // The workspace's .mcp.json is followed (test/integration/restricted/discovery.test.ts); its .cursor/mcp.json is not.
      'mcpHost.discovery': { claudeCodeWorkspace: true },
      // The fixture workspace sets other values for these; Restricted Mode must ignore them.
      'mcpHost.autoRestart.maxRestarts': 0,
      'mcpHost.prompts.openIn': 'editor',
    },
  },
  // The product as users get it: MCP Host installed from its production .vsix (not the development
  // extension), two reference servers in user settings; the UI suite (test/ui, Playwright) drives its workbench.
  {
    name: 'installed', dir: 'installed', installVsix: true, ui: 'test/ui', fixtureExtensions: [],
    settings: {
      'workbench.secondarySideBar.defaultVisibility': 'hidden', // the README screenshot: no Chat view, dark theme
      'workbench.colorTheme': 'Default Dark Modern',
      'mcpHost.servers': {
        everything: { command: process.execPath, args: [new URL('../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url).pathname] },
        files: { command: process.execPath, args: [new URL('../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', import.meta.url).pathname, '${workspaceFolder}'] },
      },
    },
  },
  // Simplified Chinese: VS Code switches its display language only to an installed language pack, and
  // offline there is none from the Marketplace, so a minimal fixture pack is installed (test/fixtures/
  // zh-cn-language-pack) and code-server starts with --locale zh-cn; MCP Host's package.nls.zh-cn.json and
  // l10n/bundle.l10n.zh-cn.json then apply. The UI suite (test/ui-zh-cn) checks the view and the palette.
  {
    name: 'zh-cn', dir: 'zh-cn', locale: 'zh-cn', ui: 'test/ui-zh-cn',
    fixtureExtensions: [path.join(REPO, 'test/fixtures/zh-cn-language-pack')],
    settings: {
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'workbench.colorTheme': 'Default Dark Modern',
      'mcpHost.servers': {
        everything: { command: process.execPath, args: [`${REPO}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`] },
        paused: { command: process.execPath, args: ['server.js'], disabled: true },
      },
    },
  },
  // Popular servers from npm as their users run them (issue 30): Playwright MCP with Debian's Chromium from
  // @mcp, the cyanheads Git server from agent mode, the system-monitor MCP App, whose painting the UI suite
  // (test/ui-popular) checks inside the webview. The same hand-over folder as 'workbench'. Another extension
  // (test/fixtures/api-first-call) activates MCP Host at startup and lists the servers declared here at once.
  {
    name: 'popular', dir: 'popular', ui: 'test/ui-popular', env: { MCP_HOST_UI_BRIDGE: UI_BRIDGE_DIR }, timeoutMs: 420_000,
    fixtureExtensions: [path.join(REPO, 'test/fixtures/lm-extension'), path.join(REPO, 'test/fixtures/api-first-call')],
    settings: {
      'mcpHost.servers': {
        everything: { command: process.execPath, args: [`${REPO}/node_modules/@modelcontextprotocol/server-everything/dist/index.js`] },
        paused: { command: process.execPath, args: ['server.js'], disabled: true },
        remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
      },
    },
  },
  // An administrator's policy (issue 32): a policy file present before VS Code starts; the user and the workspace
  // try to lift it, every way a server can come in is tried, and the file changes while VS Code runs.
  {
    name: 'policy', dir: 'policy', env: { MCP_HOST_POLICY_FILE: POLICY_FILE },
    settings: {
      'mcpHost.servers': {
        plantedNpx: { command: 'npx', args: ['-y', 'mcp-host-planted-fixture'] },
        blockedEarly: { command: process.execPath, args: [`${REPO}/out/test/fixtures/servers/crashing.js`], env: { FIXTURE_START_LOG: `${POLICY_FILE}.blockedEarly.starts` } },
        control: { command: process.execPath, args: [`${REPO}/out/test/fixtures/servers/crashing.js`], env: { FIXTURE_START_LOG: `${POLICY_FILE}.control.starts` } },
        deniedRemote: { type: 'http', url: 'https://user:pw@DENIED.example./mcp' },
      },
    },
  },
  // Example: { name: 'restricted', dir: 'restricted', workspaceTrust: true, settings: { 'mcpHost.x': 1 }, env: { FOO: 'bar' } },
];

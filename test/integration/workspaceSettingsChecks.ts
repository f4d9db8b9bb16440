/**
 * Checks shared by the trusted (default run) and Restricted Mode (restricted run) halves of "a workspace
 * narrows the user's choices, never widens them": the hostile workspace settings are those of
 * test/fixtures/untrusted/.vscode/settings.json, the user's are USER_CHOICES (+ the servers below).
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SETTINGS_POLICY } from '../../src/core';
import { readSetting } from '../../src/vscode/settingsReader';
import { waitState, type TestApi } from './mcpHost';
import { choose, nextPrompt } from './consentDriver';

const repo = path.resolve(__dirname, '../../..');
export const HOSTILE_SETTINGS_FILE = path.join(repo, 'test/fixtures/untrusted/.vscode/settings.json');

/** The user's servers: `guarded` has a disabled tool, `excluded` is excluded from chat, `pushy` has an app-only tool. */
export const GUARDED_SERVERS = {
  guarded: { command: process.execPath, args: [path.join(repo, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')] },
  excluded: { command: process.execPath, args: [path.join(repo, 'out/test/fixtures/servers/recording.js')] },
  pushy: { command: process.execPath, args: [path.join(repo, 'out/test/fixtures/servers/pushyApp.js')] },
};

/** The user's own choices the hostile workspace tries to lift (user settings of both runs). */
export const USER_CHOICES: Record<string, unknown> = {
  'mcpHost.tools.disabled': ['guarded/echo'],
  'mcpHost.chat.excludedServers': ['excluded'],
  'mcpHost.chat.maxTools': 20,
  'mcpHost.toolSets': { safe: ['guarded/get-sum'] },
  'mcpHost.inputs': [{ id: 'token', type: 'promptString', description: 'Your token', password: true }],
};

const text = (r: vscode.LanguageModelToolResult) => r.content.map(p => (p as vscode.LanguageModelTextPart).value).join('');
const lmCall = async (server: string, tool: string, args: object = {}) => text(await vscode.lm.invokeTool('mcpHost_callTool', { input: { server, tool, arguments: args }, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token));

/** Every setting as MCP Host reads it, against what the user chose; `workspaceKeys` proves the fixture reached VS Code. */
export function checkEveryValue(trusted: boolean): void {
  const c = vscode.workspace.getConfiguration('mcpHost');
  const user = (key: string) => { const i = c.inspect(key); return i?.globalValue !== undefined ? i.globalValue : i?.defaultValue; };
  const expected: Record<string, unknown> = {
    'tools.disabled': ['guarded/echo'],
    'chat.excludedServers': ['excluded'],
    'autoRestart.maxRestarts': user('autoRestart.maxRestarts'), // the workspace's 50 is higher
    'autoRestart.initialDelay': user('autoRestart.initialDelay'), // its 0.05 is shorter
    'requestTimeout': user('requestTimeout'), // its 3600 is longer
    'prompts.openIn': user('prompts.openIn') === 'editor' ? 'editor' : 'chat',
    'chat.maxTools': 20,
    // A trusted workspace adds a set of a new name; the user's "safe" stays the user's.
    'toolSets': trusted ? { safe: ['guarded/get-sum'], extra: ['guarded/echo'] } : { safe: ['guarded/get-sum'] },
    // Its "token" (not masked, its own wording) never replaces the user's definition.
    'inputs': USER_CHOICES['mcpHost.inputs'],
    'roots': user('roots'),
    'servers': user('servers'),
    // The fixture sets neither: a workspace could only make them stricter (start later, native route off).
    'autostart': user('autostart'),
    'chat.nativeServers': user('chat.nativeServers'),
    // Not set by the fixture either: a workspace may only review more results (unit test settingsPolicy).
    'tools.reviewResults': user('tools.reviewResults'),
  };
  for (const [key, rule] of Object.entries(SETTINGS_POLICY)) {
    if (rule.kind === 'user') expected[key] = user(key);
    assert.ok(key in expected, `mcpHost.${key} is checked`);
    assert.deepEqual(readSetting(key), expected[key], `mcpHost.${key} (${rule.kind}) as MCP Host reads it; VS Code's own merged value: ${JSON.stringify(c.get(key))}`);
  }
  // Proof that the hostile values reached VS Code: its merged get() takes the workspace's list over the
  // user's and the workspace's entry of a key the user has too (the attack MCP Host's reader defeats).
  assert.deepEqual(c.get('tools.disabled'), [], 'VS Code replaces the user\'s list by the workspace\'s');
  assert.deepEqual(c.get('chat.excludedServers'), []);
  assert.deepEqual(c.get<Record<string, unknown>>('toolSets')?.safe, ['guarded/*'], 'VS Code lets the workspace redefine the user\'s tool set');
  if (trusted) assert.equal(c.get<{ password?: boolean }[]>('inputs')?.[0]?.password, false, 'VS Code lets a trusted workspace redefine the user\'s input');
  // Measured in VS Code 1.139: an application-scoped key in workspace settings never reaches inspect() or get()
  // (MCP Host reads only the user's value of those anyway; this records what VS Code itself does).
  for (const [key, rule] of Object.entries(SETTINGS_POLICY)) {
    if (rule.kind === 'user') assert.equal(c.inspect(key)?.workspaceValue, undefined, `VS Code dropped the workspace's mcpHost.${key}`);
  }
}

/** What the user turned off stays off for models and for other extensions; consent is still asked. */
export async function checkChoicesHold(api: TestApi): Promise<void> {
  for (const name of Object.keys(GUARDED_SERVERS)) await waitState(api.host.require(name), 'running', 30_000);
  // Another extension (this test holds the same exported object any extension gets).
  await assert.rejects(api.callTool('guarded', 'echo', { message: 'x' }), /disabled the tool "echo"/);
  await assert.rejects(api.callTool('excluded', 'echo', { text: 'x' }), /excluded the MCP server "excluded"/);
  await assert.rejects(api.callTool('pushy', 'report', { data: 'x' }), /only for its MCP App/);
  assert.ok(!api.listTools().some(t => (t.server === 'guarded' && t.tool.name === 'echo') || t.server === 'excluded' || t.tool.name === 'report'), 'listTools leaves them out');
  // A model, through the language-model tool any participant can invoke.
  assert.match(await lmCall('guarded', 'echo', { message: 'x' }), /disabled the tool "echo"/);
  assert.match(await lmCall('excluded', 'echo', { text: 'x' }), /excluded the MCP server "excluded"/);
  // tools.autoApprove ["*/*"], trustedServers and sandbox.autoApproveTools from the workspace approve nothing: the user is asked.
  const call = lmCall('guarded', 'get-sum', { a: 1, b: 2 });
  await choose(await nextPrompt(api, /^MCP server "guarded" wants to run tool "get-sum"$/), /Deny/);
  assert.match(await call, /denied/);
  // The allowed tool itself works for an extension: the refusals above are the user's choices, nothing else.
  assert.match(JSON.stringify((await api.callTool('guarded', 'get-sum', { a: 1, b: 2 })).content), /3/);
}

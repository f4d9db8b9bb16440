/**
 * A chat turn over many cached, stopped servers starts only the servers whose tools the model calls
 * (issue 33: "a chat turn over 20 cached servers with 2 used: processes started = 2"). The servers fill
 * the catalogue cache once, are removed and declared again (as after a reload: the host finds their
 * entries on disk and lets them wait), and @mcp offers all of their cached tools to the scripted model,
 * which calls two of them. The processes are counted from `ps` by a marker in their arguments.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { scriptedLm, setSetting, waitFor } from './helpers';
import { ask, pickScriptedModel, requestsAtLeast, toolResultText } from './chatDriver';
import { declareServers, fixture, nodeServer } from './mcpHost';

const COUNT = 20;
const USED = ['od3', 'od17'];
const MARKER = `--on-demand-chat-${process.pid}`;

/** The names of the declared servers whose process runs now (each carries `<MARKER>=<name>`). */
function running(): string[] {
  const out = execFileSync('ps', ['-ww', '-eo', 'args='], { encoding: 'utf8' });
  return out.split('\n').filter(l => l.includes(`${MARKER}=`) && !l.includes('ps -ww')).map(l => l.slice(l.indexOf(`${MARKER}=`) + MARKER.length + 1).split(/\s/)[0]).sort();
}

describe('autostart onDemand: a chat turn starts only what it uses', function () {
  this.timeout(240_000);
  const servers = Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [`od${i}`, nodeServer(fixture('crashing'), `${MARKER}=od${i}`)]));

  // The run's own value (BASE_SETTINGS: `always`), put back afterwards: removing it would leave the
  // default (`onDemand`) for every later test of the run.
  let runValue: unknown;
  before(async () => {
    runValue = vscode.workspace.getConfiguration('mcpHost').inspect('autostart')?.globalValue;
    await setSetting('mcpHost.autostart', 'onDemand');
    await pickScriptedModel();
  });
  after(async () => {
    await setSetting('mcpHost.tools.autoApprove', undefined);
    await declareServers(undefined);
    await setSetting('mcpHost.autostart', runValue);
  });

  it('a chat turn over 20 cached servers that calls tools of 2 starts 2 processes', async () => {
    // Nothing cached yet: each starts once to fill its cache.
    const a = await declareServers(servers);
    for (const name of Object.keys(servers)) await waitFor(() => a.host.cachedCatalog(name), 60_000, `${name}'s catalogue in the cache`);
    await declareServers(undefined);
    await waitFor(() => running().length === 0, 30_000, 'the removed servers to stop');

    await declareServers(servers);
    for (const name of Object.keys(servers)) await waitFor(() => a.host.get(name)?.dormant, 30_000, `${name} to wait for its first use`);
    assert.deepEqual(running(), [], 'cached servers start nothing when declared');

    await setSetting('mcpHost.tools.autoApprove', USED.map(s => `${s}/echo`));
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await scriptedLm.reset();
    await scriptedLm.script(USED.map((s, i) => ({ toolCall: { name: `${s}_echo`, input: { text: `from ${s}` }, callId: `c${i}` } })), 'done');
    await ask('@mcp echo through two of the servers');
    const reqs = await requestsAtLeast(2, 90_000);
    const offered = new Set(reqs[0].options.tools.map(t => t.name));
    for (const name of Object.keys(servers)) assert.ok(offered.has(`${name}_echo`), `the cached ${name}_echo is offered (offered: ${[...offered].join(', ')})`);
    const results = toolResultText(reqs[1]);
    for (const s of USED) assert.match(results, new RegExp(`from ${s}\\b`));
    assert.deepEqual(running(), [...USED].sort(), 'exactly the two servers whose tools were called run');
    for (const name of Object.keys(servers)) assert.equal(a.host.get(name)?.state === 'running', USED.includes(name), `${name}'s state`);
  });
});

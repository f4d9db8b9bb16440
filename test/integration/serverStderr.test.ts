/** Issue 30 item 4: a local server that will not start shows why (its last stderr lines) in its Servers row. */
import * as assert from 'node:assert/strict';
import { setSetting } from './helpers';
import { declareServers, fixture, nodeServer, serverItems, waitState } from './mcpHost';

const refusing = (mode: string) => ({ ...nodeServer(fixture('refusesToStart')), env: { FIXTURE_REFUSAL: mode, FIXTURE_FLOOD_MB: '0' } });
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** The tooltip's Markdown source as VS Code's renderer reads it: `\$(icon)` stays text, other escapes lose their backslash. */
function rendered(tooltip: string): string {
  return tooltip.replace(/\\\$\([a-z0-9-]+?(?:~[a-z0-9-]*?)?\)/gi, m => `\\${m}`).replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

describe('a server that will not start, in the Servers view', function () {
  this.timeout(60_000);
  before(async () => { await setSetting('mcpHost.autoRestart.maxRestarts', 0); });
  after(async () => {
    await declareServers(undefined);
    await setSetting('mcpHost.autoRestart.maxRestarts', undefined);
  });

  it('shows its last stderr line ("missing API_KEY") in its row and its last stderr lines in the tooltip', async () => {
    const a = await declareServers({ keyless: refusing('apiKey') });
    await waitState(a.host.require('keyless'), 'error');
    const item = (await serverItems(a)).find(i => i.label === 'keyless')!;
    assert.equal(item.contextValue, 'server:error');
    assert.match(item.description, /missing API_KEY: set it in env/, item.description);
    assert.match(rendered(item.tooltip), /- starting up\n- missing API_KEY: set it in env/, item.tooltip);
  });

  it('attacker: escapes, bidi, a fake "[MCP Host]" line, a $(icon), a command link and HTML on stderr give a bounded, cleaned row', async () => {
    const a = await declareServers({ hostile: refusing('hostile') });
    await waitState(a.host.require('hostile'), 'error');
    const item = (await serverItems(a)).find(i => i.label === 'hostile')!;
    // The reason, without the hyperlink, bold and reversal wrapped around it.
    assert.match(item.description, /^stderr: missing API_KEY yek eht — /, JSON.stringify(item.description));
    assert.doesNotMatch(item.description, CONTROLS);
    assert.ok(item.description.length < 600, `a description of ${item.description.length} characters`);
    assert.doesNotMatch(item.tooltip, CONTROLS, JSON.stringify(item.tooltip));
    assert.ok(item.tooltip.length < 4000, `a tooltip of ${item.tooltip.length} characters`);
    const text = rendered(item.tooltip);
    // The lines are there, as text: "[MCP Host]" never begins a line, and nothing the server wrote renders.
    assert.match(text, /- red alert\n/);
    assert.match(text, /- bidi elif\.exe and isolate\n/);
    assert.match(text, /- harmless \[MCP Host\] Your session expired/);
    assert.doesNotMatch(text, /^\[MCP Host\]/m);
    assert.match(text, /\\\$\(pass-filled\) Verified by MCP Host/, 'the icon is shown literally');
    assert.deepEqual(text.match(/(?<!\\)\$\([a-z0-9-]+(?:~[a-z0-9-]*)?\)/gi), null, 'an icon of the server would be drawn');
    assert.doesNotMatch(item.tooltip, /(?<!\\)\]\(command:/, 'a command link of the server would be a link');
    assert.doesNotMatch(item.tooltip, /(?<!\\)<img/, 'HTML of the server would be rendered');
  });
});

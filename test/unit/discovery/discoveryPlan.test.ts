/** Which discovered servers run (deduplication, VS Code's own files, trust) and how a file is followed live. */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DiscoveryWatcher, effectiveSetting, planDiscovered, readDiscovery, type DiscoveredServer, type DiscoverySource } from '../../../src/core';

const found = (name: string, source: DiscoverySource, declaration: Record<string, unknown>): DiscoveredServer => ({ key: `${name}@${source}`, name, source, file: `/f/${source}`, declaration });
const trusted = { trusted: true, runHere: new Set<DiscoverySource>() };

describe('discovery: what runs', () => {
  it('runs a server declared in several places once: settings first, then user files, then workspace files', () => {
    const plan = planDiscovered(
      { mine: { command: 'npx', args: ['-y', 'a'] } },
      [
        found('a', 'cursorUser', { command: 'npx', args: ['-y', 'a'], env: { DIFFERENT: '1' } }),
        found('b', 'claudeDesktop', { url: 'https://Example.com/mcp/' }),
        found('b2', 'cursorUser', { type: 'http', url: 'https://example.com/mcp' }),
        found('c', 'claudeCodeWorkspace', { command: 'node', args: ['c.js'] }),
        found('c', 'codex', { command: 'node', args: ['c.js'] }),
        found('other', 'windsurf', { command: 'node', args: ['c.js'], cwd: '/elsewhere' }),
      ],
      trusted,
    );
    assert.deepEqual(Object.keys(plan.run).sort(), ['b@claudeDesktop', 'c@claudeCodeWorkspace', 'other@windsurf']);
    assert.deepEqual(plan.withheld.map(w => [w.server.key, w.why]), [
      ['a@cursorUser', { kind: 'duplicate', of: 'mine' }],
      ['b2@cursorUser', { kind: 'duplicate', of: 'b@claudeDesktop' }],
      ['c@codex', { kind: 'duplicate', of: 'c@claudeCodeWorkspace' }],
    ]);
  });

  it('never starts a second copy of what VS Code\'s own mcp.json runs, unless the user set that source to "run"', () => {
    const servers = [
      found('gh', 'cursorUser', { command: 'gh-mcp' }),
      found('gh', 'vscodeUser', { command: 'gh-mcp' }),
      found('only', 'vscodeWorkspace', { url: 'https://x.example/mcp' }),
    ];
    const plan = planDiscovered({}, servers, trusted);
    assert.deepEqual(plan.run, {});
    assert.deepEqual(plan.withheld.map(w => [w.server.key, w.why.kind]), [['gh@vscodeUser', 'editorRuns'], ['only@vscodeWorkspace', 'editorRuns'], ['gh@cursorUser', 'duplicate']]);
    const chosen = planDiscovered({}, servers, { trusted: true, runHere: new Set(['vscodeUser']) });
    assert.deepEqual(Object.keys(chosen.run), ['gh@cursorUser'], 'the first file still wins once VS Code\'s copy is not in the way');
    assert.deepEqual(chosen.withheld.map(w => [w.server.key, w.why.kind]), [['only@vscodeWorkspace', 'editorRuns'], ['gh@vscodeUser', 'duplicate']]);
  });

  it('withholds every workspace file\'s server while the workspace is untrusted, and never lets one take a settings name', () => {
    const plan = planDiscovered({ 'x@cursorUser': { command: 'mine' } }, [
      found('ws', 'claudeCodeWorkspace', { command: 'planted' }),
      found('ws', 'rooWorkspace', { command: 'planted2' }),
      found('x', 'cursorUser', { command: 'theirs' }),
      found('home', 'claudeDesktop', { command: 'planted' }),
    ], { trusted: false, runHere: new Set() });
    assert.deepEqual(Object.keys(plan.run), ['home@claudeDesktop'], 'an untrusted server claims nothing: the user file\'s copy runs');
    assert.deepEqual(plan.withheld.map(w => [w.server.key, w.why.kind]), [['ws@claudeCodeWorkspace', 'untrusted'], ['ws@rooWorkspace', 'untrusted'], ['x@cursorUser', 'nameTaken']]);
  });

  it('takes mcpHost.discovery from user settings only: a workspace cannot enable a source', () => {
    assert.deepEqual(effectiveSetting('discovery', { defaultValue: {}, workspaceValue: { claudeCodeWorkspace: true }, folderValues: [{ cursorWorkspace: true }] }, true), {});
    assert.deepEqual(effectiveSetting('discovery', { defaultValue: {}, userValue: { cursorUser: true }, workspaceValue: { claudeCodeWorkspace: true } }, true), { cursorUser: true });
  });
});

describe('discovery: following a file', function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => { dir = mkdtempSync(path.join(os.tmpdir(), 'mcp-discovery-watch-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const nextChange = (w: DiscoveryWatcher) => new Promise<void>(resolve => { const d = w.onDidChange(() => { d.dispose(); resolve(); }); });

  it('sees a file created in a folder that did not exist, changed, atomically replaced and deleted', async () => {
    const file = path.join(dir, 'later', 'mcp.json');
    const watcher = new DiscoveryWatcher([file], { intervalMs: 50, settleMs: 20 });
    const read = async () => (await readDiscovery([{ source: 'cursorUser', path: file, format: 'json' }], [])).servers.map(s => `${s.key} ${JSON.stringify(s.declaration.args)}`);
    try {
      let change = nextChange(watcher);
      mkdirSync(path.dirname(file));
      writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'node', args: ['1'] } } }));
      await change;
      assert.deepEqual(await read(), ['a@cursorUser ["1"]']);
      change = nextChange(watcher);
      writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: 'node', args: ['2'] }, b: { command: 'x' } } }));
      await change;
      assert.deepEqual(await read(), ['a@cursorUser ["2"]', 'b@cursorUser undefined']);
      change = nextChange(watcher);
      writeFileSync(`${file}.tmp`, JSON.stringify({ mcpServers: { c: { command: 'y', args: [] } } }));
      renameSync(`${file}.tmp`, file);
      await change;
      assert.deepEqual(await read(), ['c@cursorUser []']);
      change = nextChange(watcher);
      rmSync(file);
      await change;
      assert.deepEqual(await read(), []);
    } finally {
      watcher.dispose();
    }
    // Disposed: a further change is not reported.
    let fired = false;
    watcher.onDidChange(() => { fired = true; });
    writeFileSync(file, '{}');
    await new Promise(r => setTimeout(r, 300));
    assert.equal(fired, false);
  });
});

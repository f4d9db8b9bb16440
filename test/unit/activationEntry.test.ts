/**
 * The activation entry (src/extension.ts, bundled as dist/extension.js) registers the contributions
 * before the host bundle loads, and whatever reaches them in that window waits for the host instead of
 * failing: a command, a view's children, a language-model tool, the exported API's calls. Runs the real
 * development bundle against a recording `vscode` stand-in, with a host bundle (host.js beside it) that
 * registers what the real one would, so the moment the host loads is under the test's control.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Module = require('node:module');
import { repoRoot, waitFor } from './helpers';

type Handler = (...args: unknown[]) => unknown;

/** The parts of the `vscode` API the activation entry uses, behaving as the extension host does. */
function fakeVscode() {
  const commands = new Map<string, Handler>();
  const tools = new Map<string, { invoke: Handler; prepareInvocation?: Handler }>();
  const views = new Map<string, { provider: { getChildren: Handler; onDidChangeTreeData?: unknown }; message?: string }>();
  const participants = new Map<string, Handler>();
  class Disposable { constructor(private readonly fn: () => void) {} dispose() { this.fn(); } }
  class EventEmitter<T> {
    private listeners: ((e: T) => void)[] = [];
    event = (l: (e: T) => void) => { this.listeners.push(l); return new Disposable(() => { this.listeners = this.listeners.filter(x => x !== l); }); };
    fire(e: T) { for (const l of this.listeners) l(e); }
    dispose() { this.listeners = []; }
  }
  const vscode = {
    Disposable, EventEmitter,
    Uri: { joinPath: (...parts: unknown[]) => parts.join('/') },
    l10n: { t: (s: string, ...args: unknown[]) => s.replace(/\{(\d+)\}/g, (_, i: string) => String(args[Number(i)])) },
    commands: {
      registerCommand(id: string, handler: Handler) {
        // As ExtHostCommands: one handler per id.
        if (commands.has(id)) throw new Error(`command '${id}' already exists`);
        commands.set(id, handler);
        return new Disposable(() => commands.delete(id));
      },
      async executeCommand(id: string, ...args: unknown[]) {
        const handler = commands.get(id);
        if (!handler) throw new Error(`command '${id}' not found`);
        return handler(...args);
      },
    },
    window: {
      createTreeView(id: string, options: { treeDataProvider: { getChildren: Handler } }) {
        const view = { provider: options.treeDataProvider, message: undefined as string | undefined, dispose() { views.delete(id); } };
        views.set(id, view);
        return view;
      },
      showErrorMessage: async (message: string) => { errors.push(message); },
    },
    lm: { registerTool(name: string, tool: { invoke: Handler }) { tools.set(name, tool); return new Disposable(() => tools.delete(name)); } },
    chat: { createChatParticipant(id: string, handler: Handler) { participants.set(id, handler); return { dispose() { participants.delete(id); } }; } },
  };
  const errors: string[] = [];
  /** A fresh extension host: nothing registered. */
  const reset = () => { for (const m of [commands, tools, views, participants]) m.clear(); errors.length = 0; };
  return { vscode, commands, tools, views, participants, errors, reset };
}

// The host bundle as far as the activation entry sees it: what start() registers and returns.
const FAKE_HOST = `
const vscode = require('vscode');
exports.start = (context, late, activationMs, early) => {
  if (globalThis.__hostThrows) throw new Error('host bundle broken');
  globalThis.__hostStarts = (globalThis.__hostStarts ?? 0) + 1;
  globalThis.__order?.push('host');
  globalThis.__hostEarly = early;
  vscode.commands.registerCommand('mcpHost.showServers', (arg) => 'host shows servers ' + arg);
  late.treeView('mcpHost.servers', { getChildren: () => ['server a'], getTreeItem: (e) => ({ label: e }) });
  late.registerTool('mcpHost_callTool', { invoke: (options) => 'host called ' + options.input.tool });
  late.chatHandler(() => ({ metadata: 'host answered' }));
  return {
    api: {
      version: 2, activationMs,
      listServers: () => [{ name: 'a', state: 'running', transport: 'stdio' }],
      callTool: async (server, tool) => ({ content: [{ type: 'text', text: server + '/' + tool }] }),
      onDidChangeServers: () => ({ dispose() {} }), onDidChangeServerState: () => ({ dispose() {} }), onDidChangeCatalog: () => ({ dispose() {} }),
    },
    shutdown: async () => { globalThis.__hostStopped = true; },
  };
};
`;

// The early bundle (src/early.ts) as far as the activation entry sees it: spawning takes a moment.
const FAKE_EARLY = `
exports.start = () => {
  if (globalThis.__earlyThrows) throw new Error('no early start today');
  globalThis.__order?.push('early');
  const processes = { releases: 0, take() {}, async release() { this.releases++; } };
  globalThis.__early = processes;
  return { processes, ready: new Promise(resolve => setTimeout(resolve, 20)).then(() => { globalThis.__order?.push('early ready'); }) };
};
`;

describe('activation entry (contributions before the host bundle loads)', function () {
  this.timeout(60_000);

  let dir: string;
  let fake: ReturnType<typeof fakeVscode>;
  let entry: { activate(context: unknown): Record<string, unknown>; deactivate(): Promise<void> };
  const load = (Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown });
  const original = load._load;
  const g = globalThis as { __hostStarts?: number; __hostStopped?: boolean; __order?: string[]; __early?: { releases: number }; __hostEarly?: unknown; __earlyThrows?: boolean; __hostThrows?: boolean };
  let evaluationSpan = 0;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-host-entry-'));
    const r = spawnSync(process.execPath, ['esbuild.mjs', `--outfile=${path.join(dir, 'extension.js')}`], { cwd: repoRoot, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    fs.writeFileSync(path.join(dir, 'host.js'), FAKE_HOST);
    fs.writeFileSync(path.join(dir, 'early.js'), FAKE_EARLY);
    fake = fakeVscode();
    load._load = function (request: string, ...rest: unknown[]) { return request === 'vscode' ? fake.vscode : original.call(this, request, ...rest); };
    const required = performance.now();
    entry = require(path.join(dir, 'extension.js')) as typeof entry;
    evaluationSpan = performance.now() - required;
  });
  after(() => {
    load._load = original;
    fs.rmSync(dir, { recursive: true, force: true });
    for (const k of ['__hostStarts', '__hostStopped', '__order', '__early', '__hostEarly', '__earlyThrows', '__hostThrows'] as const) delete g[k];
  });

  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[]; languageModelTools: { name: string }[] } };
  type Api = { version: number; activationMs: number; listServers(): unknown[]; callTool(s: string, t: string): Promise<unknown> };
  function activate(): Api {
    fake.reset();
    delete g.__hostStarts;
    delete g.__hostEarly;
    g.__order = [];
    return entry.activate({ subscriptions: [], extensionUri: 'ext', extension: { packageJSON: manifest } }) as Api;
  }

  it('registers every contribution at activation and loads the host bundle only afterwards', async () => {
    const api = activate();
    assert.equal(g.__hostStarts, undefined, 'the host bundle loaded during activate()');
    assert.deepEqual([...fake.commands.keys()].sort(), manifest.contributes.commands.map(c => c.command).sort());
    assert.deepEqual([...fake.tools.keys()].sort(), manifest.contributes.languageModelTools.map(t => t.name).sort());
    assert.deepEqual([...fake.views.keys()].sort(), ['mcpHost.resources', 'mcpHost.servers']);
    assert.ok(fake.participants.has('mcpHost.mcp'));
    assert.equal(fake.views.get('mcpHost.servers')?.message, 'Starting MCP Host…');
    assert.equal(api.version, 2);
    assert.equal(typeof api.activationMs, 'number');
    assert.deepEqual(api.listServers(), [], 'no servers before the host is there');
    // Nothing asked for the host: it loads once activation is over (and starts the servers).
    await waitFor(() => g.__hostStarts === 1, 'the host bundle to load after activation');
    assert.equal(fake.views.get('mcpHost.servers')?.message, undefined, 'the view stops saying "starting"');
    assert.deepEqual(api.listServers(), [{ name: 'a', state: 'running', transport: 'stdio' }]);
    assert.equal(await fake.vscode.commands.executeCommand('mcpHost.showServers', 'later'), 'host shows servers later', 'the host\'s own command answers');
    assert.deepEqual(fake.errors, []);
    await entry.deactivate();
    assert.equal(g.__hostStopped, true, 'deactivate() stops the host');
  });

  it('runs the early bundle first, waits until it has spawned, then hands what it started to the host', async () => {
    activate();
    await waitFor(() => g.__hostStarts === 1, 'the host bundle to load after activation');
    assert.deepEqual(g.__order, ['early', 'early ready', 'host']);
    assert.equal((g.__hostEarly as { processes?: unknown } | undefined)?.processes, g.__early, 'the host got the early processes');
    await entry.deactivate();
    assert.equal(g.__early?.releases, 1, 'deactivate() stops what no server took');
  });

  it('starts the host when the early bundle fails, and tells it why', async () => {
    g.__earlyThrows = true;
    try {
      activate();
      await waitFor(() => g.__hostStarts === 1, 'the host bundle to load after activation');
      assert.deepEqual(g.__hostEarly, { error: 'no early start today' });
      assert.deepEqual(fake.errors, [], 'the user is not bothered: the host starts the servers itself');
      await entry.deactivate();
    } finally { delete g.__earlyThrows; }
  });

  it('stops the servers started early when the host bundle fails to load, and says why', async () => {
    g.__hostThrows = true;
    try {
      activate();
      await waitFor(() => fake.errors.length > 0, 'the error message');
      assert.deepEqual(fake.errors, ['MCP Host could not start: host bundle broken']);
      await waitFor(() => g.__early?.releases === 1, 'the early processes to be released');
      await entry.deactivate();
    } finally { delete g.__hostThrows; }
  });

  // Each arrives first, right after activate() returned, before the host bundle was required.
  const first: Record<string, [(api: Api) => unknown, unknown]> = {
    'a contributed command': [() => fake.vscode.commands.executeCommand('mcpHost.showServers', 'now'), 'host shows servers now'],
    'a view asking for its items': [() => fake.views.get('mcpHost.servers')!.provider.getChildren(), ['server a']],
    'a language-model tool': [() => fake.tools.get('mcpHost_callTool')!.invoke({ input: { server: 'a', tool: 'echo' } }, {}), 'host called echo'],
    'a request to @mcp': [() => fake.participants.get('mcpHost.mcp')!({}, {}, {}, {}), { metadata: 'host answered' }],
    'the API\'s callTool': [api => api.callTool('a', 'echo'), { content: [{ type: 'text', text: 'a/echo' }] }],
  };
  it('activationMs counts evaluating the bundle and the activate() call, not the wait between them', async () => {
    // VS Code evaluates the bundle while it loads the extension's context, then calls activate(): a wait
    // that is VS Code's. Here the wait is the tests before this one plus a timer.
    await new Promise(resolve => setTimeout(resolve, 50));
    const called = performance.now();
    const api = activate();
    const activateSpan = performance.now() - called;
    assert.ok(api.activationMs > 0 && api.activationMs <= evaluationSpan + activateSpan,
      `activationMs ${api.activationMs} ms, more than evaluating the bundle (${evaluationSpan} ms) and activate() (${activateSpan} ms) together`);
    await waitFor(() => g.__hostStarts === 1, 'the host bundle to load after activation');
    await entry.deactivate();
  });

  for (const [what, [call, expected]] of Object.entries(first)) {
    it(`${what} before the host loaded waits for it and gets the host's answer`, async () => {
      const api = activate();
      assert.deepEqual(await call(api), expected);
      assert.equal(g.__hostStarts, 1, 'the host bundle is loaded once');
      // Needed at once, the host still loads after the early bundle has spawned (a user with the Servers view open gets the same start).
      assert.deepEqual(g.__order, ['early', 'early ready', 'host']);
      assert.equal((g.__hostEarly as { processes?: unknown } | undefined)?.processes, g.__early);
      assert.deepEqual(fake.errors, []);
      await entry.deactivate();
    });
  }
});

/**
 * Sampling's "always allow" belongs to a program, not to a name (issue 28): the real sampling fixture
 * server asks for a completion under the name "helper"; the user allows it always (or the settings
 * say "allow" for the name); then another program takes the name — a registry install, a bundle, a
 * hand edit, or a workspace server named like the user's — and asks again. The grants are the real
 * approval records, bound as the VS Code host binds them (samplingPorts.ts `programGrants`).
 */
import * as assert from 'node:assert/strict';
import { programIdentity, ToolApprovals, type McpHost, type ServerScope } from '../../src/core';
import { parseSamplingSettings, SamplingService, type RawSamplingSettings } from '../../src/core/sampling';
import { createTestHost, fixtureServer, MemoryStorage, node, text, waitForState } from './helpers';
import { programGrants, ScriptedModels, ScriptedUi } from './samplingPorts';

const WORKSPACE = 'file:///home/user/project';

describe('sampling consent belongs to a program, not to a name (hostile server)', function () {
  this.timeout(60_000);
  const first = node(fixtureServer('sampling'));
  // Another program under the same name: the same server file, run with other arguments and environment.
  const later = { ...node(fixtureServer('sampling'), '--installed-later'), env: { FIXTURE_ORIGIN: 'a registry entry' } };
  let host: McpHost;
  let ui: ScriptedUi;
  let raw: RawSamplingSettings;
  let now: { declaration: unknown; scope: ServerScope };
  let approvals: ToolApprovals;

  beforeEach(() => {
    ui = new ScriptedUi();
    raw = { sampling: { '*': { rateLimit: 0 } } };
    approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    const service = new SamplingService({
      models: new ScriptedModels(), ui,
      settings: () => parseSamplingSettings(raw),
      grants: programGrants(approvals, name => (name === 'helper' ? now : undefined), WORKSPACE),
      secrets: async () => [],
    });
    host = createTestHost({ sampling: service.handler }).host;
  });
  afterEach(() => host.shutdown());

  async function declare(declaration: unknown, scope: ServerScope = 'user'): Promise<void> {
    now = { declaration, scope };
    await host.apply({ helper: declaration });
    await waitForState(host.require('helper'), 'running');
  }

  /** One sampling request of "helper"; the user's answers, if asked, are `answers`. */
  async function sample(...answers: ('once' | 'always' | 'reject')[]): Promise<{ asked: number; result: string }> {
    ui.asked = [];
    for (const a of answers) { ui.approvals.push(() => ({ action: a })); ui.reviews.push(() => ({ action: 'send' })); }
    const request = { maxTokens: 10, messages: [{ role: 'user', content: { type: 'text', text: 'read my files' } }] };
    const result = text(await host.require('helper').callTool('sample', { request: JSON.stringify(request) }));
    return { asked: ui.asked.length, result };
  }

  it('"always allow" given to one program does not cover another program declared later under the name', async () => {
    await declare(first);
    assert.equal((await sample('always')).asked, 1);
    assert.equal((await sample()).asked, 0, 'always allowed for this program');

    await declare(later);
    const replaced = await sample('reject');
    assert.equal(replaced.asked, 1, 'another program under the allowed name is asked again');
    assert.match(replaced.result, /rejected the sampling request/);

    // The declaration now runs `later`: the grant of `first` is deleted, so going back asks again too.
    const id = programIdentity(later, { scope: 'user', workspace: WORKSPACE })!.id;
    await approvals.prune((server, scope) => (server === 'helper' && scope === 'user' ? { scope, program: id } : undefined), WORKSPACE);
    await declare(first);
    assert.equal((await sample('once')).asked, 1);
  });

  it('the settings\' policy "allow" for a name counts only for the program it was first used with, and never for a workspace server', async () => {
    raw = { sampling: { '*': { rateLimit: 0 }, helper: { policy: 'allow' } } };
    await declare(first);
    assert.equal((await sample()).asked, 0, 'the settings allow the user\'s program');

    await declare(later);
    assert.equal((await sample('reject')).asked, 1, 'the settings named the program that ran under "helper" before');
    assert.equal(ui.asked[0].programChanged, true, 'the prompt says the settings allowed another program');

    await declare(first, 'workspace');
    assert.equal((await sample('reject')).asked, 1, 'a workspace server named like the user\'s allowed server is asked');
    raw = { sampling: { '*': { policy: 'allow', rateLimit: 0 } } };
    assert.equal((await sample('reject')).asked, 1, 'the user\'s "allow every server" does not reach a workspace\'s servers');
  });

  it('the names the settings allow are bound when the settings are read, before the name ever samples', async () => {
    raw = { sampling: { '*': { rateLimit: 0 }, helper: { policy: 'allow' } } };
    const id = programIdentity(first, { scope: 'user', workspace: WORKSPACE })!.id;
    await approvals.prune((server, scope) => (server === 'helper' && scope === 'user' ? { scope, program: id } : undefined), WORKSPACE,
      { autoApprove: [], trustedServers: [], samplingAllowed: parseSamplingSettings(raw).allowedServers });
    await declare(later);
    assert.equal((await sample('reject')).asked, 1);
  });
});

/**
 * Approvals as VS Code users know them (issue 31): once, this session, this workspace, always — per
 * tool and per server — and the result gate of `mcpHost.tools.reviewResults`, against real fixture
 * servers (`shapeshifting.ts`, `injecting.ts`, a hostile server that drops `openWorldHint`).
 */
import * as assert from 'node:assert/strict';
import type { Tool } from '@modelcontextprotocol/client';
import { argumentSummary, hasHiddenCharacters, programIdentity, ResultReviews, ToolApprovals, toolDefinitionHash, type McpHost, type ServerConnection } from '../../src/core';
import { createTestHost, fixtureServer, MemoryStorage, node, waitFor, waitForState } from './helpers';

const noSettings = { autoApprove: [], trustedServers: [] };

describe('approvals: lifetimes (session, this workspace, always) and the result gate', function () {
  this.timeout(30_000);
  let host: McpHost;
  let evil: ServerConnection;
  let injecting: ServerConnection;
  const tool = (c: ServerConnection, name: string): Tool => { const t = c.tool(name); assert.ok(t, `the server offers ${name}`); return t; };
  const user = { server: 'evil', scope: 'user' as const, program: programIdentity(node(fixtureServer('shapeshifting')), { scope: 'user' })!.id };
  const pages = { server: 'pages', scope: 'user' as const, program: programIdentity(node(fixtureServer('injecting')), { scope: 'user' })!.id };

  before(async () => {
    ({ host } = createTestHost());
    await host.apply({ evil: node(fixtureServer('shapeshifting')), pages: node(fixtureServer('injecting')) });
    evil = host.require('evil');
    injecting = host.require('pages');
    await Promise.all([waitForState(evil, 'running'), waitForState(injecting, 'running')]);
    await waitFor(() => evil.tool('wipe') && injecting.tool('fetch_page'), 'the tools');
  });
  after(() => host.shutdown());

  it('a "session" approval does not survive a reload (a new window over the same stored state asks)', async () => {
    const stores = { user: new MemoryStorage(), workspace: new MemoryStorage() };
    const window1 = new ToolApprovals(stores, () => 'file:///project');
    await window1.grantTool(user, tool(evil, 'wipe'), 'tool', 'session');
    await window1.grantTool(user, tool(evil, 'greet'), 'server', 'session');
    assert.equal((await window1.checkTool(user, tool(evil, 'wipe'), noSettings)).approvedBy, 'tool');
    assert.equal((await window1.checkTool(user, tool(evil, '*'), noSettings)).approvedBy, 'server', 'the server-wide one covers its other tools');
    assert.deepEqual(window1.all().map(a => `${a.kind}:${a.lifetime}`), ['tool:session', 'server:session']);
    assert.equal(stores.user.get('mcpHost.approvals.v2'), undefined, 'nothing of it is written to global state');
    assert.equal(stores.workspace.get('mcpHost.approvals.v2'), undefined, 'nor to workspace state');
    const reloaded = new ToolApprovals(stores, () => 'file:///project');
    assert.deepEqual(await reloaded.checkTool(user, tool(evil, 'wipe'), noSettings), {}, 'after a reload it asks');
    assert.deepEqual(reloaded.all(), []);
    // Revoked in the window that holds it, it asks there too.
    await window1.revoke(window1.all()[1]);
    assert.equal((await window1.checkTool(user, tool(evil, 'wipe'), noSettings)).approvedBy, 'tool');
    assert.deepEqual(await window1.checkTool(user, tool(evil, 'greet'), noSettings), {});
  });

  it('a "this workspace" approval does not apply in another workspace, even over the same stored state', async () => {
    const stores = { user: new MemoryStorage(), workspace: new MemoryStorage() };
    const inA = new ToolApprovals(stores, () => 'file:///a');
    await inA.grantTool(user, tool(evil, 'wipe'), 'tool', 'workspace');
    assert.equal((await inA.checkTool(user, tool(evil, 'wipe'), noSettings)).approvedBy, 'tool');
    assert.equal(stores.user.get('mcpHost.approvals.v2'), undefined, 'a user server\'s workspace approval is not in global state');
    assert.equal(new ToolApprovals(stores, () => 'file:///a').all().length, 1, 'it survives a reload of that workspace');
    assert.deepEqual(await new ToolApprovals(stores, () => 'file:///b').checkTool(user, tool(evil, 'wipe'), noSettings), {}, 'another workspace asks');
    assert.deepEqual(await new ToolApprovals(stores, () => undefined).checkTool(user, tool(evil, 'wipe'), noSettings), {}, 'a window without a workspace asks');
    // The same store handed to a window of another workspace (or a record planted with another workspace) counts nowhere else.
    const shared = new ToolApprovals({ user: stores.workspace, workspace: stores.workspace }, () => 'file:///b');
    assert.deepEqual(await shared.checkTool(user, tool(evil, 'wipe'), noSettings), {});
    // Without a workspace there is nothing to hold it: it lasts the session.
    const empty = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() }, () => undefined);
    await empty.grantTool(user, tool(evil, 'wipe'), 'server', 'workspace');
    assert.deepEqual(empty.all().map(a => a.lifetime), ['session']);
  });

  it('every lifetime stays bound to the program and the definition, and is pruned with the declaration', async () => {
    const stores = { user: new MemoryStorage(), workspace: new MemoryStorage() };
    const approvals = new ToolApprovals(stores, () => 'file:///a');
    await approvals.grantTool(user, tool(evil, 'greet'), 'tool', 'session');
    await approvals.grantTool(user, tool(evil, 'wipe'), 'tool', 'workspace');
    const other = { ...user, program: 'another program' };
    assert.deepEqual(await approvals.checkTool(other, tool(evil, 'wipe'), noSettings), {}, 'another program under the name inherits nothing');
    assert.deepEqual(await approvals.checkTool({ ...user, caller: 'app' }, tool(evil, 'wipe'), noSettings), {}, 'the app asks apart');
    const before = toolDefinitionHash(tool(evil, 'greet'));
    await evil.callTool('rewrite-greet', { description: 'Now also deletes things' });
    await waitFor(() => toolDefinitionHash(tool(evil, 'greet')) !== before, 'the changed definition');
    assert.deepEqual(await approvals.checkTool(user, tool(evil, 'greet'), noSettings), { changed: true });
    await approvals.prune(() => ({ scope: 'user', program: 'changed program' }), 'file:///a');
    assert.deepEqual(approvals.all(), [], 'a declaration that changed program loses its session and workspace approvals');
  });

  it('a result of an openWorld tool is gated; dropping openWorldHint afterwards does not pass the gate, and asks again', async () => {
    const storage = new MemoryStorage();
    const reviews = new ResultReviews(storage);
    const target = { server: 'pages', program: pages.program, trusted: true };
    assert.equal(await reviews.needsReview('off', target, tool(injecting, 'fetch_page')), false);
    assert.equal(await reviews.needsReview('openWorld', target, tool(injecting, 'fetch_page')), true);
    assert.equal(await reviews.needsReview('openWorld', target, tool(injecting, 'wipe')), false, 'a tool that never said openWorld');
    // The user approved it "always"; the server then drops the hint.
    const approvals = new ToolApprovals({ user: new MemoryStorage(), workspace: new MemoryStorage() });
    await approvals.grantTool(pages, tool(injecting, 'fetch_page'), 'tool');
    const before = toolDefinitionHash(tool(injecting, 'fetch_page'));
    await injecting.callTool('drop-hint', {});
    await waitFor(() => toolDefinitionHash(tool(injecting, 'fetch_page')) !== before, 'the redefined tool');
    assert.equal(tool(injecting, 'fetch_page').annotations?.openWorldHint, undefined);
    assert.equal(await reviews.needsReview('openWorld', target, tool(injecting, 'fetch_page')), true, 'still gated');
    assert.equal(await new ResultReviews(storage).needsReview('openWorld', target, tool(injecting, 'fetch_page')), true, 'after a reload too');
    assert.deepEqual(await approvals.checkTool(pages, tool(injecting, 'fetch_page'), noSettings), { changed: true }, 'the approval was for the definition with the hint');
    // Another program under the name starts from the server's word again (it is not the one that said openWorld).
    assert.equal(await reviews.needsReview('openWorld', { ...target, program: 'other' }, tool(injecting, 'fetch_page')), false);
    assert.equal(await reviews.needsReview('untrustedServers', { ...target, trusted: false }, tool(injecting, 'wipe')), true, 'every tool of an untrusted server');
    assert.equal(await reviews.needsReview('untrustedServers', target, tool(injecting, 'wipe')), false);
    assert.equal(await reviews.needsReview('always', target, tool(injecting, 'wipe')), true);
  });

  it('attacker: a server that lists thousands of openWorld tools does not make the gate forget a hint (its own or another server\'s)', async () => {
    const storage = new MemoryStorage();
    const reviews = new ResultReviews(storage);
    const hinted = (name: string): Tool => ({ name, inputSchema: { type: 'object' }, annotations: { openWorldHint: true } });
    const unhinted = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });
    const pagesTarget = { server: 'pages', program: pages.program, trusted: true };
    const evilTarget = { server: 'evil', program: user.program, trusted: true };
    assert.equal(await reviews.needsReview('openWorld', pagesTarget, hinted('fetch_page')), true);
    assert.equal(await reviews.needsReview('openWorld', evilTarget, hinted('fetch')), true);
    // The hostile server lists 6,000 tools that say openWorld, then drops the hint from "fetch".
    for (let i = 0; i < 6_000; i++) await reviews.note(evilTarget, hinted(`t${i}`));
    assert.equal(await reviews.needsReview('openWorld', evilTarget, unhinted('fetch')), true, 'its own dropped hint is still gated');
    assert.equal(await reviews.needsReview('openWorld', pagesTarget, unhinted('fetch_page')), true, 'another server\'s dropped hint is still gated');
  });

  it('a batch of 50 calls is summarised bounded and cleaned', () => {
    const hostile = { ['\u001b[32mpath\u202e']: `${'A'.repeat(10_000)}\u200b\u0007`, ['$(check) ok']: { nested: ['\u{E0041}x'] } };
    const lines = Array.from({ length: 50 }, () => argumentSummary(hostile));
    for (const line of lines) {
      assert.ok(line.length <= 160, `bounded: ${line.length}`);
      assert.equal(hasHiddenCharacters(line), false);
      assert.ok(!/[\n\u001b\u0007]/.test(line));
      assert.match(line, /^path=/);
    }
    const many = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, i]));
    assert.ok(argumentSummary(many).length <= 160);
  });
});

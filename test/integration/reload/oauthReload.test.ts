/**
 * OAuth sign-in survives a window reload (issue 15). The 'reload' run loads this file twice: in the
 * first extension host it signs in through the browser; then the Playwright suite (test/ui-reload)
 * reloads the page, the workbench starts a new extension host, the test entry runs again (its results
 * are added to the first load's, test/integration/index.ts) and this file registers the checks of the
 * second load. Between the two only what VS Code keeps across a reload carries over: the settings and
 * SecretStorage. The OAuth fixture runs in the driver process (the UI suite starts it), so it outlives
 * the first extension host and its counters cover both.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from '../helpers';
import { api, declareServers, textOf, waitState } from '../mcpHost';
import { requestStep, uiNote, uiStep } from '../workbench/bridge';
import { catalogReloadServers } from './declared';

interface WhoAmI { scopes: string[]; stats: { registrations: number; authorizations: number; codeExchanges: number; refreshes: number } }
/** What the UI suite leaves for the second load: the first extension host's process id. */
interface Reloaded { pid: number }

const whoami = async () => JSON.parse(textOf(await (await api()).callTool('secured', 'whoami'))) as WhoAmI;
const reloaded = uiNote<Reloaded>('reloaded');

describe('window reload: the OAuth sign-in survives it', function () {
  this.timeout(120_000);

  if (!reloaded) {
    // The UI suite reloads the page once this hook has run (after the test's result is recorded).
    after(() => requestStep('reload', { pid: process.pid } satisfies Reloaded));

    it('before the reload: signs in once through the browser', async () => {
      const { url } = await uiStep('reload-fixture', {}, 90_000) as { url: string };
      // Added to catalogReload.test.ts's server, which is checked after the reload too.
      const a = await declareServers({ ...catalogReloadServers(), secured: { type: 'http', url } });
      const s = a.host.require('secured');
      await waitState(s, 'error');
      assert.equal(s.needsSignIn, true, s.message);
      await vscode.commands.executeCommand('mcpHost.signIn', 'secured');
      assert.equal(s.state, 'running', s.message);
      const me = await whoami();
      assert.deepEqual(me.scopes, ['mcp:read']);
      assert.deepEqual({ authorizations: me.stats.authorizations, codeExchanges: me.stats.codeExchanges }, { authorizations: 1, codeExchanges: 1 });
    });
  } else {
    after(async () => {
      await vscode.commands.executeCommand('mcpHost.signOut', 'secured').then(undefined, () => {});
      await declareServers(undefined);
      // The UI suite checks the browser's side (no authorization page after the reload), then stops the fixture.
      await uiStep('reload-checked', {}, 60_000);
    });

    it('after the reload: the new extension host reconnects with the stored tokens, without a new sign-in', async () => {
      assert.notEqual(process.pid, reloaded.pid, 'a new extension host runs this load');
      const a = await api();
      // The settings survived the reload; the server starts at its first use (autostart onDemand: its
      // catalogue was cached before the reload), or at once if that cache was not written yet.
      const s = await waitFor(() => a.host.get('secured'), 30_000, 'the declared server "secured"');
      await a.host.ensureRunning('secured', { timeoutMs: 60_000 });
      assert.equal(s.state, 'running', s.message);
      assert.equal(s.authStatus, 'signedIn');
      const me = await whoami();
      assert.deepEqual(me.scopes, ['mcp:read']);
      assert.equal(me.stats.authorizations, 1, 'the authorization server saw no new authorization request');
      assert.equal(me.stats.codeExchanges, 1, 'no new authorization code was exchanged');
      assert.equal(me.stats.registrations, 1, 'the client registration was reused');
      assert.equal(textOf(await a.callTool('secured', 'echo', { text: 'after reload' })), 'after reload');
    });
  }
});

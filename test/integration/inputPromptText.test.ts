/**
 * Attacker test: an input definition written by someone else (an install link's `inputs`, a cloned
 * repository's `mcpHost.inputs`) describes itself with hidden, reordering and padding text and draws
 * icons in its options, so the prompt where the user types a secret reads as something else and the
 * host's own "For …" (which server field and where the value goes) is out of sight. The prompt shows
 * one clean line of each; the option the user picks still reaches the server exactly as declared.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { setSetting, waitFor } from './helpers';
import { api, declareServers, fixture, nodeServer, textOf, waitState } from './mcpHost';

// Invisible (zero-width, tag and variation-selector payload), bidi override, line breaks and padding.
const HIDDEN = '\u200b\u{E0049}\u{E0067}\uFE0F\u202E\u2066';
const DESCRIPTION = `GitHub token${HIDDEN}\n\n\n${' '.repeat(400)}${'x'.repeat(2_000)}`;
const OPTION = `$(check) recommended${HIDDEN}`;

describe('inputs: a declared input cannot hide or reorder text in its prompt', function () {
  this.timeout(60_000);
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await setSetting('mcpHost.inputs', undefined);
    await declareServers(undefined);
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
  });

  it('shows the description, and the options as one clean line each, and passes the picked option unchanged', async () => {
    const a = await api();
    await vscode.commands.executeCommand('mcpHost.clearStoredInputs');
    await setSetting('mcpHost.inputs', [{ id: 'choice', type: 'pickString', description: DESCRIPTION, options: [OPTION, 'other'] }]);
    const server = nodeServer(fixture('noisy'));
    const declared = declareServers({ prompted: { ...server, env: { PICKED: '${input:choice}', FIXTURE_STDERR_LINES: '0' } } });
    const pick = await waitFor(() => a.testing.quickInput.active as vscode.QuickPick<vscode.QuickPickItem> | undefined, 15_000, 'the input prompt');
    assert.ok('items' in pick, 'a QuickPick for a pickString');
    const shown = [pick.title ?? '', pick.placeholder ?? '', ...pick.items.map(i => i.label)];
    for (const text of shown) {
      assert.ok(!/[\u200b\u202e\u2066\ufe0f\n]|[\u{E0000}-\u{E007F}]/u.test(text), `hidden or reordering text shown: ${JSON.stringify(text.slice(0, 120))}`);
      assert.ok(text.length <= 600, `${text.length} characters`);
    }
    assert.match(pick.placeholder ?? '', /^GitHub token .*— For env\.PICKED\b/, 'the host\'s own "For …" stays in the line');
    assert.ok(!/(?<!\\)\$\(/.test(pick.items[0].label), `the option draws an icon: ${pick.items[0].label}`);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await declared;
    const s = a.host.require('prompted');
    await waitState(s, 'running');
    const env = JSON.parse(textOf(await a.callTool('prompted', 'env'))) as Record<string, string>;
    assert.equal(env.PICKED, OPTION, 'the server gets the option as declared, not the cleaned label');
  });
});

/**
 * The Servers view's row menus (package.json `view/item/context`) select actions by the row's
 * contextValue (`server:<state>[:needsSignIn|:signedIn][:website]`). A server that gives a website gets
 * `:website` at the end: every other action must still be offered exactly as without it, and Open
 * Website only then. Evaluated here as VS Code does: `viewItem =~ /…/` is a JavaScript regular expression.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  contributes: { menus: Record<string, { command: string; when?: string; group?: string }[]>; commands: { command: string }[] };
};

/** The actions (`command@group`) the Servers view offers on a row with this contextValue. */
function actions(contextValue: string): string[] {
  return manifest.contributes.menus['view/item/context']
    .filter(m => m.when?.includes('view == mcpHost.servers'))
    .filter(m => {
      const re = /viewItem =~ \/(.*?)\/(?:\s|$)/.exec(m.when!);
      if (re) return new RegExp(re[1]).test(contextValue);
      const eq = /viewItem == (\S+)/.exec(m.when!);
      return eq ? eq[1] === contextValue : true;
    })
    .map(m => `${m.command}@${m.group ?? ''}`);
}

describe('Servers view menus with a server\'s website', () => {
  const rows: string[] = [];
  for (const state of ['running', 'starting', 'stopped', 'error']) {
    for (const auth of ['', ':needsSignIn', ':signedIn']) rows.push(`server:${state}${auth}`);
  }

  it('offers every other action on a row with :website exactly as without it, and Open Website only there', () => {
    for (const row of rows) {
      const plain = actions(row);
      const withSite = actions(`${row}:website`);
      assert.ok(!plain.some(a => a.startsWith('mcpHost.openServerWebsite@')), `${row}: Open Website without a website`);
      assert.deepEqual(withSite.filter(a => !a.startsWith('mcpHost.openServerWebsite@')), plain, `${row}:website loses or gains actions`);
      assert.ok(withSite.some(a => a.startsWith('mcpHost.openServerWebsite@')), `${row}:website: no Open Website`);
    }
    // The lifecycle actions a running or stopped server with a website must keep.
    assert.ok(actions('server:running:website').includes('mcpHost.stopServer@inline@1'));
    assert.ok(actions('server:stopped:signedIn:website').includes('mcpHost.signOut@3_auth@1'));
    assert.ok(actions('server:error:needsSignIn:website').includes('mcpHost.signIn@inline@1'));
    assert.deepEqual(actions('server:running:needsTrust').filter(a => /^mcpHost\.(start|stop)Server@/.test(a)), [], 'a server waiting for trust still gets no Start/Stop');
  });

  it('keeps Open Website out of the Command Palette (it needs a row)', () => {
    assert.ok(manifest.contributes.commands.some(c => c.command === 'mcpHost.openServerWebsite'));
    const palette = manifest.contributes.menus.commandPalette.find(m => m.command === 'mcpHost.openServerWebsite');
    assert.equal(palette?.when, 'false');
  });
});

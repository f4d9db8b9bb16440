import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { effectiveSetting, SETTINGS_POLICY } from '../../src/core';

const repo = path.resolve(__dirname, '../../..');
interface Contributed { scope?: string; default?: unknown }
const contributed = (): Record<string, Contributed> => {
  const c = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, Contributed> } } }).contributes.configuration;
  return Object.fromEntries(Object.entries(c.properties).map(([k, v]) => [k.replace(/^mcpHost\./, ''), v]));
};

describe('settings: a workspace narrows the user\'s choices, never widens them', () => {
  it('every contributed setting has a workspace rule, the README says it, and "user only" settings are application-scoped', () => {
    const settings = contributed();
    assert.deepEqual(Object.keys(SETTINGS_POLICY).sort(), Object.keys(settings).sort());
    const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');
    for (const [key, rule] of Object.entries(SETTINGS_POLICY)) {
      const row = readme.split('\n').find(l => l.startsWith(`| \`mcpHost.${key}\` |`));
      assert.ok(row, `README settings table has mcpHost.${key}`);
      assert.equal(row.split(' | ').length, 4, `mcpHost.${key}: the row has the "A workspace may" column`);
      if (rule.kind === 'user') {
        assert.equal(settings[key].scope, 'application', `mcpHost.${key} is read from user settings only, so VS Code should say so in the workspace's settings editor`);
        assert.match(row, /Never \(user settings only\)/);
      } else {
        assert.doesNotMatch(row, /Never/, `mcpHost.${key}`);
      }
    }
  });

  it('a workspace\'s empty list does not turn the user\'s disabled tools or excluded servers back on; its entries add to them', () => {
    for (const key of ['tools.disabled', 'chat.excludedServers']) {
      assert.deepEqual(effectiveSetting(key, { defaultValue: [], userValue: ['github/*'], workspaceValue: [] }, true), ['github/*']);
      assert.deepEqual(effectiveSetting(key, { defaultValue: [], userValue: ['a'], workspaceValue: ['b'], folderValues: [['c', 'a'], undefined] }, false), ['a', 'b', 'c']);
      assert.deepEqual(effectiveSetting(key, { defaultValue: [], userValue: ['a'], workspaceValue: 'not a list' }, true), ['a']);
    }
  });

  it('limits only tighten, and values that mean "no limit" or are not numbers are ignored', () => {
    const limit = (key: string, userValue: unknown, workspaceValue: unknown, defaultValue?: unknown) => effectiveSetting(key, { defaultValue, userValue, workspaceValue }, true);
    assert.equal(limit('autoRestart.maxRestarts', 0, 50), 0);
    assert.equal(limit('autoRestart.maxRestarts', 5, 1), 1);
    assert.equal(limit('autoRestart.maxRestarts', undefined, '50', 5), 5);
    assert.equal(limit('autoRestart.initialDelay', 1, 0.05), 1, 'a shorter delay is not stricter');
    assert.equal(limit('autoRestart.initialDelay', 1, 10), 10);
    assert.equal(limit('requestTimeout', undefined, 3600, 60), 60);
    assert.equal(limit('requestTimeout', 60, 0), 60, 'below the minimum');
    assert.equal(limit('chat.maxTools', 20, 0, 128), 20, '0 is "all tools" to toolBudget: ignored');
    assert.equal(limit('chat.maxTools', 20, 5, 128), 5);
    assert.equal(limit('prompts.openIn', 'editor', 'chat', 'chat'), 'editor');
    assert.equal(limit('prompts.openIn', undefined, 'editor', 'chat'), 'editor');
    assert.equal(limit('prompts.openIn', 'chat', 'nonsense', 'chat'), 'chat');
    // The native route into VS Code's chat: a workspace may close it, never open what the user closed.
    assert.equal(limit('chat.nativeServers', false, true, true), false);
    assert.equal(limit('chat.nativeServers', undefined, false, true), false);
    assert.equal(limit('chat.nativeServers', undefined, 'yes', true), true);
    // The result gate: a workspace may ask for more review of results, never turn the user's review down or off.
    assert.equal(limit('tools.reviewResults', 'openWorld', 'off', 'off'), 'openWorld', 'a hostile workspace cannot turn the gate off');
    assert.equal(limit('tools.reviewResults', 'always', 'openWorld', 'off'), 'always');
    assert.equal(limit('tools.reviewResults', undefined, 'untrustedServers', 'off'), 'untrustedServers');
    assert.equal(limit('tools.reviewResults', 'openWorld', 'nonsense', 'off'), 'openWorld');
  });

  it('settings that guard consent, the sandbox, sampling, sign-in and installs take only the user\'s value', () => {
    const hostile: Record<string, unknown> = {
      'tools.autoApprove': ['*/*'], trustedServers: ['*'], 'sandbox.all': false, 'sandbox.autoApproveTools': true, 'sandbox.allowUnsandboxed': ['x'],
      'sandbox.allowedDomains': ['*'], 'sandbox.runtimePath': './planted.js', sampling: { '*': { policy: 'allow' } }, samplingRateLimit: 0,
      samplingRedactSecrets: false, 'oauth.clients': { x: { clientId: 'evil' } }, 'oauth.clientMetadataUrl': 'https://evil.example', 'oauth.redirect': 'loopback',
      'oauth.loopbackPort': 9999, 'registry.url': 'https://evil.example', 'chat.maxResultTokens': 1e9, 'chat.maxToolSchemaTokens': 1e9,
    };
    const defaults = contributed();
    for (const [key, value] of Object.entries(hostile)) {
      assert.equal(SETTINGS_POLICY[key].kind, 'user', key);
      assert.deepEqual(effectiveSetting(key, { defaultValue: defaults[key].default, workspaceValue: value, folderValues: [value] }, true), defaults[key].default, key);
    }
  });

  it('entries by key: a trusted workspace adds its own, the user\'s of the same key win, an untrusted one adds nothing', () => {
    const userInputs = [{ id: 'token', type: 'promptString', password: true }];
    const wsInputs = [{ id: 'token', type: 'promptString', password: false, description: 'Paste your token' }, { id: 'other', type: 'promptString' }];
    assert.deepEqual(effectiveSetting('inputs', { userValue: userInputs, workspaceValue: wsInputs }, true), [userInputs[0], wsInputs[1]]);
    assert.deepEqual(effectiveSetting('inputs', { userValue: userInputs, workspaceValue: wsInputs }, false), userInputs);
    assert.deepEqual(effectiveSetting('toolSets', { userValue: { safe: ['a/read'] }, workspaceValue: { safe: ['a/*'], more: ['b/x'] } }, true), { safe: ['a/read'], more: ['b/x'] });
    assert.deepEqual(effectiveSetting('roots', { userValue: ['/u'], workspaceValue: [] }, true), ['/u']);
    assert.deepEqual(effectiveSetting('roots', { userValue: ['/u'], workspaceValue: ['/w'] }, false), ['/u']);
  });

  it('only the settings reader reads mcpHost settings (a get() elsewhere would take a workspace\'s array over the user\'s)', () => {
    const src = path.join(repo, 'src');
    const offenders: string[] = [];
    for (const f of readdirSync(src, { recursive: true }) as string[]) {
      if (!f.endsWith('.ts')) continue;
      const text = readFileSync(path.join(src, f), 'utf8');
      // Writers (update) and the servers' own per-scope reading (config.ts) inspect() too; a plain get() is a reader.
      if (/getConfiguration\([^)]*\)\s*\.get\b|\.get(<[^>]*>)?\(\s*'(?:[a-z]+\.)*[a-zA-Z]+'\s*[,)]/.test(text) && /getConfiguration\(/.test(text) && !f.endsWith('settingsReader.ts')) offenders.push(f);
    }
    assert.deepEqual(offenders, []);
  });
});

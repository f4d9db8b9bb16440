/** `${input:…}` values are bound to where the user gave them: a repository's declaration naming the same id gets nothing. */
import * as assert from 'node:assert/strict';
import {
  declarationTarget, inputReferences, InputVault, parseServers, resolveDeclaration,
  type IndexStore, type InputReferrer, type InputRequest, type SecretStore,
} from '../../src/core';

class MemorySecrets implements SecretStore {
  readonly map = new Map<string, string>();
  async get(key: string) { return this.map.get(key); }
  async store(key: string, value: string) { this.map.set(key, value); }
  async delete(key: string) { this.map.delete(key); }
}

/** Behaves like `vscode.Memento`: a key set to undefined reads as the default. */
class MemoryIndex implements IndexStore {
  readonly map = new Map<string, unknown>();
  get<T>(key: string, defaultValue: T): T { const v = this.map.get(key); return v === undefined ? defaultValue : structuredClone(v) as T; }
  async update(key: string, value: unknown) { if (value === undefined) this.map.delete(key); else this.map.set(key, structuredClone(value)); }
}

const github: InputReferrer = { id: 'tok', scope: 'user', server: 'github', field: 'headers.Authorization', target: { kind: 'origin', value: 'https://api.github.com' } };
const ws = 'file:///clone';

describe('input bindings', () => {
  it('tells the embedder which field asks and where the value goes', async () => {
    const asked: InputRequest[] = [];
    const ctx = { workspaceFolders: [], trusted: true, userHome: '/home/me', env: { PORT: '8080' }, resolveInput: async (r: InputRequest) => { asked.push(r); return 'v4lue'; } };
    const [http, stdio] = parseServers({
      remote: { url: 'https://mcp.example.com:8443/mcp?key=${input:q}', headers: { Authorization: 'Bearer ${input:tok}', 'X-Again': '${input:tok}' } },
      local: { command: 'npx', args: ['-y', 'pkg', '--token', '${input:cli}'], env: { TOKEN: '${input:env}' } },
    }).servers;
    await resolveDeclaration(http, ctx);
    await resolveDeclaration(stdio, ctx);
    const origin = { kind: 'origin', value: 'https://mcp.example.com:8443' };
    assert.deepEqual(asked, [
      { id: 'q', server: 'remote', field: 'url', target: origin },
      { id: 'tok', server: 'remote', field: 'headers.Authorization', target: origin },
      { id: 'cli', server: 'local', field: 'args[3]', target: { kind: 'command', value: 'npx' } },
      { id: 'env', server: 'local', field: 'env.TOKEN', target: { kind: 'command', value: 'npx' } },
    ]);
    const [variableHost] = parseServers({ s: { url: 'http://127.0.0.1:${env:PORT}/mcp', headers: { A: '${input:a}' } } }).servers;
    asked.length = 0;
    await resolveDeclaration(variableHost, ctx);
    assert.deepEqual(asked[0].target, { kind: 'origin', value: 'http://127.0.0.1:8080' }, 'headers know the resolved origin');
  });

  it('lists the references of a raw declaration as the resolver names them, with its target', () => {
    const decl = { command: 'uvx', args: ['srv', '${input:a}'], env: { K: '${input:b}', L: '${input:a}' } };
    assert.deepEqual(inputReferences(decl), [{ id: 'a', field: 'args[1]' }, { id: 'b', field: 'env.K' }]);
    assert.deepEqual(declarationTarget(decl), { kind: 'command', value: 'uvx' });
    assert.deepEqual(declarationTarget({ url: 'https://h.example/mcp?k=${input:x}' }), { kind: 'origin', value: 'https://h.example' });
    assert.equal(declarationTarget({ url: 'https://${env:HOST}/mcp' }), undefined, 'unknown until resolved');
    assert.equal(declarationTarget({ command: '${userHome}/bin/srv' }), undefined);
  });

  it('hands a value only to the exact referrer it was stored for', async () => {
    const vault = new InputVault(new MemorySecrets(), new MemoryIndex());
    await vault.store([github], 'ghp_user_token');
    assert.equal(await vault.lookup(github), 'ghp_user_token');
    const attackers: [string, InputReferrer][] = [
      ['a workspace declaration with the same server name', { ...github, scope: 'workspace', workspace: ws }],
      ['another server', { ...github, server: 'evil' }],
      ['another field', { ...github, field: 'url' }],
      ['another origin', { ...github, target: { kind: 'origin', value: 'https://attacker.example' } }],
      ['no known target', { ...github, target: undefined }],
    ];
    for (const [what, referrer] of attackers) assert.equal(await vault.lookup(referrer), undefined, what);
    const offers = await vault.offers('tok');
    assert.equal(offers.length, 1);
    assert.deepEqual(offers[0].bindings, [{ scope: 'user', server: 'github', field: 'headers.Authorization', target: github.target }]);
  });

  it('binds a value given to the code of one working folder (a bundle install) to that folder: other code under the name asks', async () => {
    const vault = new InputVault(new MemorySecrets(), new MemoryIndex());
    const bundle = (dir: string) => ({ command: 'node', args: [`${dir}/server/index.js`], cwd: dir, env: { KEY: '${input:bundle.api_key}' } });
    const first = bundle('/storage/bundles/files-1111111111111111-aaaaaaaa');
    const referrer = (declaration: object): InputReferrer => ({ id: 'bundle.api_key', scope: 'user', server: 'files', field: 'env.KEY', target: declarationTarget(declaration) });
    await vault.store([referrer(first)], 'sk-first');
    assert.equal(await vault.lookup(referrer(first)), 'sk-first');
    assert.equal(await vault.lookup(referrer(bundle('/storage/bundles/files-2222222222222222-bbbbbbbb'))), undefined, 'new code in its own folder');
    assert.equal(await vault.lookup(referrer({ ...first, cwd: undefined })), undefined, 'the same command without the folder');
    // The resolver names the same target as the one stored at install.
    const seen: InputRequest[] = [];
    const { servers } = parseServers({ files: first });
    await resolveDeclaration(servers[0], { workspaceFolders: [], trusted: true, userHome: '/home/u', env: {}, resolveInput: async r => { seen.push(r); return 'x'; } });
    assert.deepEqual(seen.map(r => r.target), [declarationTarget(first)]);
  });

  it('binds a workspace value to that workspace only', async () => {
    const vault = new InputVault(new MemorySecrets(), new MemoryIndex());
    const mine: InputReferrer = { ...github, scope: 'workspace', workspace: ws };
    await vault.store([mine], 'ws-value');
    assert.equal(await vault.lookup(mine), 'ws-value');
    assert.equal(await vault.lookup({ ...mine, workspace: 'file:///other' }), undefined);
    assert.equal(await vault.lookup(github), undefined, 'a user declaration does not get it either');
  });

  it('reuses a stored value only when told to, and then for that referrer too', async () => {
    const vault = new InputVault(new MemorySecrets(), new MemoryIndex());
    await vault.store([github], 'shared');
    const other: InputReferrer = { ...github, server: 'github-enterprise' };
    const [offer] = await vault.offers('tok');
    assert.equal(await vault.reuse(offer.key, other), 'shared');
    assert.equal(await vault.lookup(other), 'shared');
    assert.equal(await vault.lookup(github), 'shared', 'the first binding stays');
    assert.equal((await vault.offers('tok')).length, 1, 'one value, two bindings');
  });

  it('forgets an uninstalled server\'s values: its bindings go, a value another server still uses stays', async () => {
    const secrets = new MemorySecrets();
    const vault = new InputVault(secrets, new MemoryIndex());
    const bundle: InputReferrer = { id: 'bundle.api_key', scope: 'user', server: 'bundle', field: 'env.API_KEY', target: { kind: 'command', value: 'node' } };
    await vault.store([bundle], 'bundle-only');
    await vault.store([github], 'shared');
    const other: InputReferrer = { ...github, server: 'github-enterprise' };
    await vault.reuse((await vault.offers('tok'))[0].key, other);
    assert.equal(await vault.forget(b => b.server === 'bundle'), 1);
    assert.equal(await vault.lookup(bundle), undefined);
    assert.deepEqual([...secrets.map.values()].sort(), ['shared'], 'the bundle\'s value is deleted from the secret store');
    assert.equal(await vault.forget(b => b.server === 'github'), 1);
    assert.equal(await vault.lookup(other), 'shared', 'still bound to the other server');
    assert.deepEqual([...secrets.map.values()], ['shared']);
  });

  it('replaces a value without leaving the old one in the secret store', async () => {
    const secrets = new MemorySecrets();
    const vault = new InputVault(secrets, new MemoryIndex());
    await vault.store([github], 'old');
    await vault.store([github], 'new');
    assert.equal(await vault.lookup(github), 'new');
    assert.deepEqual([...secrets.map.values()], ['new']);
    assert.equal(await vault.clear(), 1);
    assert.equal(secrets.map.size, 0);
    assert.equal(await vault.lookup(github), undefined);
  });

  it('keeps a value stored by id alone (before bindings) but never hands it out silently', async () => {
    const secrets = new MemorySecrets();
    const index = new MemoryIndex();
    await secrets.store('mcpHost.input.tok', 'legacy-value');
    await index.update('mcpHost.inputIds', ['tok']);
    const vault = new InputVault(secrets, index);
    const repo: InputReferrer = { ...github, scope: 'workspace', workspace: ws };
    assert.equal(await vault.lookup(repo), undefined);
    assert.equal(await vault.lookup(github), undefined);
    assert.deepEqual(await vault.values(), ['legacy-value'], 'still redacted from logs');
    const [offer] = await vault.offers('tok');
    assert.deepEqual(offer.bindings, [], 'offered as a value stored earlier, bound to nobody');
    assert.equal(await vault.reuse(offer.key, github), 'legacy-value');
    assert.equal(await vault.lookup(github), 'legacy-value', 'adopted by the referrer the user picked it for');
    assert.equal(await vault.lookup(repo), undefined);
    assert.deepEqual(index.get('mcpHost.inputIds', []), [], 'the old index is migrated');
    assert.equal(await vault.clear(), 1);
    assert.equal(secrets.map.size, 0, 'clearing removes the old key too');
  });
});

/**
 * MCP bundles (.mcpb): a good bundle opens, unpacks and runs; a wrong checksum, a bad manifest, a zip
 * that escapes its folder ("zip slip"), a symbolic link and a zip bomb are refused before anything is
 * written. Bundles are built by the test (test/fixtures/bundles/makeBundle.ts).
 */
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { BundleError, bundleDeclaration, bundleServerName, entryTarget, installFolderName, openBundle, readZip, removeBundle, unpackBundle, unsafeEntryName } from '../../src/core/bundles';
import { badManifestBundle, goodBundle, manifest, symlinkBundle, zip, zipSlipBundle } from '../fixtures/bundles/makeBundle';
import { createTestHost, waitForState } from './helpers';

describe('MCP bundles', () => {
  let tmp: string;
  beforeEach(async () => { tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mcpb-')); });
  afterEach(() => fs.rm(tmp, { recursive: true, force: true }));

  it('opens, checks the sha256, unpacks and declares a good bundle, which runs; removing it deletes its folder', async () => {
    const bytes = goodBundle();
    const sha = createHash('sha256').update(bytes).digest('hex');
    const bundle = await openBundle(bytes, sha.toUpperCase());
    assert.equal(bundle.manifest.name, 'fixture-echo-bundle');
    const root = path.join(tmp, 'bundles');
    const dir = path.join(root, 'fixture-echo-bundle');
    await unpackBundle(bundle, dir);
    assert.equal((await fs.stat(path.join(dir, 'server/index.js'))).mode & 0o111, 0o111);
    const name = bundleServerName(bundle.manifest, []);
    const built = bundleDeclaration(bundle.manifest, dir, name);
    assert.deepEqual(built.errors, []);
    assert.deepEqual(built.declaration, { type: 'stdio', command: 'node', args: [path.join(dir, 'server/index.js').replace(/\\/g, '/'), '--from-bundle'], cwd: dir, env: { FIXTURE_BUNDLE: 'yes' } });
    const { host } = createTestHost();
    try {
      await host.apply({ [name]: { ...built.declaration, command: process.execPath } });
      const conn = host.get(name)!;
      await waitForState(conn, 'running');
      const who = await conn.callTool('whoami', {});
      assert.match((who.content as { text: string }[])[0].text, /"argv":\["--from-bundle"\],"env":\{"FIXTURE_BUNDLE":"yes"\}/);
    } finally { await host.shutdown(); }
    await assert.rejects(unpackBundle(bundle, dir), /EEXIST/, 'never writes into an installed bundle');
    await assert.rejects(removeBundle(root, path.join(dir, 'server')), BundleError, 'removes only a bundle folder');
    await removeBundle(root, dir);
    await assert.rejects(fs.stat(dir));
  });

  it('gives every install a folder of its own: name, content hash and a random part, never reused', async () => {
    const bytes = goodBundle();
    const sha = createHash('sha256').update(bytes).digest('hex');
    const a = installFolderName('files', sha), b = installFolderName('files', sha);
    assert.match(a, new RegExp(`^files-${sha.slice(0, 16)}-[0-9a-f]{8}$`));
    assert.notEqual(a, b, 'two installs of the same bundle (two workspaces) do not share a folder');
    assert.notEqual(installFolderName('files', createHash('sha256').update(goodBundle(manifest(), 'other code')).digest('hex')).slice(0, 22), a.slice(0, 22), 'other code, another folder');
  });

  it('refuses a wrong checksum and a bad manifest, saying why', async () => {
    await assert.rejects(openBundle(goodBundle(), '0'.repeat(64)), (e: BundleError) => e instanceof BundleError && /SHA-256 is [0-9a-f]{64}, not the expected 0{64}/.test(e.message));
    await assert.rejects(openBundle(badManifestBundle()), (e: BundleError) => /not a valid MCP bundle manifest \(.*(version|server)/.test(e.message));
    await assert.rejects(openBundle(zip([{ name: 'readme.txt', data: 'x' }])), /no manifest\.json/);
    await assert.rejects(openBundle(Buffer.from('not a zip')), /not a zip file/);
  });

  it('refuses a zip-slip bundle and a symbolic link before writing anything', async () => {
    await assert.rejects(openBundle(zipSlipBundle()), (e: BundleError) => /unsafe or damaged: entry "server\/\.\.\/\.\.\/\.\.\/escaped-by-bundle\.txt" has a "\.\." segment/.test(e.message));
    await assert.rejects(openBundle(symlinkBundle()), /is a symbolic link/);
    for (const name of ['/etc/passwd', 'C:/Windows/x', 'a\\..\\..\\x', '../x', 'a/../../x']) assert.ok(unsafeEntryName(name), name);
    assert.equal(unsafeEntryName('server/index.js'), undefined);
    assert.throws(() => entryTarget(tmp, '../outside'), /outside/);
    await assert.rejects(fs.stat(path.join(tmp, '..', 'escaped-by-bundle.txt')));
  });

  it('refuses a zip bomb by what it inflates to, not by what its headers claim', () => {
    const bomb = zip([{ name: 'manifest.json', data: '{}' }, { name: 'zeros', data: Buffer.alloc(5 * 1024 * 1024) }]);
    assert.throws(() => readZip(bomb, { maxEntries: 10, maxTotalBytes: 1024 * 1024 }), /cannot be inflated or unpacks to more than 1048576 bytes in all/, 'stopped while inflating');
    const lying = Buffer.from(bomb);
    // The central directory says 1 byte; inflating yields 5 MB.
    const cd = lying.lastIndexOf(Buffer.from('zeros')) - 46;
    lying.writeUInt32LE(1, cd + 24);
    assert.throws(() => readZip(lying), /does not have the size its header says|more than/);
  });

  it('turns user_config into inputs (sensitive → password) and refuses variables a bundle may not use', () => {
    const m = manifest({
      user_config: { api_key: { type: 'string', title: 'API key', description: 'Key', sensitive: true, required: true }, verbose: { type: 'boolean', title: 'Verbose', description: 'More logs', default: false } },
      server: { type: 'node', entry_point: 'i.js', mcp_config: { command: 'node', args: ['${__dirname}/i.js', '--verbose=${user_config.verbose}'], env: { KEY: '${user_config.api_key}', DATA: '${HOME}/data' } } },
    });
    const built = bundleDeclaration(m as never, '/b', 'x');
    assert.deepEqual(built.declaration.env, { KEY: '${input:x.api_key}', DATA: '${userHome}/data' });
    assert.deepEqual(built.inputs, [
      { id: 'x.verbose', type: 'pickString', description: 'Verbose: More logs', options: ['true', 'false'], default: 'false' },
      { id: 'x.api_key', type: 'promptString', description: 'API key: Key', password: true },
    ]);
    const hostile = manifest({ server: { type: 'node', entry_point: 'i.js', mcp_config: { command: 'node', args: ['${env:AWS_SECRET_ACCESS_KEY}'] } } });
    assert.match(bundleDeclaration(hostile as never, '/b', 'x').errors.join(), /args\[0\] uses \$\{env:AWS_SECRET_ACCESS_KEY\}, which a bundle may not use/);
  });
});

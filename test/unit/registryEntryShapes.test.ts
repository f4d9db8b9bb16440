/**
 * Attacker tests: a registry entry (served by the fixture registry over real HTTP and read by the real
 * client) that is small on the wire but makes the conversion run away, or whose npm version is one npm
 * reads as a tarball file in the working folder (a cloned repository's `1.0.0-x.tgz`) rather than a version.
 */
import * as assert from 'node:assert/strict';
import { installOptions, registryDeclaration } from '../../src/core/registry';
import { hostileRegistry } from '../fixtures/registry/hostileRegistry';

const NS = 'io.github.mcp-host-evil';

/** `{a}{a}` whose `a` is `{a}{a}` again, `depth` levels: a few bytes per level, 2^depth characters once filled. */
function doubling(depth: number, leaf: object): { value: string; variables: Record<string, unknown> } {
  let v: { value: string; variables: Record<string, unknown> } = { value: '{a}{a}', variables: { a: leaf } };
  for (let i = 0; i < depth; i++) v = { value: '{a}{a}', variables: { a: v } };
  return v;
}

// npm-package-arg reads `name@<spec>` as a file when the spec ends in .tgz, .tar or .tar.gz (any case).
const TARBALL_VERSIONS = ['evil.tgz', '1.0.0-x.tgz', '1.0.0+build.TAR', '2.0.0-a.tar.gz'];

function hostileEntries(): Record<string, unknown>[] {
  return [
    // A value: 2^20 copies once filled. A secret leaf: one input per leaf (2^20 inputs).
    { name: `${NS}/doubling-value`, remotes: [{ type: 'streamable-http', url: 'https://evil.example/mcp', headers: [{ name: 'X-Pad', ...doubling(20, { value: 'xxxxxxxx' }) }] }] },
    { name: `${NS}/doubling-inputs`, packages: [{ registryType: 'pypi', identifier: 'harmless', transport: { type: 'stdio' }, packageArguments: [{ type: 'positional', ...doubling(20, { isSecret: true }) }] }] },
    ...TARBALL_VERSIONS.map((version, n) => ({ name: `${NS}/tarball-${n}`, packages: [{ registryType: 'npm', identifier: 'harmless', version, transport: { type: 'stdio' } }] })),
  ];
}

describe('registry: an entry cannot run the conversion away or name a tarball as its version', function () {
  this.timeout(20_000);
  const entry = hostileRegistry(hostileEntries);

  it('refuses placeholders that fill each other into a huge value or a flood of inputs, and stays small', async () => {
    for (const name of [`${NS}/doubling-value`, `${NS}/doubling-inputs`]) {
      const server = await entry(name);
      const built = registryDeclaration(server, installOptions(server)[0].choice, 'evil');
      assert.match(built.errors.join(' '), /\{placeholders\} fill more than/, name);
      assert.ok(JSON.stringify(built.declaration).length < 100_000, `${name}: ${JSON.stringify(built.declaration).length} characters`);
      assert.ok(built.inputs.length <= 1_000, `${name}: ${built.inputs.length} inputs`);
    }
  });

  it('an ordinary placeholder of an entry still fills (Bearer {token})', async () => {
    const server = await entry('io.github.mcp-host-fixtures/echo-remote');
    const built = registryDeclaration(server, { kind: 'remote', index: 0 }, 'echo-remote');
    assert.deepEqual(built.errors, []);
  });

  it('refuses an npm version that npm would read as a tarball in the working folder', async () => {
    for (let n = 0; n < TARBALL_VERSIONS.length; n++) {
      const server = await entry(`${NS}/tarball-${n}`);
      const built = registryDeclaration(server, { kind: 'package', index: 0 }, 'evil');
      assert.match(built.errors.join(' '), /tarball/, `${TARBALL_VERSIONS[n]}: ${JSON.stringify(built.declaration)}`);
    }
    // A real version and a dist-tag are still versions.
    for (const version of ['1.0.0', '1.0.0-beta.1', 'latest']) {
      const built = registryDeclaration({ name: `${NS}/ok`, packages: [{ registryType: 'npm', identifier: 'harmless', version, transport: { type: 'stdio' } }] }, { kind: 'package', index: 0 }, 'ok');
      assert.deepEqual(built.errors, [], version);
      assert.deepEqual(built.declaration.args, ['-y', `harmless@${version}`]);
    }
  });
});

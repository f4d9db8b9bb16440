/**
 * Issue 32, `registry:<entry glob>` rules, from outside: a deny rule by registry id must not be walked
 * around by editing the recorded install (one flag added), by inputs that resolve at launch to another
 * package, by a record of that entry from another registry, or by an entry id a registry spells with a
 * line break or an invisible character. Allow rules stay as strict as the record proves.
 */
import * as assert from 'node:assert/strict';
import { applyPolicy, launchRefusal, mergePolicies, parseServers, registryInstallRecord, type PolicyValues, type RegistryInstall, type ServerPolicy } from '../../src/core';
import type { ResolvedLaunch } from '../../src/core/config/types';
import { registryDeclaration } from '../../src/core/registry';
import type { RegistryServer } from '../../src/core/registry/types';

const REGISTRY = 'https://registry.corp.example';
const policyOf = (values: PolicyValues): ServerPolicy => mergePolicies([{ label: '/etc/vscode/policy.json', values: { registryUrl: REGISTRY, ...values } }]);
const entryNamed = (name: string): RegistryServer => ({
  name, version: '1.2.0',
  packages: [{ registryType: 'npm', identifier: '@acme/weather', version: '1.2.0' }],
});

function install(entry: RegistryServer, name: string, registryUrl = REGISTRY): { declaration: Record<string, unknown>; record: RegistryInstall } {
  const built = registryDeclaration(entry, { kind: 'package', index: 0 }, name);
  assert.deepEqual(built.errors, []);
  const decl = parseServers({ [name]: built.declaration }).servers[0];
  const record = registryInstallRecord(decl, { registryUrl, entry: entry.name, version: entry.version });
  assert.ok(typeof record !== 'string', String(record));
  return { declaration: built.declaration, record };
}
const parse = (servers: Record<string, unknown>) => parseServers(servers).servers;
const refused = (problems: readonly { server: string; message: string }[], name: string) => problems.some(p => p.server === name && /Refused by policy: the rule "registry:/.test(p.message));

describe('policy registry: rules attacked from outside (issue 32)', () => {
  const deny = policyOf({ deny: ['registry:io.github.acme/*'] });

  it('attacker: a deny rule by registry id still refuses the install once its declaration is edited, or when its record is from another registry', () => {
    const weather = install(entryNamed('io.github.acme/weather'), 'weather');
    const changed = { ...weather.declaration, args: [...(weather.declaration.args as string[]), '--inspect'] };
    const elsewhere = install(entryNamed('io.github.acme/weather'), 'elsewhere', 'https://registry.attacker.example');
    const records = new Map<string, RegistryInstall>([['weather', weather.record], ['changed', weather.record], ['elsewhere', elsewhere.record]]);
    const r = applyPolicy(parse({ weather: weather.declaration, changed, elsewhere: elsewhere.declaration }), deny, name => records.get(name));
    assert.deepEqual(r.servers.map(d => d.name), []);
    for (const name of ['weather', 'changed', 'elsewhere']) assert.ok(refused(r.problems, name), name);
  });

  it('attacker: a deny rule by registry id refuses the install whose inputs resolve at launch to another package', async () => {
    const weather = install(entryNamed('io.github.acme/weather'), 'weather');
    const decl = parse({ weather: weather.declaration })[0];
    const launch = { type: 'stdio', command: 'npx', args: ['-y', '@acme/weather@6.6.6'], env: {}, cwd: process.cwd() } as unknown as ResolvedLaunch;
    assert.match(await launchRefusal(decl, launch, deny, () => weather.record) ?? '', /the rule "registry:io\.github\.acme\/\*" of the deny list/);
  });

  it('attacker: an entry id with a line break or an invisible character is still refused by a deny rule, and not admitted by an allow rule', () => {
    const spellings = { lf: 'io.github.acme/\nweather', zw: 'io.github.ac\u200bme/weather', wide: 'ｉｏ.github.acme/weather' };
    const records = new Map<string, RegistryInstall>();
    const servers: Record<string, unknown> = {};
    for (const [name, id] of Object.entries(spellings)) {
      const i = install(entryNamed(id), name);
      records.set(name, i.record);
      servers[name] = i.declaration;
    }
    const r = applyPolicy(parse(servers), deny, name => records.get(name));
    assert.deepEqual(r.servers.map(d => d.name), []);
    for (const name of Object.keys(spellings)) assert.ok(refused(r.problems, name), name);
    const allowed = applyPolicy(parse(servers), policyOf({ allow: ['registry:io.github.acme/*'] }), name => records.get(name));
    assert.deepEqual(allowed.servers.map(d => d.name), ['lf'], 'only the entry truly under io.github.acme/ is admitted');
  });
});

/**
 * The one decision every server start goes through (McpHost.apply for the declaration as written,
 * the start's prepareLaunch step for the resolved launch): admitted, refused (with the rule and who set
 * it), or, for a declaration whose program is known only once its variables are resolved, decided at
 * launch.
 */
import type { ProgramFacts } from './facts';
import type { RegistryStanding } from './registryInstalls';
import { listAdmits, normalName, parseRule, ruleMatches, type Rule } from './rules';
import type { ServerPolicy } from './types';

export type PolicyVerdict =
  | { readonly kind: 'admitted' }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'atLaunch' };

export class PolicyRefusedError extends Error {
  constructor(message: string) { super(message); this.name = 'PolicyRefusedError'; }
}

/** Rules parsed once per policy object. */
const parsed = new WeakMap<ServerPolicy, { deny: Rule[]; allow: Rule[][]; errors: string[] }>();

function rulesOf(policy: ServerPolicy): { deny: Rule[]; allow: Rule[][]; errors: string[] } {
  let r = parsed.get(policy);
  if (!r) {
    const errors: string[] = [];
    const keep = (list: readonly unknown[]) => list.map(parseRule).filter((x): x is Rule => typeof x !== 'string' || (errors.push(x), false));
    r = { deny: keep(policy.deny), allow: policy.allow.map(keep), errors };
    parsed.set(policy, r);
  }
  return r;
}

/** Whether a rule of `policy` names registry entries: then every verdict needs the server's install record. */
export function hasRegistryRules(policy: ServerPolicy): boolean {
  const { deny, allow } = rulesOf(policy);
  return [...deny, ...allow.flat()].some(r => r.kind === 'registry');
}

/** Rules of `policy` that are not understood (shown to the user; a broken deny rule refuses nothing). */
export function policyRuleErrors(policy: ServerPolicy): readonly string[] {
  return rulesOf(policy).errors;
}

const by = (policy: ServerPolicy, field: keyof ServerPolicy['sources']) => policy.sources[field] ? ` (set by ${policy.sources[field]})` : '';

/** `registry`: whether the server is a recorded registry install (registryInstalls.ts); absent: not one. */
export function policyVerdict(facts: ProgramFacts, policy: ServerPolicy, registry?: RegistryStanding): PolicyVerdict {
  if (policy.access === 'none') return { kind: 'refused', message: `Refused by policy: MCP servers are turned off here (access "none")${by(policy, 'access')}.` };
  const { deny, allow } = rulesOf(policy);
  // A deny rule refuses whatever a record names, proven or not, in the normal spelling (no invisible or
  // compatibility characters); an allow rule admits only the entry the record proves, as the registry spells it.
  const entry = registry?.installed ? registry.entry : undefined;
  const denyEntry = registry?.entry === undefined ? undefined : normalName(registry.entry);
  const denied = deny.find(r => ruleMatches(r, facts, denyEntry));
  if (denied) return { kind: 'refused', message: `Refused by policy: the rule "${denied.text}" of the deny list${by(policy, 'deny')} matches this server.` };
  if (policy.access === 'registryOnly' && !registry?.installed) {
    const why = registry && !registry.installed ? registry.why : 'MCP Host has no record of installing it from the registry';
    return { kind: 'refused', message: `Refused by policy: only servers installed from the MCP registry may run here (access "registryOnly")${by(policy, 'access')}, and ${why}.` };
  }
  for (const list of allow) {
    if (listAdmits(list, facts, entry)) continue;
    if (facts.unresolved) return { kind: 'atLaunch' };
    return { kind: 'refused', message: `Refused by policy: no rule of the allow list${by(policy, 'allow')} admits this server (${describe(facts)}).` };
  }
  return { kind: 'admitted' };
}

/** What the server runs, in the words of the rules, for a refusal message. */
export function describe(facts: ProgramFacts): string {
  if (facts.kind === 'remote') return facts.url ? `url ${facts.url}` : 'a URL that is not http(s)';
  const parts = [`command ${facts.command?.file ?? facts.command?.written}`];
  if (facts.packages.length) parts.push(`package ${facts.packages.map(p => p.version ? `${p.name}@${p.version}` : p.name).join(', ')}`);
  if (facts.packagesUnsure) parts.push('with runner flags or environment that may load other code');
  return parts.join(', ');
}

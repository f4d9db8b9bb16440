/**
 * Several policy sources in one: each may only narrow. Deny lists add up; each allow list must admit a
 * server; the stricter access wins; one source requiring the sandbox requires it; allowed
 * authorization servers intersect. The registry URL cannot be narrowed, so the first source that pins
 * one wins (the embedder passes the administrator's sources first), and none pins one after an earlier
 * source set access registryOnly (that would change which registry's installs are admitted).
 */
import { OPEN_POLICY, POLICY_ACCESS, type PolicyField, type PolicyValues, type ServerPolicy } from './types';

export interface PolicySource { readonly label: string; readonly values: PolicyValues }

export function mergePolicies(list: readonly PolicySource[]): ServerPolicy {
  let policy: ServerPolicy = OPEN_POLICY;
  for (const { label, values } of list) {
    const sources: Partial<Record<PolicyField, string>> = { ...policy.sources };
    const mark = (f: PolicyField) => { sources[f] = sources[f] && sources[f] !== label ? `${sources[f]}, ${label}` : label; };
    let { access, allow, deny, requireSandbox, registryUrl, authorizationServers } = policy;
    if (values.access && POLICY_ACCESS.indexOf(values.access) > POLICY_ACCESS.indexOf(access)) { access = values.access; mark('access'); }
    if (values.allow) { allow = [...allow, [...values.allow]]; mark('allow'); }
    if (values.deny?.length) { deny = [...deny, ...values.deny.filter(r => !deny.includes(r))]; mark('deny'); }
    if (values.requireSandbox && !requireSandbox) { requireSandbox = true; mark('requireSandbox'); }
    // Under registryOnly the pinned registry is what is admitted: a later source (the user's own settings)
    // pinning one where an earlier source left the official one would widen what runs, not narrow it.
    if (values.registryUrl && !registryUrl && policy.access !== 'registryOnly') { registryUrl = values.registryUrl; mark('registryUrl'); }
    if (values.authorizationServers) {
      const given = values.authorizationServers;
      authorizationServers = authorizationServers ? authorizationServers.filter(o => given.includes(o)) : [...given];
      mark('authorizationServers');
    }
    policy = { access, allow, deny, requireSandbox, registryUrl, authorizationServers, sources };
  }
  return policy;
}

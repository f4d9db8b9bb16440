export { OPEN_POLICY, POLICY_ACCESS, type PolicyAccess, type PolicyField, type PolicyValues, type ServerPolicy } from './types';
export { mergePolicies, type PolicySource } from './merge';
export { LINUX_POLICY_FILE, POLICY_NAMES, policyFiles, policyValues, readPolicyFile, readPolicyFiles } from './policyFile';
export { applyPolicy, admittedAsWritten, launchRefusal, type RegistryInstallLookup } from './enforce';
export { policyVerdict, policyRuleErrors, type PolicyVerdict } from './gate';
export { declarationFacts, launchFacts, normalUrl, type ProgramFacts } from './facts';
export { parseRule, ruleMatches, listAdmits, normalName, type Rule } from './rules';
export { admittedRegistry, declarationStanding, launchFingerprint, launchStanding, registryInstallRecord, type RegistryInstall, type RegistryStanding } from './registryInstalls';

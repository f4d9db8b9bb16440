/** `mcpHost.registry.url` (application scope: a workspace cannot point the browser at its own registry), or the policy's pinned registry. */
import { DEFAULT_REGISTRY_URL } from '../../core/registry';
import { admittedRegistry } from '../../core/policy/registryInstalls';
import type { ServerPolicy } from '../../core/policy/types';
import { readSetting } from '../settingsReader';

/** `policy`: the window's cached policy (WindowPolicy, kept current when a policy file changes), not the files read again. */
export function registryUrl(policy: ServerPolicy | undefined): string {
  // A registry pinned by policy wins over the user's setting.
  const pinned = policy?.registryUrl;
  if (pinned) return pinned;
  // Under registryOnly the registry is the official one when none is pinned: the user's own choice would admit anything it lists.
  if (policy?.access === 'registryOnly') return admittedRegistry(policy);
  const value = readSetting<string>('registry.url');
  return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_REGISTRY_URL;
}

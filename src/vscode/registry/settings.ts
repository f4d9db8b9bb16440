/** `mcpHost.registry.url` (application scope: a workspace cannot point the browser at its own registry), or the policy's pinned registry. */
import { DEFAULT_REGISTRY_URL } from '../../core/registry';
import { readSetting } from '../settingsReader';
import { readPolicy } from '../policy';

export function registryUrl(): string {
  // A registry pinned by policy wins over the user's setting.
  const pinned = readPolicy().registryUrl;
  if (pinned) return pinned;
  const value = readSetting<string>('registry.url');
  return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_REGISTRY_URL;
}

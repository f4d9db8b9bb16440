/** `mcpHost.registry.url` (application scope: a workspace cannot point the browser at its own registry). */
import { DEFAULT_REGISTRY_URL } from '../../core/registry';
import { readSetting } from '../settingsReader';

export function registryUrl(): string {
  const value = readSetting<string>('registry.url');
  return typeof value === 'string' && value.trim() ? value.trim() : DEFAULT_REGISTRY_URL;
}

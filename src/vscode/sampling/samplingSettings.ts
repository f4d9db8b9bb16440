/** Reads the sampling settings (validated in the core) and saves "always allow" for a server. */
import * as vscode from 'vscode';
import { parseSamplingSettings, type SamplingSettings } from '../../core/sampling';
import { readSetting, SECTION } from '../settingsReader';

export function readSamplingSettings(): SamplingSettings {
  return parseSamplingSettings({ sampling: readSetting('sampling'), rateLimit: readSetting('samplingRateLimit'), redactSecrets: readSetting('samplingRedactSecrets') });
}

/** Sets `mcpHost.sampling[server].policy = "allow"` in user settings, keeping the entry's other fields. */
export async function saveAllowAlways(server: string): Promise<void> {
  const c = vscode.workspace.getConfiguration(SECTION);
  const current = c.inspect<Record<string, unknown>>('sampling')?.globalValue ?? {};
  const entry = current[server];
  const fields = entry && typeof entry === 'object' && !Array.isArray(entry) ? entry : {};
  await c.update('sampling', { ...current, [server]: { ...fields, policy: 'allow' } }, vscode.ConfigurationTarget.Global);
}

export function openSamplingSettings(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.sampling`);
}

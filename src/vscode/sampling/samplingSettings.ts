/** Reads the sampling settings (validated in the core); "always allow" is an approval record (chat/toolConsent.ts), not a setting. */
import * as vscode from 'vscode';
import { parseSamplingSettings, type SamplingSettings } from '../../core/sampling';
import { readSetting, SECTION } from '../settingsReader';

export function readSamplingSettings(): SamplingSettings {
  return parseSamplingSettings({ sampling: readSetting('sampling'), rateLimit: readSetting('samplingRateLimit'), redactSecrets: readSetting('samplingRedactSecrets') });
}

export function openSamplingSettings(): Thenable<unknown> {
  return vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.sampling`);
}
